package acpbridge

import (
	"encoding/json"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// Updates turns one session's run events into session updates. Its
// methods are safe from the run's goroutines.
type Updates struct {
	// Root is the session's working directory, against which relative
	// paths become the absolute ones ACP speaks.
	Root string

	mu sync.Mutex
	// announced are the calls a tool_call update has introduced; later
	// news of them is a tool_call_update.
	announced map[string]bool
	// before is the text of the file an edit call changes, as it was
	// when the call was announced, for the diff of its result.
	before map[string]snapshot
	// answered says the turn's answer reached the client as it streamed.
	answered bool
}

// snapshot is a file as an edit call found it; path is absolute (result
// events do not repeat a call's arguments).
type snapshot struct {
	path, text    string
	exists, shown bool
}

// hidden are the control calls a client is not shown as tool calls: the
// answer streams as the agent's message, and questions come as requests.
func hidden(name string) bool {
	return name == engine.FinalAnswerTool || name == engine.AskUserTool || name == engine.BlockedTool
}

// StartTurn forgets what the previous turn streamed.
func (u *Updates) StartTurn() {
	u.mu.Lock()
	u.answered = false
	u.mu.Unlock()
}

// Event returns the updates that show ev; most events show as none.
// Events of sub-runs (spawn_agent) are left to their parent's call.
func (u *Updates) Event(ev engine.Event) []acp.SessionUpdate {
	if ev.ParentID != "" {
		return nil
	}
	switch ev.Type {
	case engine.EventTextDelta:
		return one(acp.UpdateAgentMessageText(ev.Delta))
	case engine.EventReasoningDelta:
		return one(acp.UpdateAgentThoughtText(ev.Delta))
	case engine.EventAnswerDelta:
		u.mu.Lock()
		u.answered = true
		u.mu.Unlock()
		return one(acp.UpdateAgentMessageText(ev.Delta))
	case engine.EventPermissionRequest, engine.EventToolStart:
		if ev.Call == nil || hidden(ev.Call.Name) || ev.Call.ParentID != "" {
			return nil
		}
		return one(u.start(*ev.Call, ev.Type == engine.EventToolStart))
	case engine.EventToolResult, engine.EventToolError:
		if ev.Call == nil || ev.Outcome == nil || hidden(ev.Call.Name) || ev.Call.ParentID != "" {
			return nil
		}
		return u.result(*ev.Call, *ev.Outcome, ev.Type == engine.EventToolError)
	case engine.EventCompleted:
		u.mu.Lock()
		answered := u.answered
		u.mu.Unlock()
		if !answered && ev.Result != nil && ev.Result.Output != "" {
			return one(acp.UpdateAgentMessageText(ev.Result.Output))
		}
	}
	return nil
}

// start announces a call, or says it now runs.
func (u *Updates) start(c engine.CallInfo, running bool) acp.SessionUpdate {
	id := acp.ToolCallId(c.ID)
	status := acp.ToolCallStatusPending
	if running {
		status = acp.ToolCallStatusInProgress
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.announced == nil {
		u.announced, u.before = map[string]bool{}, map[string]snapshot{}
	}
	if u.announced[c.ID] {
		return acp.UpdateToolCall(id, acp.WithUpdateStatus(status))
	}
	u.announced[c.ID] = true
	opts := []acp.ToolCallStartOpt{acp.WithStartKind(Kind(c.Name, c.Kind)), acp.WithStartStatus(status),
		acp.WithStartLocations(Locations(u.Root, c.Arguments)), acp.WithStartRawInput(rawJSON(c.Arguments))}
	if Edits(c.Name) {
		if p := Locations(u.Root, c.Arguments); len(p) == 1 {
			text, exists, ok := readSmall(p[0].Path)
			u.before[c.ID] = snapshot{path: p[0].Path, text: text, exists: exists, shown: ok}
		}
		if d := Proposed(u.Root, c.Name, c.Arguments); d != nil {
			opts = append(opts, acp.WithStartContent(d))
		}
	}
	return acp.StartToolCall(id, Title(c.Name, c.Arguments), opts...)
}

// result reports how a call ended: a diff for a successful edit, the
// result's text otherwise.
func (u *Updates) result(c engine.CallInfo, o engine.ToolOutcome, failed bool) []acp.SessionUpdate {
	var out []acp.SessionUpdate
	u.mu.Lock()
	if !u.announced[c.ID] {
		u.mu.Unlock()
		// A call refused before it was announced (unknown tool, bad
		// arguments) is still shown, so its result has a place.
		out = append(out, u.start(c, true))
		u.mu.Lock()
	}
	before, had := u.before[c.ID]
	delete(u.before, c.ID)
	u.mu.Unlock()
	status := acp.ToolCallStatusCompleted
	if failed || o.IsError || o.Failed {
		status = acp.ToolCallStatusFailed
	}
	content := []acp.ToolCallContent{acp.ToolContent(acp.TextBlock(resultText(o.Content)))}
	if status == acp.ToolCallStatusCompleted && had && before.shown {
		if now, _, ok := readSmall(before.path); ok {
			content = []acp.ToolCallContent{diff(before.path, now, before.text, before.exists)}
		}
	}
	return append(out, acp.UpdateToolCall(acp.ToolCallId(c.ID), acp.WithUpdateStatus(status),
		acp.WithUpdateContent(content), acp.WithUpdateRawOutput(map[string]any{"content": resultText(o.Content), "summary": o.Summary})))
}

// History returns the updates that replay a saved conversation: the
// person's messages, the agent's text, thoughts and answers, and each
// tool call with its result.
func History(root string, msgs []engine.Message) []acp.SessionUpdate {
	var out []acp.SessionUpdate
	for _, m := range msgs {
		switch m.Role {
		case providers.RoleUser:
			for _, p := range m.Content {
				switch p.Type {
				case providers.PartText:
					out = append(out, acp.UpdateUserMessageText(p.Text))
				case providers.PartImage:
					out = append(out, acp.UpdateUserMessageText("[image]"))
				}
			}
		case providers.RoleAssistant:
			for _, r := range m.Reasoning {
				if r.Text != "" {
					out = append(out, acp.UpdateAgentThoughtText(r.Text))
				}
			}
			if t := m.Text(); t != "" {
				out = append(out, acp.UpdateAgentMessageText(t))
			}
			for _, c := range m.ToolCalls {
				out = append(out, replayCall(root, c)...)
			}
		case providers.RoleTool:
			if hidden(m.ToolName) {
				continue
			}
			status := acp.ToolCallStatusCompleted
			if m.IsError {
				status = acp.ToolCallStatusFailed
			}
			out = append(out, acp.UpdateToolCall(acp.ToolCallId(m.ToolCallID), acp.WithUpdateStatus(status),
				acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock(resultText(m.Text())))})))
		}
	}
	return out
}

// replayCall shows a saved call: a final answer as the agent's message,
// any other shown call as a tool call whose result follows.
func replayCall(root string, c providers.ToolCall) []acp.SessionUpdate {
	switch {
	case c.Name == engine.FinalAnswerTool:
		var a struct {
			Answer string `json:"answer"`
		}
		if json.Unmarshal([]byte(c.Arguments), &a) == nil && a.Answer != "" {
			return one(acp.UpdateAgentMessageText(a.Answer))
		}
		return nil
	case hidden(c.Name):
		return nil
	}
	return one(acp.StartToolCall(acp.ToolCallId(c.ID), Title(c.Name, c.Arguments),
		acp.WithStartKind(Kind(c.Name, tools.KindNone)), acp.WithStartStatus(acp.ToolCallStatusInProgress),
		acp.WithStartLocations(Locations(root, c.Arguments)), acp.WithStartRawInput(rawJSON(c.Arguments))))
}

// rawJSON is a call's arguments as JSON for rawInput; arguments that do
// not parse go as the string they are.
func rawJSON(args string) any {
	if json.Valid([]byte(args)) {
		return json.RawMessage(args)
	}
	return args
}

func one(u acp.SessionUpdate) []acp.SessionUpdate { return []acp.SessionUpdate{u} }
