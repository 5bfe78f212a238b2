package cmd_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// Tests of replies shaped like real models' (issue 23): plain text
// without final_answer, an answer given twice, text that looks like HTML,
// interrupted turns, a stable request prefix.

// TestPlainTextAnswerEndsTheRun: a model that answers in plain text and
// keeps doing so after the nudge ends the run with exit 0 and its text
// on stdout after at most three model calls, with a warning on stderr.
func TestPlainTextAnswerEndsTheRun(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		turns []scripted.Turn
		calls int
	}{
		{"the same text twice", []scripted.Turn{text("The answer is 42."), text("The answer is 42.")}, 2},
		{"three different texts", []scripted.Turn{text("42."), text("It is 42."), text("The answer is 42.")}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			turns := append(tc.turns, make([]scripted.Turn, 30)...)
			for i := len(tc.turns); i < len(turns); i++ {
				turns[i] = text("The answer is 42.")
			}
			srv := fake(t, fakellm.OpenAI, turns...)
			o := openaiRun(sb, srv, "--verbose", "-p", "what is 6*7?")
			o.want(t, 0)
			if o.stdout != "The answer is 42.\n" {
				t.Errorf("stdout: got %q, want the answer", o.stdout)
			}
			if n := len(srv.Requests()); n != tc.calls {
				t.Errorf("model calls: got %d, want %d", n, tc.calls)
			}
			if !contains(o.stderr, "final_answer") {
				t.Errorf("stderr should warn that the finish was unconfirmed:\n%s", o.stderr)
			}
		})
	}
}

// TestIterationLimitHintNamesFinishText: a run that reaches the iteration
// limit on plain text replies suggests --finish text, not only a higher
// limit.
func TestIterationLimitHintNamesFinishText(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, text("It is 42."), text("Surely 42."), text("never"))
	o := openaiRun(sb, srv, "--max-iterations", "2", "-p", "what is 6*7?")
	o.want(t, 4)
	if !contains(o.stderr, "--finish text") {
		t.Errorf("the hint should name --finish text:\n%s", o.stderr)
	}
	sb = newSandbox(t)
	srv = fake(t, fakellm.OpenAI, toolCall("list_files", `{}`), toolCall("path_exists", `{"path":"x"}`))
	o = openaiRun(sb, srv, "--max-iterations", "2", "-p", "look around")
	o.want(t, 4)
	if contains(o.stderr, "--finish text") {
		t.Errorf("a run of tool calls should not be told about --finish text:\n%s", o.stderr)
	}
}

// TestAnswerRepeatedAsFinalAnswerShowsOnce: text, then the same text
// through final_answer (what real models do after the nudge), is shown
// once on a terminal, by run and by the chat.
func TestAnswerRepeatedAsFinalAnswerShowsOnce(t *testing.T) {
	t.Parallel()
	const answer = "The answer is 42, as computed."
	t.Run("run", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, text(answer), finalAnswer(answer))
		tm := startTermSized(t, sb, 80, 24, openaiKey,
			"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "what is 6*7?")
		scr := tm.waitFor("EXIT=", 15*time.Second)
		if n := strings.Count(scr, answer); n != 1 || !strings.Contains(scr, "EXIT=0") {
			t.Errorf("want the answer once, got %d times:\n%s", n, scr)
		}
	})
	t.Run("run with a different answer", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, text("Let me think: six sevens."), finalAnswer(answer))
		tm := startTermSized(t, sb, 80, 24, openaiKey,
			"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "what is 6*7?")
		scr := tm.waitFor("EXIT=", 15*time.Second)
		if strings.Count(scr, answer) != 1 || strings.Count(scr, "six sevens") != 1 || strings.Index(scr, "six sevens") > strings.Index(scr, answer) {
			t.Errorf("want the interim text, then the answer, each once:\n%s", scr)
		}
	})
	t.Run("chat", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, text(answer), finalAnswer(answer))
		tm := startTermSized(t, sb, 80, 24, openaiKey, chatArgs(srv)...)
		tm.waitFor("Ask anything", 10*time.Second)
		tm.keys("what is 6*7?", "Enter")
		waitRequests(t, srv, 2)
		scr := tm.waitUntil("the answer, the turn over", 15*time.Second, func(s string) bool {
			return strings.Contains(s, "idle") && strings.Contains(s, answer)
		})
		if n := strings.Count(scr, answer); n != 1 {
			t.Errorf("want the answer once, got %d times:\n%s", n, scr)
		}
	})
}

