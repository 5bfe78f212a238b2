package scripted

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/internal/stream"
	"github.com/llmrt/llmrt/providers"
)

func reply(t *testing.T, p *Provider, req *providers.Request) (providers.Reply, error) {
	t.Helper()
	var acc stream.Accumulator
	err := p.Stream(context.Background(), req, acc.Add)
	return acc.Reply(), err
}

// TestTurnSelection: turn N answers the N-th call: it follows the assistant
// messages in the request, and calls repeated at the same point (an empty
// reply, a retry) move on to the next turn.
func TestTurnSelection(t *testing.T) {
	p := New()
	p.Register("s", &Script{Turns: []Turn{{Text: "one"}, {}, {Text: "three"}, {Text: "four"}}})
	user := providers.TextMessage(providers.RoleUser, "hi")
	req := &providers.Request{Model: "s", Messages: []providers.Message{user}}
	if r, _ := reply(t, p, req); r.Message.Text() != "one" {
		t.Fatalf("first call: %q", r.Message.Text())
	}
	req.Messages = append(req.Messages, providers.TextMessage(providers.RoleAssistant, "one"), user)
	if r, _ := reply(t, p, req); !r.Empty() {
		t.Fatalf("second call should be the empty turn")
	}
	if r, _ := reply(t, p, req); r.Message.Text() != "three" {
		t.Fatalf("a repeated call at the same point takes the next turn: %q", r.Message.Text())
	}
	// A new process resuming the conversation: the history positions it.
	fresh := New()
	fresh.Register("s", &Script{Turns: []Turn{{Text: "one"}, {Text: "two"}, {Text: "three"}}})
	hist := &providers.Request{Model: "s", Messages: []providers.Message{user, providers.TextMessage(providers.RoleAssistant, "1"), providers.TextMessage(providers.RoleAssistant, "2")}}
	if r, _ := reply(t, fresh, hist); r.Message.Text() != "three" {
		t.Errorf("resume: %q", r.Message.Text())
	}
	hist.Messages = append(hist.Messages, providers.TextMessage(providers.RoleAssistant, "3"))
	_, err := reply(t, fresh, hist)
	if err == nil || !strings.Contains(err.Error(), "has 3 turns; model call 4 has no scripted reply") {
		t.Errorf("past the script: %v", err)
	}
}

func TestTurnContent(t *testing.T) {
	p := New()
	p.Register("s", &Script{Turns: []Turn{
		{Reasoning: "hmm", Text: "a b c", ToolCalls: []Call{{Name: "x", Arguments: []byte(`{"k": 1}`)}, {ID: "mine", Name: "y", Arguments: []byte(`"{\"broken\":"`)}},
			Usage: &providers.Usage{InputTokens: 3}, Stop: "length"},
		{Error: &TurnError{Status: 429, Message: "slow", RetryAfterMS: 250}},
	}})
	r, err := reply(t, p, &providers.Request{Model: "s"})
	if err != nil {
		t.Fatal(err)
	}
	calls := r.Message.ToolCalls
	if r.Message.Text() != "a b c" || r.Message.Reasoning[0].Text != "hmm" || len(calls) != 2 || calls[0].ID != "call_1_1" ||
		calls[0].Arguments != `{"k": 1}` || calls[1].ID != "mine" || calls[1].Arguments != `{"broken":` || r.Stop != providers.StopLength || r.Usage.InputTokens != 3 {
		t.Errorf("reply: %+v", r)
	}
	_, err = reply(t, p, &providers.Request{Model: "s", Messages: []providers.Message{r.Message}})
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.StatusCode != 429 || !pe.Retryable || pe.RetryAfter.Milliseconds() != 250 {
		t.Errorf("error turn: %v", err)
	}
}

// TestPartialFailures: after_output streams reasoning and text before the
// error; after_call_header adds the first call's id and name with
// argument_bytes of its arguments, and nothing of later calls.
func TestPartialFailures(t *testing.T) {
	calls := []Call{{Name: "final_answer", Arguments: []byte(`{"answer":"42"}`)}, {Name: "other"}}
	cases := []struct {
		name string
		err  TurnError
		want string // the chunks, summarised
	}{
		{"after output", TurnError{Status: 502, AfterOutput: true}, "R(hm) T(so) "},
		{"after a call header", TurnError{Status: 502, AfterCallHeader: true}, "R(hm) T(so) C(call_1_1 final_answer ) "},
		{"after a header and some arguments", TurnError{Status: 502, AfterCallHeader: true, ArgumentBytes: 12}, `R(hm) T(so) C(call_1_1 final_answer {"answer":"4) `},
		{"argument bytes past the end", TurnError{Status: 502, AfterCallHeader: true, ArgumentBytes: 99}, `R(hm) T(so) C(call_1_1 final_answer {"answer":"42"}) `},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := New()
			e := tc.err
			p.Register("s", &Script{Turns: []Turn{{Reasoning: "hm", Text: "so", ToolCalls: calls, Error: &e}}})
			var got strings.Builder
			err := p.Stream(t.Context(), &providers.Request{Model: "s"}, func(c providers.Chunk) {
				switch c.Type {
				case providers.ChunkReasoning:
					got.WriteString("R(" + c.Text + ") ")
				case providers.ChunkText:
					got.WriteString("T(" + c.Text + ") ")
				case providers.ChunkToolCall:
					got.WriteString("C(" + c.ToolCall.ID + " " + c.ToolCall.Name + " " + c.ToolCall.Arguments + ") ")
				default:
					got.WriteString("other ")
				}
			})
			var pe *providers.Error
			if !errors.As(err, &pe) || !pe.Retryable || pe.StatusCode != 502 {
				t.Errorf("error: got %v, want a retryable 502", err)
			}
			if got.String() != tc.want {
				t.Errorf("chunks: got %q, want %q", got.String(), tc.want)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ content, want string }{
		{`{"turns":[{"text":"x"}]}`, ""},
		{`[{"text":"x"}]`, ""},
		{`{"turns":[{"txet":"x"}]}`, "unknown field"},
		{`{"turns":[{"tool_calls":[{"arguments":{}}]}]}`, "has no name"},
		{`{"turns":`, "unexpected EOF"},
	}
	for i, tc := range cases {
		path := filepath.Join(dir, "s.json")
		os.WriteFile(path, []byte(tc.content), 0o644)
		_, err := Load(path)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("case %d: got %v, want %q", i, err, tc.want)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "script's path") {
		t.Errorf("missing file: %v", err)
	}
}

// TestRaw: a request with Raw gets the turn it is answered from as one raw
// chunk, first; a request without gets none.
func TestRaw(t *testing.T) {
	p := New()
	p.Register("s", &Script{Turns: []Turn{{Text: "hi there"}, {Text: "again"}}})
	for _, raw := range []bool{true, false} {
		var chunks []providers.Chunk
		err := p.Stream(context.Background(), &providers.Request{Model: "s", Raw: raw}, func(c providers.Chunk) { chunks = append(chunks, c) })
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range chunks {
			if c.Type == providers.ChunkRaw {
				n++
			}
		}
		switch {
		case raw && (n != 1 || chunks[0].Type != providers.ChunkRaw || !strings.Contains(string(chunks[0].Raw), `"text":"`)):
			t.Errorf("Raw: got %d raw chunks, first %+v; want one, first, holding the turn", n, chunks[0])
		case !raw && n != 0:
			t.Errorf("no Raw: got %d raw chunks, want none", n)
		}
	}
}
