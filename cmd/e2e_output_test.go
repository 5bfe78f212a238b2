package cmd_test

import (
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// TestExitCodes runs one scenario per exit code of llmrt run: 0 completed,
// 1 failed, 2 usage error, 3 paused for input, 4 max iterations (130,
// cancelled, is TestEverySignalStopsEverything's).
func TestExitCodes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		turns []scripted.Turn
		extra []string
		code  int
	}{
		{"completed", []scripted.Turn{finalAnswer("done")}, nil, 0},
		{"failed", []scripted.Turn{toolCall("blocked", `{"reason":"no"}`)}, nil, 1},
		{"usage", nil, []string{"--finish", "sometimes"}, 2},
		{"negative timeout", nil, []string{"--timeout", "-1s"}, 2},
		{"paused", []scripted.Turn{toolCall("ask_user_input", askArgs)}, nil, 3},
		{"max iterations", []scripted.Turn{toolCall("list_files", `{}`), toolCall("path_exists", `{"path":"x"}`)}, []string{"--max-iterations", "2"}, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, fakellm.OpenAI, tc.turns...)
			openaiRun(sb, srv, append(tc.extra, "-p", "task")...).want(t, tc.code)
		})
	}
}

const askArgs = `{"questions":[{"header":"Language","id":"lang","question":"Which language should the greeting use?",` +
	`"options":[{"id":"en","label":"English"},{"id":"fr","label":"French","description":"Bonjour"}]}]}`

func TestJSONOutput(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI,
		scripted.Turn{ToolCalls: toolCall("list_files", `{}`).ToolCalls, Usage: &providers.Usage{InputTokens: 100, OutputTokens: 20}},
		scripted.Turn{ToolCalls: finalAnswer("All good.").ToolCalls, Usage: &providers.Usage{InputTokens: 150, OutputTokens: 30}})
	o := openaiRun(sb, srv, "--output", "json", "-p", "check")
	o.want(t, 0)
	var got map[string]any
	if err := json.Unmarshal([]byte(o.stdout), &got); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, o.stdout)
	}
	for _, k := range []string{"status", "output", "session_id", "usage", "iterations", "warnings", "diagnostics"} {
		if _, ok := got[k]; !ok {
			t.Errorf("missing field %q in %s", k, o.stdout)
		}
	}
	usage := got["usage"].(map[string]any)
	if got["status"] != "completed" || got["output"] != "All good." || got["iterations"] != 2.0 ||
		usage["input_tokens"] != 250.0 || usage["output_tokens"] != 50.0 {
		t.Errorf("got %s", o.stdout)
	}
	if id, _ := got["session_id"].(string); id == "" || len(sb.sessions()) != 1 || !strings.Contains(sb.sessions()[0], id) {
		t.Errorf("session_id %v should name the saved session %v", got["session_id"], sb.sessions())
	}

	srv = fake(t, fakellm.OpenAI, toolCall("blocked", `{"reason":"missing credentials"}`))
	o = openaiRun(sb, srv, "--output", "json", "-p", "check")
	o.want(t, 1)
	json.Unmarshal([]byte(o.stdout), &got)
	errObj, _ := got["error"].(map[string]any)
	if got["status"] != "failed" || errObj["code"] != "blocked" || errObj["message"] != "missing credentials" {
		t.Errorf("failed run: got %s", o.stdout)
	}
}

func TestStreamJSON(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI,
		scripted.Turn{Reasoning: "look first", Text: "Checking.", ToolCalls: toolCall("list_files", `{}`).ToolCalls},
		finalAnswer("Two files."))
	o := openaiRun(sb, srv, "--output", "stream-json", "-p", "count files")
	o.want(t, 0)
	lines := strings.Split(strings.TrimRight(o.stdout, "\n"), "\n")
	var types []string
	terminals := 0
	for i, l := range lines {
		var ev map[string]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("line %d does not parse: %v\n%s", i+1, err, l)
		}
		typ := ev["type"].(string)
		types = append(types, typ)
		switch typ {
		case "completed", "failed", "tool_calls", "cancelled":
			terminals++
			if i != len(lines)-1 {
				t.Errorf("terminal event %s on line %d of %d", typ, i+1, len(lines))
			}
			if ev["session_id"] == "" || ev["result"] == nil {
				t.Errorf("terminal event should carry the result and session id: %s", l)
			}
		}
	}
	if terminals != 1 {
		t.Errorf("got %d terminal events, want 1", terminals)
	}
	joined := strings.Join(types, " ")
	for _, want := range []string{"run_start model_start reasoning_delta", "text_delta", "tool_call_delta", "assistant_message tool_start tool_result model_start", "answer_delta"} {
		if !strings.Contains(joined, want) {
			t.Errorf("event order %q lacks %q", joined, want)
		}
	}
	if types[0] != "run_start" || types[len(types)-1] != "completed" {
		t.Errorf("got first %s, last %s", types[0], types[len(types)-1])
	}
}

