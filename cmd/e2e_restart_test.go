package cmd_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// everyProtocol is openai plus the providers with a wire protocol of their
// own: a stream cut must be handled the same way on each.
func everyProtocol() []native {
	openai := native{"openai", fakellm.OpenAI, func(u string) map[string]string {
		return map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": u + "/v1"}
	}}
	return append([]native{openai}, natives...)
}

// cutTurn makes t break off with a retryable 502: after its reasoning and
// text, or (header) after the start of its first tool call with argBytes
// of the arguments. Gemini and Ollama send a call whole, arguments and all.
func cutTurn(t scripted.Turn, header bool, argBytes int) scripted.Turn {
	t.Error = &scripted.TurnError{Status: 502, Message: "reset", AfterOutput: !header, AfterCallHeader: header, ArgumentBytes: argBytes}
	return t
}

// modelRequests counts the requests that asked the fake for a reply.
func modelRequests(srv *fakellm.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Path != "/api/version" {
			n++
		}
	}
	return n
}

// sendsCallsWhole reports whether the protocol has no separate tool-call
// header: the first chunk of a call carries its arguments.
func sendsCallsWhole(n native) bool {
	return n.protocol == fakellm.Gemini || n.protocol == fakellm.Ollama
}

// TestStreamCutAfterCallHeader: a stream cut right after its first tool
// call chunk (nothing shown to the user) is restarted once, and the run
// completes with exactly one answer on stdout, on every protocol. On the
// protocols that stream a call's header apart from its arguments, the cut
// call may be the final_answer itself.
func TestStreamCutAfterCallHeader(t *testing.T) {
	t.Parallel()
	for _, n := range everyProtocol() {
		t.Run(n.provider+"/read_file header", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			sb.write("notes.txt", "the code is 7\n")
			read := toolCall("read_file", `{"path":"notes.txt"}`)
			srv := fake(t, n.protocol, cutTurn(read, true, 0), finalAnswer("The code is 7."))
			o := n.run(sb, srv, "--verbose", "-p", "What is the code?")
			o.want(t, 0)
			if o.stdout != "The code is 7.\n" || modelRequests(srv) != 2 {
				t.Errorf("got stdout %q after %d requests, want one answer after 2", o.stdout, modelRequests(srv))
			}
			if !contains(o.stderr, "restarting the reply from its beginning") || !contains(o.stderr, "attempt 2 of 3") {
				t.Errorf("--verbose should report the restart: %s", o.stderr)
			}
		})
		if sendsCallsWhole(n) {
			continue
		}
		t.Run(n.provider+"/final_answer header", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, n.protocol, cutTurn(finalAnswer("first try"), true, 0), finalAnswer("second try"))
			o := n.run(sb, srv, "-p", "hi")
			o.want(t, 0)
			if o.stdout != "second try\n" || modelRequests(srv) != 2 {
				t.Errorf("got stdout %q after %d requests, want one answer after 2", o.stdout, modelRequests(srv))
			}
		})
	}
}

// TestStreamCutBeforeAnswer: a cut after reasoning or after narration
// (evidence mode: narration is not the answer) is restarted, with the
// answer printed once; with --finish text the text reply is the answer,
// printed once when the run completes.
func TestStreamCutBeforeAnswer(t *testing.T) {
	t.Parallel()
	for _, n := range everyProtocol() {
		t.Run(n.provider+"/reasoning", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, n.protocol, cutTurn(scripted.Turn{Reasoning: "thinking it over"}, false, 0), finalAnswer("42"))
			o := n.run(sb, srv, "--reasoning-effort", "medium", "-p", "hi")
			o.want(t, 0)
			if o.stdout != "42\n" || modelRequests(srv) != 2 {
				t.Errorf("got stdout %q after %d requests, want \"42\" after 2", o.stdout, modelRequests(srv))
			}
		})
		t.Run(n.provider+"/narration", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, n.protocol, cutTurn(text("Let me look at the files first."), false, 0), finalAnswer("42"))
			o := n.run(sb, srv, "-p", "hi")
			o.want(t, 0)
			if o.stdout != "42\n" || contains(o.stdout+o.stderr, "Let me look") || modelRequests(srv) != 2 {
				t.Errorf("got stdout %q stderr %q after %d requests, want \"42\" after 2 and no trace of the cut reply",
					o.stdout, o.stderr, modelRequests(srv))
			}
		})
		t.Run(n.provider+"/text finish", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, n.protocol, cutTurn(text("The answer is"), false, 0), text("The answer is 42."))
			o := n.run(sb, srv, "--finish", "text", "-p", "hi")
			o.want(t, 0)
			if o.stdout != "The answer is 42.\n" || modelRequests(srv) != 2 {
				t.Errorf("got stdout %q after %d requests, want the text answer once after 2", o.stdout, modelRequests(srv))
			}
		})
	}
}