// waitRequests waits until srv has received n requests.
func waitRequests(t *testing.T, srv *fakellm.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for len(srv.Requests()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("got %d requests, want %d", len(srv.Requests()), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// literalAnswer holds text a Markdown renderer tends to lose: generics and
// HTML-like text, entities, code with <, a table, wide characters, a
// code line wider than the screen, a nested list.
var literalAnswer = "Return a Vec<String> instead of a Map<K, V>. Compare a<b and c>d. Use the <details> element.\n\n" +
	"Created out/<a>&b.txt; entities stay: &amp; &copy; &#169; and `&lt;`.\n\n" +
	"- one <T>\n  - two `x<y>` and AT&T\n\n" +
	"| Type | Example |\n|---|---|\n| generic | `Vec<String>` |\n| 漢字 | 🎉 |\n\n" +
	"```go\nfunc main() {\n\tkey := \"" + strings.Repeat("x", 150) + "\"\n}\n```\n"

// literalVisible is what a person should read of literalAnswer, markup
// aside.
var literalVisible = "Return a Vec<String> instead of a Map<K, V>. Compare a<b and c>d. Use the <details> element. " +
	"Created out/<a>&b.txt; entities stay: &amp; &copy; &#169; and &lt;. " +
	"• one <T> • two x<y> and AT&T " +
	"Type Example generic Vec<String> 漢字 🎉 " +
	"func main() { key := \"" + strings.Repeat("x", 150) + "\" }"

// wrapMark is the mark a wrapped code line goes on behind.
var wrapMark = regexp.MustCompile(`(?m)^\s*↪ `)

// squeeze drops whitespace, the box-drawing characters of tables and the
// marks of wrapped code lines, so texts compare whatever their wrapping.
func squeeze(s string) string {
	s = wrapMark.ReplaceAllString(s, "")
	s = strings.NewReplacer("│", "", "─", "", "┼", "").Replace(s)
	return strings.Join(strings.Fields(s), "")
}

// TestTerminalShowsEveryCharacter: on a real terminal, run and the chat
// show every character of an answer full of text that looks like HTML.
func TestTerminalShowsEveryCharacter(t *testing.T) {
	t.Parallel()
	t.Run("run", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer(literalAnswer))
		tm := startTermSized(t, sb, 80, 24, openaiKey,
			"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "show me")
		tm.waitFor("EXIT=", 15*time.Second)
		scr := tm.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "main")
		if !strings.Contains(squeeze(scr), squeeze(literalVisible)) {
			t.Errorf("the answer lost characters:\n%s", scr)
		}
	})
	t.Run("chat", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer(literalAnswer))
		tm := startTermSized(t, sb, 80, 40, openaiKey, chatArgs(srv)...)
		tm.waitFor("Ask anything", 10*time.Second)
		tm.keys("show me", "Enter")
		waitRequests(t, srv, 1)
		// "idle" is on the screen before the turn too, and a loaded
		// machine may draw the turn late: wait for the whole answer.
		tm.waitUntil("every character of the answer, the turn over", 15*time.Second, func(s string) bool {
			return strings.Contains(s, "idle") && strings.Contains(squeeze(s), squeeze(literalVisible))
		})
	})
}

// TestChatInterruptedThenContinued: a chat turn stopped while the model
// writes, then one stopped before the model wrote anything, then a third:
// every request the chat sends is one the API accepts (the fake server
// checks turns alternate and calls have results), on each wire protocol,
// and the third carries the cut reply marked as interrupted.
func TestChatInterruptedThenContinued(t *testing.T) {
	t.Parallel()
	all := append([]native{{"openai", fakellm.OpenAI, func(u string) map[string]string {
		return map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": u + "/v1"}
	}}}, natives...)
	for _, n := range all {
		t.Run(n.provider, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			long := strings.Repeat("Counting sheep slowly. ", 60)
			srv := fake(t, n.protocol, slow(long, 40), finalAnswer("never shown"), finalAnswer("Third time lucky."))
			tm := startTermSized(t, sb, 80, 24, n.env(srv.URL), "chat", "--provider", n.provider, "--model", "test-model")
			tm.waitFor("Ask anything", 10*time.Second)
			tm.keys("first prompt", "Enter")
			tm.waitFor("Counting sheep", 15*time.Second)
			tm.keys("Escape")
			tm.waitFor("cancelled", 10*time.Second)

			release := srv.Hold(2)
			defer release()
			tm.keys("second prompt", "Enter")
			waitRequests(t, srv, 2)
			tm.keys("Escape")
			deadline := time.Now().Add(10 * time.Second)
			for strings.Count(tm.screen(false), "cancelled") < 2 {
				if time.Now().After(deadline) {
					t.Fatalf("the second turn should be cancelled:\n%s", tm.screen(false))
				}
				time.Sleep(50 * time.Millisecond)
			}

			tm.keys("third prompt", "Enter")
			tm.waitFor("Third time lucky.", 15*time.Second)
			reqs := srv.Requests()
			var calls []fakellm.Request
			for _, r := range reqs {
				if r.Rejected != "" {
					t.Errorf("the server refused a request: %s\n%s", r.Rejected, r.Body)
				}
				if !strings.HasSuffix(r.Path, "/api/version") {
					calls = append(calls, r)
				}
			}
			if len(calls) != 3 {
				t.Fatalf("got %d model calls, want 3", len(calls))
			}
			third := string(calls[2].Body)
			for _, want := range []string{"first prompt", "Counting sheep", "interrupted", "second prompt", "third prompt"} {
				if !strings.Contains(third, want) {
					t.Errorf("the third request lacks %q:\n%s", want, third)
				}
			}
		})
	}
}