func TestStdin(t *testing.T) {
	t.Parallel()
	t.Run("piped stdin is attached below the prompt", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("A short summary."))
		o := sb.run(cli{
			args:  []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "-p", "summarise"},
			env:   map[string]string{"OPENAI_API_KEY": "k"},
			stdin: strings.NewReader("CONTEXT FROM A PIPE\n"),
		})
		o.want(t, 0)
		body := string(srv.Requests()[0].Body)
		if !strings.Contains(body, "summarise") || !strings.Contains(body, "CONTEXT FROM A PIPE") {
			t.Errorf("the request should hold both the prompt and stdin: %s", body)
		}
	})
	t.Run("stdin alone is the prompt", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
		o := sb.run(cli{
			args:  []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m"},
			env:   map[string]string{"OPENAI_API_KEY": "k"},
			stdin: strings.NewReader("what is 2+2?"),
		})
		o.want(t, 0)
		if !strings.Contains(string(srv.Requests()[0].Body), "what is 2+2?") {
			t.Errorf("stdin should be the prompt")
		}
	})
	t.Run("no prompt at all is a usage error", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		o := sb.run(cli{args: []string{"run", "--provider", "scripted", "--model", "x.json"}, stdin: strings.NewReader("")})
		o.want(t, 2)
		if !contains(o.stderr, "no prompt") {
			t.Errorf("stderr: %s", o.stderr)
		}
	})
}

func TestProviderFailuresFromOutside(t *testing.T) {
	t.Parallel()
	t.Run("a missing key exits 2 naming the variable and .env.example", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		o := sb.run(cli{args: []string{"run", "--provider", "openai", "-p", "hi"}})
		o.want(t, 2)
		if !contains(o.stderr, "OPENAI_API_KEY") || !contains(o.stderr, ".env.example") {
			t.Errorf("stderr: %s", o.stderr)
		}
	})
	t.Run("no provider at all says what to set", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		o := sb.run(cli{args: []string{"run", "-p", "hi"}})
		o.want(t, 2)
		if !contains(o.stderr, "ANTHROPIC_API_KEY") || !contains(o.stderr, "scripted") {
			t.Errorf("stderr: %s", o.stderr)
		}
	})
	t.Run("a refused connection exits 1 within the retry budget naming the URL", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		l, _ := net.Listen("tcp", "127.0.0.1:0")
		addr := l.Addr().String()
		l.Close()
		o := sb.run(cli{args: []string{"run", "--provider", "openai", "--base-url", "http://" + addr + "/v1", "-p", "hi"},
			env: map[string]string{"OPENAI_API_KEY": "k"}})
		o.want(t, 1)
		if !contains(o.stderr, addr) || !contains(o.stderr, "connection refused") {
			t.Errorf("stderr: %s", o.stderr)
		}
		if o.took > 15*time.Second {
			t.Errorf("took %s, want under 15s", o.took)
		}
	})
	t.Run("a 401 exits 1 at once with the server's message", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, scripted.Turn{Error: &scripted.TurnError{Status: 401, Message: "Incorrect API key provided: sk-bad."}})
		o := openaiRun(sb, srv, "-p", "hi")
		o.want(t, 1)
		if len(srv.Requests()) != 1 {
			t.Errorf("a 401 must not be retried: %d requests", len(srv.Requests()))
		}
		if !contains(o.stderr, "401") || !contains(o.stderr, "Incorrect API key provided") || !contains(o.stderr, "OPENAI_API_KEY") {
			t.Errorf("stderr: %s", o.stderr)
		}
	})
}
