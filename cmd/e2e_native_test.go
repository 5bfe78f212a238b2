package cmd_test

import (
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// native describes how to point the binary at a fake server for each
// provider with its own wire protocol.
type native struct {
	provider string
	protocol string
	env      func(url string) map[string]string
}

var natives = []native{
	{"anthropic", fakellm.Anthropic, func(u string) map[string]string {
		return map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": u}
	}},
	{"google", fakellm.Gemini, func(u string) map[string]string {
		return map[string]string{"GEMINI_API_KEY": "gem-test", "GOOGLE_GEMINI_BASE_URL": u}
	}},
	{"ollama", fakellm.Ollama, func(u string) map[string]string { return map[string]string{"OLLAMA_HOST": u} }},
}

func (n native) run(sb *sandbox, srv *fakellm.Server, extra ...string) outcome {
	args := append([]string{"run", "--provider", n.provider, "--model", "test-model"}, extra...)
	return sb.run(cli{args: args, env: n.env(srv.URL)})
}

// TestNativeReadThenAnswer: a read_file → final_answer loop completes with
// each native provider against a local server speaking its protocol.
func TestNativeReadThenAnswer(t *testing.T) {
	t.Parallel()
	for _, n := range natives {
		t.Run(n.provider, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			sb.write("notes.txt", "the launch code is 0000\n")
			srv := fake(t, n.protocol, toolCall("read_file", `{"path":"notes.txt"}`), finalAnswer("The launch code is 0000."))
			o := n.run(sb, srv, "-p", "What is the launch code?")
			o.want(t, 0)
			if o.stdout != "The launch code is 0000.\n" {
				t.Errorf("stdout: %q", o.stdout)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "the launch code is 0000") {
				t.Fatalf("the second request should carry the file: %d requests", len(reqs))
			}
		})
	}
}

// TestNativeRetries: 429 with Retry-After: 1 then success waits about a
// second; a persistent 500 exits 1 naming the provider and status; a stream
// cut before output is retried, after answer text it is not; an Anthropic 529
// is retried.
func TestNativeRetries(t *testing.T) {
	t.Parallel()
	for _, n := range natives {
		t.Run(n.provider+"/429 then success", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, n.protocol, scripted.Turn{Error: &scripted.TurnError{Status: 429, Message: "slow down", RetryAfterMS: 1000}}, finalAnswer("ok"))
			o := n.run(sb, srv, "-p", "hi")
			o.want(t, 0)
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("got %d requests", len(reqs))
			}
			if gap := reqs[1].At.Sub(reqs[0].At); gap < 900*time.Millisecond || gap > 5*time.Second {
				t.Errorf("waited %s between attempts, want about a second", gap)
			}
		})
		t.Run(n.provider+"/persistent 500", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			e := scripted.Turn{Error: &scripted.TurnError{Status: 500, Message: "internal trouble"}}
			srv := fake(t, n.protocol, e, e, e, e)
			o := n.run(sb, srv, "-p", "hi")
			o.want(t, 1)
			if !contains(o.stderr, n.provider) || !contains(o.stderr, "500") {
				t.Errorf("stderr should name the provider and status: %s", o.stderr)
			}
		})
		t.Run(n.provider+"/cut before output is retried", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, n.protocol, scripted.Turn{Error: &scripted.TurnError{Status: 0}}, finalAnswer("second try"))
			o := n.run(sb, srv, "-p", "hi")
			o.want(t, 0)
			if o.stdout != "second try\n" || len(srv.Requests()) != 2 {
				t.Errorf("got %q after %d requests", o.stdout, len(srv.Requests()))
			}
		})
		t.Run(n.provider+"/cut after answer text is not retried", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, n.protocol, cutTurn(finalAnswer("partial answer"), true, len(`{"answer":"partial`)), finalAnswer("never"))
			o := n.run(sb, srv, "-p", "hi")
			o.want(t, 1)
			if len(srv.Requests()) != 1 {
				t.Errorf("a stream cut after answer text must not be retried: %d requests", len(srv.Requests()))
			}
		})
	}
	t.Run("anthropic/529 is retried", func(t *testing.T) {
		t.Parallel()
		n := natives[0]
		sb := newSandbox(t)
		srv := fake(t, n.protocol, scripted.Turn{Error: &scripted.TurnError{Status: 529, Message: "Overloaded"}}, finalAnswer("ok"))
		o := n.run(sb, srv, "-p", "hi")
		o.want(t, 0)
		if len(srv.Requests()) != 2 {
			t.Errorf("got %d requests, want the 529 retried once", len(srv.Requests()))
		}
	})
}

