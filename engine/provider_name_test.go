package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/internal/recordings"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/anthropic"
	"github.com/llmrt/llmrt/tools"
)

// TestReplayKeepsSignatureUnderAnotherKey: an adapter registered under a
// key other than its name ("claude" for anthropic) still gets its thinking
// signatures back when the loop replays the conversation.
func TestReplayKeepsSignatureUnderAnotherKey(t *testing.T) {
	dir := filepath.Join(recordings.Dir(t), "anthropic")
	var bodies []string
	for i := range 2 {
		raw, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("fantasy__AnthropicThinking.claude-sonnet-4.thinking-streaming__%d.json", i)))
		if err != nil {
			t.Fatalf("read recording: %v", err)
		}
		var rec struct {
			Response struct {
				Body string `json:"body_raw"`
			} `json:"response"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, rec.Response.Body)
	}
	var mu sync.Mutex
	var sent []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		n := len(sent)
		sent = append(sent, string(b))
		mu.Unlock()
		if n >= len(bodies) {
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"no more turns"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, bodies[n])
	}))
	defer srv.Close()

	p := anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "test"})
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"claude": p}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	weather := engine.Tool{Name: "weather", Description: "Get weather information for a location", Kind: tools.KindRead,
		Schema:  json.RawMessage(`{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}`),
		Execute: func(context.Context, json.RawMessage) (tools.Result, error) { return tools.Text("40 C"), nil }}
	res, err := rt.Complete(context.Background(), engine.Request{
		Provider: "claude", Model: "claude-sonnet-4-20250514", BuiltIns: []string{}, Tools: []engine.Tool{weather},
		Finish: engine.FinishText, ReasoningEffort: providers.EffortLow, WorkDir: t.TempDir(),
		Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "What's the weather in Florence, Italy?")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engine.StatusCompleted || len(sent) != 2 {
		t.Fatalf("got %s after %d requests (%+v), want completed after 2", res.Status, len(sent), res.Error)
	}
	r0 := res.Messages[1].Reasoning[0]
	if r0.Signature == "" || r0.Provider != anthropic.Name {
		t.Errorf("reasoning of the first reply: got signature %q stamped %q, want a signature stamped %q", r0.Signature, r0.Provider, anthropic.Name)
	}
	if !strings.Contains(sent[1], `"signature":"`+r0.Signature+`"`) {
		t.Errorf("the replayed request dropped the thinking signature:\n%s", sent[1])
	}
}
