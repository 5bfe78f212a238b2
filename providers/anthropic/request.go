package anthropic

import (
	"slices"
	"strconv"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

const (
	// defaultMaxTokens is max_tokens when the request sets none: the API
	// requires the field, and 8192 is accepted by every current model.
	defaultMaxTokens = 8192
	// thinkingCeiling caps the max_tokens derived for thinking; 32000 is
	// the smallest output limit among models with extended thinking
	// (Opus 4 and 4.1).
	thinkingCeiling = 32000
	// webSearchName is the fixed name of the web search server tool.
	webSearchName = "web_search"
)

// thinkingBudget maps reasoning effort to budget_tokens (at least 1024, the
// API's minimum).
var thinkingBudget = map[providers.Effort]int64{
	providers.EffortLow:    2048,
	providers.EffortMedium: 8192,
	providers.EffortHigh:   24576,
}

// buildParams converts a neutral request to the wire. Warnings are for
// options this call cannot honour; an error means the request cannot be
// expressed at all (media the API cannot take, say) and nothing is sent.
func (p *Provider) buildParams(req *providers.Request, codec *adapter.NameCodec) (*request, []providers.Warning, error) {
	out := &request{Model: req.Model, Stream: true}
	system, rest := providers.SplitSystem(req.Messages)
	if system != "" {
		sys := newText(system)
		sys.setCache()
		out.System = []*textBlock{sys}
	}
	msgs, err := toWire(rest, codec)
	if err != nil {
		return nil, nil, &providers.Error{Provider: Name, URL: p.endpoint, Message: err.Error()}
	}
	out.Messages = msgs

	var warnings []providers.Warning
	out.Tools, warnings = tools(req, codec)
	if n := len(out.Tools); n > 0 {
		// Tools are the most stable part of the prefix.
		out.Tools[n-1].setCache()
	}
	setMessageCache(out.Messages, providers.TrailingSystem(req.Messages))

	out.MaxTokens = int64(req.MaxTokens)
	if out.MaxTokens <= 0 {
		out.MaxTokens = defaultMaxTokens
	}
	thinking := req.ReasoningEffort != "" && req.ReasoningEffort != providers.EffortNone
	// Adaptive thinking may skip a turn's thinking, so only budget thinking
	// needs the turn being continued to open with a thinking block.
	if thinking && !adaptiveOnly(req.Model) && !thinkingReplayable(out.Messages) {
		thinking = false
		warnings = append(warnings, providers.Warning{Code: "thinking_disabled",
			Message: "anthropic: extended thinking is off for this call: the assistant turn being continued has no Anthropic thinking block, which the API requires once thinking is on"})
	}
	if thinking {
		w := setThinking(out, req)
		warnings = append(warnings, w...)
	} else if req.Temperature != nil {
		t := *req.Temperature
		out.Temperature = &t
	}
	return out, warnings, nil
}

// setThinking turns on extended thinking. Budget-based thinking needs
// max_tokens above the budget; temperature cannot be set alongside it.
// Models that deprecate budgets get adaptive thinking with the effort
// instead.
func setThinking(out *request, req *providers.Request) []providers.Warning {
	var warnings []providers.Warning
	if req.Temperature != nil {
		warnings = append(warnings, providers.Warning{Code: "temperature_ignored",
			Message: "anthropic: temperature is not sent while extended thinking is on; the API rejects the combination"})
	}
	budget, ok := thinkingBudget[req.ReasoningEffort]
	if !ok {
		budget = thinkingBudget[providers.EffortMedium]
	}
	switch {
	case req.MaxTokens <= 0:
		out.MaxTokens = min(budget+defaultMaxTokens, thinkingCeiling)
	case out.MaxTokens <= budget:
		// Keep the room the caller asked for, for the visible answer.
		out.MaxTokens = budget + int64(req.MaxTokens)
	}
	if adaptiveOnly(req.Model) {
		out.Thinking = &thinkingConfig{Display: "summarized", Type: "adaptive"}
		out.OutputConfig = &outputConfig{Effort: string(req.ReasoningEffort)}
		return warnings
	}
	// Summarized thinking streams as reasoning deltas; some models default
	// to omitting it.
	out.Thinking = &thinkingConfig{BudgetTokens: budget, Display: "summarized", Type: "enabled"}
	return warnings
}

// adaptiveOnly reports models on which budget_tokens thinking is
// deprecated in favour of adaptive thinking: Claude 4.6 and later, named
// claude-<family>-<major>[-<minor>][-<date>], also inside Bedrock or Vertex
// ids. Older names (claude-3-7-sonnet-...) and other servers' models keep
// the budget, which every model with extended thinking accepts.
func adaptiveOnly(model string) bool {
	i := strings.Index(model, "claude-")
	if i < 0 {
		return false
	}
	fields := strings.FieldsFunc(model[i+len("claude-"):], func(r rune) bool { return r == '-' || r == '@' || r == ':' })
	if len(fields) < 2 {
		return false
	}
	if fields[0] == "mythos" && fields[1] == "preview" {
		return true
	}
	if _, err := strconv.Atoi(fields[0]); err == nil {
		return false // claude-<major>-<minor>-<family>: Claude 3.x
	}
	major, err := strconv.Atoi(fields[1])
	if err != nil || len(fields[1]) > 2 {
		return false
	}
	minor := 0
	if len(fields) > 2 && len(fields[2]) <= 2 {
		minor, _ = strconv.Atoi(fields[2])
	}
	return major > 4 || (major == 4 && minor >= 6)
}

// thinkingReplayable reports whether thinking may be on: when the
// conversation ends inside a tool loop (tool results answering the last
// assistant turn), that turn must open with a thinking block. It will not
// when it came from another provider or from a call without thinking.
func thinkingReplayable(msgs []message) bool {
	n := len(msgs)
	if n < 2 || msgs[n-2].Role != roleAssistant {
		return true
	}
	if !slices.ContainsFunc(msgs[n-1].Content, isToolResult) {
		return true
	}
	switch msgs[n-2].Content[0].(type) {
	case *thinkingBlock, *redactedThinkingBlock:
		return true
	}
	return false
}

// tools converts the tool list and adds the web search server tool.
func tools(req *providers.Request, codec *adapter.NameCodec) ([]tool, []providers.Warning) {
	out := make([]tool, 0, len(req.Tools)+1)
	clash := false
	for _, t := range req.Tools {
		// The schema goes out as given, every keyword kept.
		tp := &customTool{InputSchema: t.Schema(), Name: codec.Wire(t.Name), Description: t.Description}
		clash = clash || tp.Name == webSearchName
		out = append(out, tp)
	}
	ws := req.WebSearch
	if ws == nil {
		return out, nil
	}
	if clash {
		return out, []providers.Warning{{Code: "web_search_ignored",
			Message: "anthropic: a tool named web_search is offered, which the web search server tool's fixed name would clash with; the request was sent without native web search"}}
	}
	maxUses := map[string]int64{"low": 3, "high": 10}[ws.ContextSize]
	if maxUses == 0 {
		maxUses = 5
	}
	out = append(out, &webSearchTool{MaxUses: maxUses, Name: webSearchName, Type: "web_search_20250305"})
	return out, nil
}

// setMessageCache marks the newest stable block of the conversation as a
// breakpoint, so the next call of a tool loop reads everything up to
// here from the cache: the last block but the notes the call ends with
// (notes blocks, one per trailing system message; see
// providers.SplitSystem), which the next call drops. Thinking blocks
// cannot carry one; then none is set.
func setMessageCache(msgs []message, notes int) {
	for i := len(msgs) - 1; i >= 0; i-- {
		n := len(msgs[i].Content)
		if notes >= n {
			notes -= n
			continue
		}
		msgs[i].Content[n-1-notes].setCache()
		return
	}
}