// TestNativeReasoningEvents: --output stream-json shows reasoning_delta
// events for each provider that sends reasoning.
func TestNativeReasoningEvents(t *testing.T) {
	t.Parallel()
	cases := append([]native{{"openai", fakellm.OpenAI, func(u string) map[string]string {
		return map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": u + "/v1"}
	}}}, natives...)
	for _, n := range cases {
		t.Run(n.provider, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, n.protocol, scripted.Turn{Reasoning: "thinking about the answer", ToolCalls: finalAnswer("42").ToolCalls})
			o := n.run(sb, srv, "-o", "stream-json", "--reasoning-effort", "medium", "-p", "hi")
			o.want(t, 0)
			var reasoning strings.Builder
			for _, l := range strings.Split(strings.TrimSpace(o.stdout), "\n") {
				var ev struct {
					Type  string `json:"type"`
					Delta string `json:"delta"`
				}
				json.Unmarshal([]byte(l), &ev)
				if ev.Type == "reasoning_delta" {
					reasoning.WriteString(ev.Delta)
				}
			}
			if reasoning.String() != "thinking about the answer" {
				t.Errorf("reasoning deltas: got %q", reasoning.String())
			}
		})
	}
}

func TestOllamaSpecifics(t *testing.T) {
	t.Parallel()
	n := natives[2]
	t.Run("web search is ignored with a warning", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, n.protocol, finalAnswer("ok"))
		o := n.run(sb, srv, "--web-search", "-o", "json", "-p", "hi")
		o.want(t, 0)
		if !contains(o.stdout, "web_search_ignored") {
			t.Errorf("json output should carry the web_search_ignored warning: %s", o.stdout)
		}
	})
	t.Run("a dead server is a clear error", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		l, _ := net.Listen("tcp", "127.0.0.1:0")
		addr := l.Addr().String()
		l.Close()
		o := sb.run(cli{args: []string{"run", "--provider", "ollama", "--model", "m", "-p", "hi"}, env: map[string]string{"OLLAMA_HOST": "http://" + addr}})
		o.want(t, 1)
		if !contains(o.stderr, "ollama is not running at") || !contains(o.stderr, addr) || o.stdout != "" {
			t.Errorf("stderr: %s stdout: %q", o.stderr, o.stdout)
		}
	})
}

// TestAnthropicWebSearch: with --web-search the Anthropic request carries
// the web search server tool next to the function tools.
func TestAnthropicWebSearch(t *testing.T) {
	t.Parallel()
	n := natives[0]
	sb := newSandbox(t)
	srv := fake(t, n.protocol, finalAnswer("searched"))
	o := n.run(sb, srv, "--web-search=high", "-p", "what happened today?")
	o.want(t, 0)
	body := bodyOf(t, srv.Requests()[0])
	var found bool
	for _, tl := range body["tools"].([]any) {
		m := tl.(map[string]any)
		typ, _ := m["type"].(string)
		if strings.HasPrefix(typ, "web_search") && m["name"] == "web_search" {
			found = true
			if m["max_uses"] != 10.0 {
				t.Errorf("--web-search=high: max_uses %v, want 10", m["max_uses"])
			}
		}
	}
	if !found {
		t.Errorf("the request should carry the web search server tool: %v", body["tools"])
	}
}
