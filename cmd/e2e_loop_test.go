package cmd_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// TestOpenAIFamilyReadThenAnswer runs the binary against a local
// OpenAI-compatible server for each provider of the family, configured the
// way its users would: a model that calls read_file then final_answer, and
// stdout that holds only the answer. openai speaks the Responses API, or
// Chat Completions with --api chat.
func TestOpenAIFamilyReadThenAnswer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		provider string
		args     func(url string) []string
		env      func(url string) map[string]string
		path     string
		auth     func(h map[string][]string) bool
		result   string // how the second request carries the tool result
	}{
		{
			provider: "openai",
			args:     func(u string) []string { return []string{"--base-url", u + "/v1", "--model", "gpt-test"} },
			env:      func(string) map[string]string { return map[string]string{"OPENAI_API_KEY": "sk-test"} },
			path:     "/v1/responses",
			auth:     func(h map[string][]string) bool { return strings.Join(h["Authorization"], "") == "Bearer sk-test" },
			result:   `"type":"function_call_output"`,
		},
		{
			provider: "openai",
			args: func(u string) []string {
				return []string{"--base-url", u + "/v1", "--model", "gpt-test", "--api", "chat"}
			},
			env:  func(string) map[string]string { return map[string]string{"OPENAI_API_KEY": "sk-test"} },
			path: "/v1/chat/completions",
			auth: func(h map[string][]string) bool { return strings.Join(h["Authorization"], "") == "Bearer sk-test" },
		},
		{
			provider: "openai-compatible",
			args:     func(string) []string { return []string{"--model", "local-model"} },
			env:      func(u string) map[string]string { return map[string]string{"OPENAI_COMPATIBLE_BASE_URL": u + "/v1"} },
			path:     "/v1/chat/completions",
			auth:     func(h map[string][]string) bool { return len(h["Authorization"]) == 0 },
		},
		{
			provider: "xai",
			args:     func(string) []string { return []string{"--model", "grok-test"} },
			env: func(u string) map[string]string {
				return map[string]string{"XAI_API_KEY": "xai-test", "XAI_BASE_URL": u + "/v1"}
			},
			path: "/v1/chat/completions",
			auth: func(h map[string][]string) bool { return strings.Join(h["Authorization"], "") == "Bearer xai-test" },
		},
		{
			provider: "azure",
			args:     func(string) []string { return []string{"--model", "my-deployment"} },
			env: func(u string) map[string]string {
				return map[string]string{"AZURE_OPENAI_API_KEY": "az-test", "AZURE_OPENAI_ENDPOINT": u, "AZURE_OPENAI_API_VERSION": "2024-10-21"}
			},
			path: "/openai/deployments/my-deployment/chat/completions",
			auth: func(h map[string][]string) bool { return strings.Join(h["Api-Key"], "") == "az-test" },
		},
	}
	for _, tc := range cases {
		t.Run(tc.provider+tc.path, func(t *testing.T) {
			t.Parallel()
			if tc.result == "" {
				tc.result = `"role":"tool"`
			}
			sb := newSandbox(t)
			sb.write("notes.txt", "the launch code is 0000\n")
			srv := fake(t, fakellm.OpenAI, toolCall("read_file", `{"path":"notes.txt"}`), finalAnswer("The launch code is 0000."))
			args := append([]string{"run", "--provider", tc.provider}, tc.args(srv.URL)...)
			args = append(args, "-p", "What is the launch code?")
			o := sb.run(cli{args: args, env: tc.env(srv.URL)})
			o.want(t, 0)
			if o.stdout != "The launch code is 0000.\n" {
				t.Errorf("stdout: got %q, want only the answer", o.stdout)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("got %d requests, want 2", len(reqs))
			}
			for _, r := range reqs {
				if r.Path != tc.path || !tc.auth(r.Header) {
					t.Errorf("request to %s with headers %v: want path %s and the provider's auth header", r.Path, r.Header, tc.path)
				}
			}
			if tc.provider == "azure" && reqs[0].Query != "api-version=2024-10-21" {
				t.Errorf("azure query: got %q", reqs[0].Query)
			}
			second := string(reqs[1].Body)
			if !strings.Contains(second, "the launch code is 0000") || !strings.Contains(second, tc.result) {
				t.Errorf("the second request should carry the read_file result, got %s", second)
			}
		})
	}
}

func openaiRun(sb *sandbox, srv *fakellm.Server, extra ...string) outcome {
	args := append([]string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m"}, extra...)
	return sb.run(cli{args: args, env: map[string]string{"OPENAI_API_KEY": "sk-test"}})
}

// TestLoopOutcomesFromOutside checks the loop rules issue #2 names, through
// the binary: narration, repeats, the iteration bound, blocked, and bad
// calls returned to the model.
func TestLoopOutcomesFromOutside(t *testing.T) {
	t.Parallel()
	t.Run("narration does not end the run", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, text("I will now read the file and summarise it."), finalAnswer("Summary: nothing to see."))
		o := openaiRun(sb, srv, "-p", "summarise")
		o.want(t, 0)
		if o.stdout != "Summary: nothing to see.\n" || len(srv.Requests()) != 2 {
			t.Errorf("got stdout %q after %d requests", o.stdout, len(srv.Requests()))
		}
	})
	t.Run("a repeated call exits 1 within three requests", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		sb.write("a.txt", "a\n")
		rd := toolCall("read_file", `{"path":"a.txt"}`)
		srv := fake(t, fakellm.OpenAI, rd, rd, rd, rd, rd)
		o := openaiRun(sb, srv, "-p", "loop")
		o.want(t, 1)
		if n := len(srv.Requests()); n > 3 {
			t.Errorf("got %d requests, want at most 3", n)
		}
		if !contains(o.stderr, "repeated") || o.stdout != "" {
			t.Errorf("stderr %q should name the repeat; stdout %q should be empty", o.stderr, o.stdout)
		}
	})
	t.Run("max-iterations exits 4 after exactly that many calls", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		var turns []scripted.Turn
		for i := 0; i < 10; i++ {
			turns = append(turns, toolCall("list_files", fmt.Sprintf(`{"path":".","max_entries":%d}`, i+1)))
		}
		srv := fake(t, fakellm.OpenAI, turns...)
		o := openaiRun(sb, srv, "--max-iterations", "5", "-p", "loop")
		o.want(t, 4)
		if n := len(srv.Requests()); n != 5 {
			t.Errorf("got %d model calls, want exactly 5", n)
		}
	})
	t.Run("blocked exits 1 and shows the reason", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, toolCall("blocked", `{"reason":"the database is not reachable"}`))
		o := openaiRun(sb, srv, "-p", "migrate")
		o.want(t, 1)
		if !contains(o.stderr, "the database is not reachable") {
			t.Errorf("stderr %q should show the reason", o.stderr)
		}
	})
	t.Run("invalid arguments and unknown tools go back to the model", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI,
			toolCall("read_file", `{"path": "a.txt",`),
			toolCall("teleport", `{}`),
			finalAnswer("recovered"))
		o := openaiRun(sb, srv, "-p", "go")
		o.want(t, 0)
		reqs := srv.Requests()
		if len(reqs) != 3 || !contains(string(reqs[1].Body), "not valid JSON") || !contains(string(reqs[2].Body), `unknown tool \"teleport\"`) {
			t.Errorf("the model should see both errors; bodies:\n%s\n%s", reqs[1].Body, reqs[len(reqs)-1].Body)
		}
	})
}
