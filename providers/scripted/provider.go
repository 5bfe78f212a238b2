package scripted

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// Provider answers from script files. The zero value is not usable; call
// New.
type Provider struct {
	mu      sync.Mutex
	scripts map[string]*Script
	pos     map[string]position // per script path
}

type position struct {
	assistants int // assistant messages seen at the last call
	extra      int // calls since then at the same point
}

// New returns a scripted provider.
func New() *Provider {
	return &Provider{scripts: make(map[string]*Script), pos: make(map[string]position)}
}

// Register serves s for requests whose model is name, instead of reading a
// file. It lets programs and tests script a provider in memory.
func (p *Provider) Register(name string, s *Script) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.scripts[name] = s
	delete(p.pos, name)
}

// Name returns "scripted".
func (p *Provider) Name() string { return "scripted" }

// Stream answers the call with the script turn it selects.
func (p *Provider) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	s, turnIndex, err := p.turn(req)
	if err != nil {
		return err
	}
	if turnIndex >= len(s.Turns) {
		return &providers.Error{Provider: "scripted", URL: req.Model,
			Message: fmt.Sprintf("script %s has %d turns; model call %d has no scripted reply", req.Model, len(s.Turns), turnIndex+1)}
	}
	t := s.Turns[turnIndex]
	t.index = turnIndex
	if err := sleep(ctx, t.DelayMS); err != nil {
		return err
	}
	if t.Error != nil && !t.Error.Partial() {
		return t.Error.providerError(req.Model)
	}
	if req.Raw {
		// The script's turn is this provider's wire payload.
		raw, err := json.Marshal(t)
		if err != nil {
			return &providers.Error{Provider: "scripted", URL: req.Model, Message: "encode turn: " + err.Error(), Err: err}
		}
		emit(providers.Chunk{Type: providers.ChunkRaw, Raw: raw})
	}
	return t.play(ctx, req.Model, emit)
}

// turn loads the script and picks the turn for this call.
func (p *Provider) turn(req *providers.Request) (*Script, int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.scripts[req.Model]
	if !ok {
		var err error
		if s, err = Load(req.Model); err != nil {
			return nil, 0, err
		}
		p.scripts[req.Model] = s
	}
	n := 0
	for _, m := range req.Messages {
		if m.Role == providers.RoleAssistant {
			n++
		}
	}
	pos, seen := p.pos[req.Model]
	if seen && pos.assistants == n {
		pos.extra++
	} else {
		pos = position{assistants: n}
	}
	p.pos[req.Model] = pos
	return s, n + pos.extra, nil
}

func (t Turn) play(ctx context.Context, script string, emit func(providers.Chunk)) error {
	for _, piece := range Words(t.Reasoning) {
		if err := sleep(ctx, t.ChunkDelayMS); err != nil {
			return err
		}
		emit(providers.Chunk{Type: providers.ChunkReasoning, Text: piece})
	}
	for _, piece := range Words(t.Text) {
		if err := sleep(ctx, t.ChunkDelayMS); err != nil {
			return err
		}
		emit(providers.Chunk{Type: providers.ChunkText, Text: piece})
	}
	if t.Error != nil {
		if t.Error.AfterCallHeader && len(t.ToolCalls) > 0 {
			emit(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: t.Error.header(t, t.ToolCalls[0])})
		}
		return t.Error.providerError(script)
	}
	for i, c := range t.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_%d_%d", t.index+1, i+1)
		}
		// Arguments stream in small pieces, as real models send them, so
		// hosts see answer_delta events arrive word by word.
		for j, piece := range argPieces(c.ArgumentText()) {
			if j > 0 {
				if err := sleep(ctx, t.ChunkDelayMS); err != nil {
					return err
				}
			}
			d := providers.ToolCallDelta{Index: i, Arguments: piece}
			if j == 0 {
				d.ID, d.Name = id, c.Name
			}
			emit(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: d})
		}
	}
	if t.Usage != nil {
		emit(providers.Chunk{Type: providers.ChunkUsage, Usage: *t.Usage})
	}
	stop := providers.StopReason(t.Stop)
	if stop == "" {
		stop = providers.StopNatural
	}
	emit(providers.Chunk{Type: providers.ChunkStop, Stop: stop})
	return nil
}

// header is the first fragment of the call an AfterCallHeader failure
// streams before breaking off.
func (e *TurnError) header(t Turn, c Call) providers.ToolCallDelta {
	id := c.ID
	if id == "" {
		id = fmt.Sprintf("call_%d_1", t.index+1)
	}
	args := c.ArgumentText()
	return providers.ToolCallDelta{ID: id, Name: c.Name, Arguments: args[:min(max(e.ArgumentBytes, 0), len(args))]}
}

func (e *TurnError) providerError(script string) error {
	return &providers.Error{
		Provider: "scripted", URL: script, StatusCode: e.Status, Message: e.Message,
		Retryable:  e.Status == 0 || adapter.RetryableStatus(e.Status),
		RetryAfter: time.Duration(e.RetryAfterMS) * time.Millisecond,
	}
}

// argPieces splits argument JSON into pieces of about 16 bytes, cutting
// only at rune boundaries.
func argPieces(s string) []string {
	const size = 16
	var out []string
	for len(s) > size {
		cut := size
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

// Words splits text into the word-sized deltas a turn streams as, keeping
// every byte; servers replaying scripts over a wire protocol use it too.
func Words(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s[1:], ' ')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

func sleep(ctx context.Context, ms int) error {
	if ms <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// DefaultRetry declares the zero policy: calls are retried with
// providers.RetryPolicy's defaults unless the run or the runtime sets a
// policy (providers.ResolveRetry).
func (p *Provider) DefaultRetry() providers.RetryPolicy { return providers.RetryPolicy{} }

// SupportedModels lists the names of the scripts registered with
// Register, sorted: a script file's path is a model too, but this provider
// cannot list the files it may be asked for. See providers.ModelLister.
func (p *Provider) SupportedModels(context.Context) ([]string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	names := make([]string, 0, len(p.scripts))
	for name := range p.scripts {
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}
