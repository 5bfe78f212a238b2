package cmd_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// responsesRun runs the binary as a user of a proxy of OpenAI's API would:
// --provider openai at the fake server's /v1.
func responsesRun(sb *sandbox, srv *fakellm.Server, extra ...string) outcome {
	args := append([]string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "gpt-5-mini"}, extra...)
	return sb.run(cli{args: args, env: map[string]string{"OPENAI_API_KEY": "sk-test"}})
}

// inputItem is one input item of a Responses request, as far as these
// tests read it.
type inputItem struct {
	Type      string `json:"type"`
	Role      string `json:"role"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Encrypted string `json:"encrypted_content"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
}

// inputOf decodes the input items of a Responses request and checks what
// every such request must say: streamed, nothing stored.
func inputOf(t *testing.T, r fakellm.Request) []inputItem {
	t.Helper()
	if !strings.HasSuffix(r.Path, "/v1/responses") {
		t.Fatalf("request to %s, want /v1/responses", r.Path)
	}
	var body struct {
		Stream bool        `json:"stream"`
		Store  *bool       `json:"store"`
		Input  []inputItem `json:"input"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("request body: %v", err)
	}
	if !body.Stream || body.Store == nil || *body.Store {
		t.Errorf("stream %v, store %v: want a stream with store false", body.Stream, body.Store)
	}
	return body.Input
}

// itemKinds renders input items as "type" or "type:detail" for compact
// comparison: a reasoning item by its encrypted content, a call by its
// name, a message by its role.
func itemKinds(items []inputItem) []string {
	var out []string
	for _, it := range items {
		switch it.Type {
		case "reasoning":
			out = append(out, "reasoning:"+it.Encrypted)
		case "function_call":
			out = append(out, "call:"+it.Name)
		case "function_call_output":
			out = append(out, "output")
		default:
			out = append(out, it.Role)
		}
	}
	return out
}

// TestResponsesReasoningLoop: a tool loop of a reasoning model over the
// Responses API replays each earlier reasoning item, with the encrypted
// content the server issued, ahead of the call it led to; the fake server
// rejects (400) any replay the real API would reject. The reasoning
// streams as reasoning_delta events and usage keeps cached and reasoning
// tokens.
func TestResponsesReasoningLoop(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write("notes.txt", "the launch code is 0000\n")
	read := toolCall("read_file", `{"path":"notes.txt"}`)
	read.Reasoning = "I should read the notes first."
	check := toolCall("path_exists", `{"path":"notes.txt"}`)
	check.Reasoning = "Let me confirm the file is there."
	answer := finalAnswer("The launch code is 0000.")
	answer.Reasoning = "The notes give the code."
	answer.Usage = &providers.Usage{InputTokens: 900, OutputTokens: 50, CacheReadTokens: 800, ReasoningTokens: 30}
	srv := fake(t, fakellm.OpenAI, read, check, answer)

	o := responsesRun(sb, srv, "-o", "stream-json", "-p", "What is the launch code?")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("got %d requests, want 3", len(reqs))
	}
	wants := [][]string{
		{"developer", "user"},
		{"developer", "user", "reasoning:fake-encrypted-reasoning-1", "call:read_file", "output"},
		{"developer", "user", "reasoning:fake-encrypted-reasoning-1", "call:read_file", "output",
			"reasoning:fake-encrypted-reasoning-2", "call:path_exists", "output"},
	}
	for i, r := range reqs {
		items := inputOf(t, r)
		if got := itemKinds(items); strings.Join(got, " ") != strings.Join(wants[i], " ") {
			t.Errorf("request %d input:\n got %q\nwant %q", i+1, got, wants[i])
		}
		for _, it := range items {
			if it.Type == "reasoning" && (len(it.Summary) != 1 || it.Summary[0].Text == "") {
				t.Errorf("request %d: reasoning item %q should carry its summary back: %+v", i+1, it.Encrypted, it.Summary)
			}
		}
	}

	var reasoning strings.Builder
	var final map[string]any
	for _, ev := range eventLines(t, o.stdout) {
		switch ev["type"] {
		case "reasoning_delta":
			reasoning.WriteString(ev["delta"].(string))
		case "completed":
			final = ev
		}
	}
	for _, want := range []string{read.Reasoning, check.Reasoning, answer.Reasoning} {
		if !strings.Contains(reasoning.String(), want) {
			t.Errorf("reasoning deltas %q: want %q among them", reasoning.String(), want)
		}
	}
	usage, _ := json.Marshal(final["result"].(map[string]any)["usage"])
	if !strings.Contains(string(usage), `"cache_read_tokens":800`) || !strings.Contains(string(usage), `"reasoning_tokens":30`) {
		t.Errorf("final usage %s: want the cached and reasoning tokens of the calls", usage)
	}
}

// TestResponsesReasoningAcrossResume: the reasoning item of a finished run
// is kept in its session, opaque, and replayed when the session is
// resumed with another prompt.
func TestResponsesReasoningAcrossResume(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	first := finalAnswer("Paris.")
	first.Reasoning = "France's capital is Paris."
	srv := fake(t, fakellm.OpenAI, first, finalAnswer("Berlin."))
	o := responsesRun(sb, srv, "-o", "json", "-p", "Capital of France?")
	o.want(t, 0)
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(o.stdout), &res); err != nil || res.SessionID == "" {
		t.Fatalf("no session id in %s: %v", o.stdout, err)
	}
	o = responsesRun(sb, srv, "--resume", res.SessionID, "-p", "And of Germany?")
	o.want(t, 0)
	if o.stdout != "Berlin.\n" {
		t.Errorf("stdout: got %q", o.stdout)
	}
	got := itemKinds(inputOf(t, srv.Requests()[1]))
	want := "developer user reasoning:fake-encrypted-reasoning-1 call:final_answer output user"
	if strings.Join(got, " ") != want {
		t.Errorf("resumed request input:\n got %q\nwant %q", strings.Join(got, " "), want)
	}
}

// TestResponsesStreamRestart: a Responses stream cut before any answer
// text (after reasoning, or inside a call's header) is restarted, announced
// by a stream_restarted warning, and the run answers once; a cut after
// answer text was shown is not, and the run fails naming the provider.
func TestResponsesStreamRestart(t *testing.T) {
	t.Parallel()
	t.Run("cut after reasoning", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		cut := cutTurn(scripted.Turn{Reasoning: "thinking about it"}, false, 0)
		srv := fake(t, fakellm.OpenAI, cut, finalAnswer("second try"))
		o := responsesRun(sb, srv, "-o", "stream-json", "-p", "hi")
		o.want(t, 0)
		restarted := 0
		for _, ev := range eventLines(t, o.stdout) {
			if w, _ := ev["warning"].(map[string]any); ev["type"] == "warning" && w["code"] == "stream_restarted" {
				restarted++
			}
		}
		if len(srv.Requests()) != 2 || restarted == 0 {
			t.Errorf("got %d requests and %d restart warnings, want 2 and a warning", len(srv.Requests()), restarted)
		}
		// The restarted call asks the same thing: the cut attempt's
		// reasoning item is not replayed.
		if a, b := itemKinds(inputOf(t, srv.Requests()[0])), itemKinds(inputOf(t, srv.Requests()[1])); strings.Join(a, " ") != strings.Join(b, " ") {
			t.Errorf("restarted request input %q, want the first request's %q", b, a)
		}
	})
	t.Run("cut in the final answer's header", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, cutTurn(finalAnswer("partial answer"), true, len(`{"answer"`)), finalAnswer("whole answer"))
		o := responsesRun(sb, srv, "-p", "hi")
		o.want(t, 0)
		if o.stdout != "whole answer\n" || len(srv.Requests()) != 2 {
			t.Errorf("got %q after %d requests, want the answer once after 2", o.stdout, len(srv.Requests()))
		}
	})
	t.Run("cut after answer text", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, cutTurn(finalAnswer("partial answer"), true, len(`{"answer":"partial`)), finalAnswer("never"))
		o := responsesRun(sb, srv, "-p", "hi")
		o.want(t, 1)
		if len(srv.Requests()) != 1 || !contains(o.stderr, "openai") {
			t.Errorf("a cut after answer text must fail, not restart: %d requests, stderr %s", len(srv.Requests()), o.stderr)
		}
	})
}

// TestResponsesChatOnlyServer: a base URL whose server speaks only Chat
// Completions fails with its 404 and a hint naming --api chat; with api
// chat (flag, environment or config) the same run works over Chat
// Completions.
func TestResponsesChatOnlyServer(t *testing.T) {
	t.Parallel()
	t.Run("without api chat", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAIChat, finalAnswer("ok"))
		o := responsesRun(sb, srv, "-p", "hi")
		o.want(t, 1)
		if !contains(o.stderr, "404") || !contains(o.stderr, "--api chat") {
			t.Errorf("stderr should give the 404 and the --api chat hint: %s", o.stderr)
		}
	})
	for _, how := range []string{"flag", "env", "config"} {
		t.Run("api chat by "+how, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, fakellm.OpenAIChat, finalAnswer("ok"))
			args := []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "gpt-5-mini", "-p", "hi"}
			env := map[string]string{"OPENAI_API_KEY": "sk-test"}
			switch how {
			case "flag":
				args = append(args, "--api", "chat")
			case "env":
				env["LLMRT_API"] = "chat"
			case "config":
				sb.write(".llmrt/config.json", `{"api": "chat"}`)
				args = append(args, "--trust")
			}
			o := sb.run(cli{args: args, env: env})
			o.want(t, 0)
			if o.stdout != "ok\n" || len(srv.Requests()) != 1 || srv.Requests()[0].Path != "/v1/chat/completions" {
				t.Errorf("got %q, requests %+v; want ok over /v1/chat/completions", o.stdout, srv.Requests())
			}
		})
	}
	t.Run("a bad api value is a usage error", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
		o := responsesRun(sb, srv, "--api", "completions", "-p", "hi")
		o.want(t, 2)
		if !contains(o.stderr, "--api") || !contains(o.stderr, "responses or chat") || len(srv.Requests()) != 0 {
			t.Errorf("stderr %s after %d requests: want the flag named before any request", o.stderr, len(srv.Requests()))
		}
	})
	t.Run("api on a provider without a choice is a diagnostic", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.Anthropic, finalAnswer("ok"))
		o := natives[0].run(sb, srv, "--api", "chat", "--strict", "-p", "hi")
		o.want(t, 2)
		if !contains(o.stderr, "--api chat is ignored: provider anthropic has one API") {
			t.Errorf("stderr: %s", o.stderr)
		}
	})
}

// TestResponsesWebSearch: --web-search sends the built-in web search tool
// with its context size, next to the function tools, and warns of nothing.
func TestResponsesWebSearch(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("searched"))
	o := responsesRun(sb, srv, "--web-search=high", "-o", "json", "-p", "what happened today?")
	o.want(t, 0)
	if contains(o.stdout, "web_search_ignored") || contains(o.stderr, "ignored") {
		t.Errorf("web search should not be ignored: %s %s", o.stdout, o.stderr)
	}
	body := bodyOf(t, srv.Requests()[0])
	var search, functions int
	for _, tl := range body["tools"].([]any) {
		m := tl.(map[string]any)
		switch m["type"] {
		case "web_search":
			search++
			if m["search_context_size"] != "high" {
				t.Errorf("web search tool %v: want search_context_size high", m)
			}
		case "function":
			functions++
		}
	}
	if search != 1 || functions == 0 {
		t.Errorf("tools: %d web search, %d functions; want one and some", search, functions)
	}
}
