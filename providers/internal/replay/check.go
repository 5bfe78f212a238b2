package replay

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/internal/stream"
	"github.com/llmrt/llmrt/providers"
)

// Run streams one call of p and assembles the reply the way the engine
// does. It returns the reply, every chunk in the order it came, and the
// error Stream returned.
func Run(ctx context.Context, p providers.Provider, req *providers.Request) (providers.Reply, []providers.Chunk, error) {
	acc := stream.Accumulator{Provider: p.Name()}
	var chunks []providers.Chunk
	err := p.Stream(ctx, req, func(c providers.Chunk) {
		chunks = append(chunks, c)
		acc.Add(c)
	})
	return acc.Reply(), chunks, err
}

// ReasoningText joins the text of a reply's reasoning blocks.
func ReasoningText(r providers.Reply) string {
	var b strings.Builder
	for _, x := range r.Message.Reasoning {
		b.WriteString(x.Text)
	}
	return b.String()
}

// CompactJSON re-encodes the JSON text s without insignificant space and
// with object keys sorted, so two encodings of one value compare equal. Text
// that is not JSON comes back unchanged.
func CompactJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// ProviderError returns err as a *providers.Error, failing t at once when
// it is not one.
func ProviderError(t testing.TB, err error) *providers.Error {
	t.Helper()
	var pe *providers.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error: got %T %v, want *providers.Error", err, err)
	}
	return pe
}

// ErrorContains reports each of wants that the message of err (not nil)
// lacks.
func ErrorContains(t testing.TB, err error, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q: want it to contain %q", err, want)
		}
	}
}

// Call is a tool call as replay tables list it.
type Call struct{ ID, Name, Args string }

// Calls returns the tool calls of a reply as Calls.
func Calls(r providers.Reply) []Call {
	var calls []Call
	for _, c := range r.Message.ToolCalls {
		calls = append(calls, Call{c.ID, c.Name, c.Arguments})
	}
	return calls
}

// Want is what a replayed reply must hold.
type Want struct {
	Text      string // prefix of the reply text
	TextLen   int    // length of the reply text in bytes
	Reasoning string // prefix of the reasoning text; "" means none
	Calls     []Call
	Stop      providers.StopReason
	Usage     providers.Usage
}

// CheckReply checks a reply and the chunks it was assembled from against w:
// text, reasoning, tool calls, stop reason, usage, and a stop chunk last.
func CheckReply(t testing.TB, reply providers.Reply, chunks []providers.Chunk, w Want) {
	t.Helper()
	text := reply.Message.Text()
	if !strings.HasPrefix(text, w.Text) || len(text) != w.TextLen {
		t.Errorf("text: got %q (%d bytes), want prefix %q and %d bytes", text, len(text), w.Text, w.TextLen)
	}
	CheckReasoning(t, reply, w.Reasoning)
	if got := Calls(reply); !slices.Equal(got, w.Calls) {
		t.Errorf("tool calls: got %q, want %q", got, w.Calls)
	}
	if reply.Stop != w.Stop {
		t.Errorf("stop: got %q, want %q", reply.Stop, w.Stop)
	}
	if reply.Usage != w.Usage {
		t.Errorf("usage: got %+v, want %+v", reply.Usage, w.Usage)
	}
	CheckEndsWithStop(t, chunks)
}

// CheckReasoning checks that the reasoning text of reply starts with
// prefix, and that there is reasoning text exactly when prefix is not "".
func CheckReasoning(t testing.TB, reply providers.Reply, prefix string) {
	t.Helper()
	if r := ReasoningText(reply); !strings.HasPrefix(r, prefix) || (prefix == "") != (r == "") {
		t.Errorf("reasoning: got %.200q, want prefix %q", r, prefix)
	}
}

// CheckEndsWithStop checks that chunks is not empty and ends with a stop
// chunk.
func CheckEndsWithStop(t testing.TB, chunks []providers.Chunk) {
	t.Helper()
	if len(chunks) == 0 {
		t.Errorf("chunks: got none, want a stop chunk last")
		return
	}
	if last := chunks[len(chunks)-1]; last.Type != providers.ChunkStop {
		t.Errorf("last chunk: got type %d, want ChunkStop", last.Type)
	}
}

// CheckFragments checks the tool call chunk contract of a streaming
// adapter: the first fragment of each index carries the name (and the id
// when wantID; a legacy OpenAI function_call has none), later ones only
// arguments.
func CheckFragments(t testing.TB, chunks []providers.Chunk, wantID bool) {
	t.Helper()
	seen := map[int]bool{}
	for _, c := range chunks {
		if c.Type != providers.ChunkToolCall {
			continue
		}
		d := c.ToolCall
		if !seen[d.Index] && (d.Name == "" || wantID && d.ID == "") {
			what := "its name"
			if wantID {
				what = "id and name"
			}
			t.Errorf("first fragment of call %d: got %+v, want %s", d.Index, d, what)
		}
		if seen[d.Index] && (d.ID != "" || d.Name != "") {
			t.Errorf("later fragment of call %d: got %+v, want arguments only", d.Index, d)
		}
		seen[d.Index] = true
	}
}

// CheckFields checks a decoded JSON object: each key of want holds the
// value given (compared as decoded JSON: numbers are float64) and no key of
// absent is present. path prefixes the key in messages, such as
// "generationConfig.".
func CheckFields(t testing.TB, path string, obj, want map[string]any, absent []string) {
	t.Helper()
	for k, v := range want {
		if !reflect.DeepEqual(obj[k], v) {
			t.Errorf("%s%s: got %#v, want %#v", path, k, obj[k], v)
		}
	}
	for _, k := range absent {
		if v, ok := obj[k]; ok {
			t.Errorf("%s%s: got %#v, want it absent", path, k, v)
		}
	}
}

// ToolResults returns the text of the tool messages of req in order: the
// results a recorded client sent back.
func ToolResults(req *providers.Request) []string {
	var results []string
	for _, m := range req.Messages {
		if m.Role == providers.RoleTool {
			results = append(results, m.Text())
		}
	}
	return results
}

// FollowUp builds the next turn the way the engine does: it appends the
// reply's message to req, then one tool result message per tool call of
// the reply, paired in order with results. It fails t at once when the
// counts differ.
func FollowUp(t testing.TB, req *providers.Request, reply providers.Reply, results []string) {
	t.Helper()
	calls := reply.Message.ToolCalls
	if len(results) != len(calls) {
		t.Fatalf("tool calls: got %d, recorded follow-up answers %d", len(calls), len(results))
	}
	req.Messages = append(req.Messages, reply.Message)
	for i, c := range calls {
		req.Messages = append(req.Messages, providers.ToolResultMessage(c, results[i], false))
	}
}