// requestPrefix returns the part of a model call's body that a prompt
// cache keys on before the conversation: the system prompt and the tool
// list, as sent.
func requestPrefix(t *testing.T, protocol string, r fakellm.Request) string {
	t.Helper()
	body := bodyOf(t, r)
	var parts []any
	switch {
	case protocol == fakellm.Anthropic:
		parts = []any{body["system"], body["tools"]}
	case protocol == fakellm.Gemini:
		parts = []any{body["systemInstruction"], body["tools"]}
	case strings.HasSuffix(r.Path, "/responses"):
		input, _ := body["input"].([]any)
		if len(input) == 0 {
			t.Fatalf("a request without input: %s", r.Body)
		}
		parts = []any{input[0], body["tools"]}
	default:
		msgs, _ := body["messages"].([]any)
		if len(msgs) == 0 {
			t.Fatalf("a request without messages: %s", r.Body)
		}
		parts = []any{msgs[0], body["tools"]}
	}
	b, _ := json.Marshal(parts)
	return string(b)
}

// TestRequestPrefixIsStable: over a five-call tool loop, with a recovery
// note on one call, every request's system prompt and tool list are the
// same bytes as the first's, on every wire protocol (the Responses API,
// Chat Completions, Anthropic, Gemini, Ollama), so providers' prompt
// caches hold; the system prompt tells the model where it works.
func TestRequestPrefixIsStable(t *testing.T) {
	t.Parallel()
	openai := func(u string) map[string]string {
		return map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": u + "/v1"}
	}
	type protocol struct {
		name  string
		n     native
		extra []string
		path  string
	}
	all := []protocol{
		{"responses", native{"openai", fakellm.OpenAI, openai}, nil, "/v1/responses"},
		{"chat", native{"openai", fakellm.OpenAIChat, openai}, []string{"--api", "chat"}, "/v1/chat/completions"},
	}
	for _, n := range natives {
		all = append(all, protocol{n.provider, n, nil, ""})
	}
	for _, p := range all {
		n := p.n
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			sb.write("notes.txt", "hello\n")
			srv := fake(t, n.protocol,
				toolCall("list_files", `{}`),
				toolCall("read_file", `{"path":"notes.txt"}`),
				text("The notes say hello; let me check one more thing."),
				toolCall("path_exists", `{"path":"other.txt"}`),
				finalAnswer("The notes say hello."))
			o := n.run(sb, srv, append(p.extra, "-p", "what do the notes say?")...)
			o.want(t, 0)
			var calls []fakellm.Request
			for _, r := range srv.Requests() {
				if !strings.HasSuffix(r.Path, "/api/version") {
					calls = append(calls, r)
				}
			}
			if len(calls) != 5 {
				t.Fatalf("got %d model calls, want 5", len(calls))
			}
			if p.path != "" && calls[0].Path != p.path {
				t.Errorf("model calls go to %s, want %s", calls[0].Path, p.path)
			}
			first := requestPrefix(t, n.protocol, calls[0])
			for i, r := range calls[1:] {
				if got := requestPrefix(t, n.protocol, r); got != first {
					t.Errorf("call %d: the system prompt or tool list changed:\n%s\nwas:\n%s", i+2, got, first)
				}
			}
			for _, want := range []string{"## Environment", "Working directory: " + sb.work, "Git: not a repository"} {
				if !strings.Contains(first, want) {
					t.Errorf("the system prompt lacks %q:\n%s", want, first)
				}
			}
			if n.protocol == fakellm.Anthropic {
				// The breakpoint of the call after the note sits on the
				// conversation, not on the note, which the next call drops.
				var body struct {
					Messages []struct {
						Role    string `json:"role"`
						Content []struct {
							Text         string          `json:"text"`
							CacheControl json.RawMessage `json:"cache_control"`
						} `json:"content"`
					} `json:"messages"`
				}
				if err := json.Unmarshal(calls[3].Body, &body); err != nil {
					t.Fatal(err)
				}
				var marked []string
				for _, m := range body.Messages {
					for _, b := range m.Content {
						if b.CacheControl != nil {
							marked = append(marked, m.Role+": "+b.Text)
						}
					}
				}
				last := body.Messages[len(body.Messages)-1]
				if want := "assistant: The notes say hello; let me check one more thing."; len(marked) != 1 || marked[0] != want || !strings.HasPrefix(last.Content[0].Text, "<system-reminder>") {
					t.Errorf("call 4's conversation breakpoints: %q, want one on %q, before the note", marked, want)
				}
			}
		})
	}
}