// TestStreamCutAfterAnswer: once answer text is on stdout a cut is fatal
// (exit 1, no second request), and a server that always cuts before the
// answer fails after the three attempts of the default retry policy.
func TestStreamCutAfterAnswer(t *testing.T) {
	t.Parallel()
	for _, n := range everyProtocol() {
		t.Run(n.provider+"/after answer text", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, n.protocol, cutTurn(finalAnswer("The answer is 42."), true, len(`{"answer":"The answer`)), finalAnswer("never"))
			o := n.run(sb, srv, "-p", "hi")
			o.want(t, 1)
			if modelRequests(srv) != 1 || contains(o.stdout, "never") || !strings.HasPrefix(o.stdout, "The answer") {
				t.Errorf("got stdout %q after %d requests, want the printed part of the answer and no retry", o.stdout, modelRequests(srv))
			}
			if !contains(o.stderr, "broke off") {
				t.Errorf("stderr should say the stream broke off: %s", o.stderr)
			}
		})
		t.Run(n.provider+"/always cut", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			c := cutTurn(toolCall("read_file", `{"path":"x"}`), true, 0)
			srv := fake(t, n.protocol, c, c, c, finalAnswer("never"))
			o := n.run(sb, srv, "-p", "hi")
			o.want(t, 1)
			if modelRequests(srv) != 3 || o.stdout != "" {
				t.Errorf("got stdout %q after %d requests, want nothing after 3", o.stdout, modelRequests(srv))
			}
		})
	}
}

// streamEvent is the part of a stream-json line these tests read.
type streamEvent struct {
	Type    string `json:"type"`
	Delta   string `json:"delta"`
	Warning *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"warning"`
	Message *struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"message"`
	Result *struct {
		Output string `json:"output"`
	} `json:"result"`
}

// TestStreamCutStreamJSON: with --output stream-json a restart shows as a
// stream_restarted warning after the cut attempt's deltas; a consumer that
// drops the call's deltas on it keeps exactly the completed reply. The
// session holds no trace of the cut attempt.
func TestStreamCutStreamJSON(t *testing.T) {
	t.Parallel()
	for _, n := range everyProtocol() {
		t.Run(n.provider, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			cutReply := scripted.Turn{Text: "Checking the notes.", ToolCalls: toolCall("read_file", `{"path":"notes.txt"}`).ToolCalls}
			srv := fake(t, n.protocol, cutTurn(cutReply, true, 0), scripted.Turn{Text: "All done.", ToolCalls: finalAnswer("done").ToolCalls})
			o := n.run(sb, srv, "-o", "stream-json", "-p", "hi")
			o.want(t, 0)
			var kept, all, answer strings.Builder
			restarts, completed := 0, 0
			for _, l := range strings.Split(strings.TrimSpace(o.stdout), "\n") {
				var ev streamEvent
				if err := json.Unmarshal([]byte(l), &ev); err != nil {
					t.Fatalf("line is not JSON: %v\n%s", err, l)
				}
				switch ev.Type {
				case "model_start":
					kept.Reset()
				case "warning":
					if ev.Warning.Code == "stream_restarted" {
						restarts++
						if !contains(all.String(), "Checking the notes.") {
							t.Errorf("the warning came before the cut attempt's deltas: %q", all.String())
						}
						kept.Reset()
					}
				case "text_delta":
					kept.WriteString(ev.Delta)
					all.WriteString(ev.Delta)
				case "answer_delta":
					answer.WriteString(ev.Delta)
				case "assistant_message":
					if got := kept.String(); len(ev.Message.Content) != 1 || got != ev.Message.Content[0].Text {
						t.Errorf("kept text %q, want the reply's %+v", got, ev.Message.Content)
					}
				case "completed":
					completed++
					if ev.Result.Output != "done" {
						t.Errorf("output: got %q, want \"done\"", ev.Result.Output)
					}
				}
			}
			if restarts != 1 || completed != 1 || answer.String() != "done" {
				t.Errorf("got %d stream_restarted, %d completed, answer deltas %q; want 1, 1, \"done\"", restarts, completed, answer.String())
			}
			files := sb.sessions()
			if len(files) != 1 {
				t.Fatalf("got %d session files, want 1", len(files))
			}
			data, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if contains(string(data), "Checking the notes") || !contains(string(data), "All done.") {
				t.Errorf("the session should hold the completed reply and nothing of the cut one:\n%s", data)
			}
		})
	}
}
