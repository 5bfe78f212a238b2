package cmd_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// streamLine is one line llmrt writes with -o stream-json, as far as
// these tests read it.
type streamLine struct {
	Type      string `json:"type"`
	ParentID  string `json:"parent_id"`
	SessionID string `json:"session_id"`
	Line      int    `json:"line"`
	Call      *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"call"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Result *struct {
		Status string `json:"status"`
		Output string `json:"output"`
	} `json:"result"`
	raw string
}

// streamSession is a running `llmrt run --input-format stream-json`.
type streamSession struct {
	t     *testing.T
	stdin io.WriteCloser
	lines chan streamLine
	wait  func() int
	seen  []streamLine
}

func startStream(t *testing.T, sb *sandbox, srv *fakellm.Server, extra ...string) *streamSession {
	t.Helper()
	args := append([]string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m",
		"--input-format", "stream-json", "-o", "stream-json"}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := sb.command(ctx, cli{args: args, env: map[string]string{"OPENAI_API_KEY": "sk-test"}})
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &streamSession{t: t, stdin: stdin, lines: make(chan streamLine, 1024)}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var l streamLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				l = streamLine{Type: "not-json"}
			}
			l.raw = sc.Text()
			s.lines <- l
		}
	}()
	s.wait = func() int {
		cmd.Wait()
		return cmd.ProcessState.ExitCode()
	}
	return s
}

// send writes lines to llmrt's stdin.
func (s *streamSession) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.stdin, l+"\n"); err != nil {
			s.t.Fatalf("write %q: %v", l, err)
		}
	}
}

// next returns the first line from now on that ok accepts, failing the
// test if none comes within a generous deadline or the output ends.
func (s *streamSession) next(what string, ok func(streamLine) bool) streamLine {
	s.t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case l, open := <-s.lines:
			if !open {
				s.t.Fatalf("output ended waiting for %s; saw:\n%s", what, s.dump())
			}
			s.seen = append(s.seen, l)
			if ok(l) {
				return l
			}
		case <-deadline:
			s.t.Fatalf("no %s within a minute; saw:\n%s", what, s.dump())
		}
	}
}

// rest reads the output to its end.
func (s *streamSession) rest() {
	for l := range s.lines {
		s.seen = append(s.seen, l)
	}
}

func (s *streamSession) dump() string {
	var b strings.Builder
	for _, l := range s.seen {
		b.WriteString(l.raw + "\n")
	}
	return b.String()
}

func (s *streamSession) count(typ string) int {
	n := 0
	for _, l := range s.seen {
		if l.Type == typ && l.ParentID == "" {
			n++
		}
	}
	return n
}

func userLine(text string) string {
	b, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
	return string(b)
}

func isType(typ string) func(streamLine) bool {
	return func(l streamLine) bool { return l.Type == typ && l.ParentID == "" }
}

// TestStreamInputFromOutside: `run --input-format stream-json` holds one
// conversation over stdin: each user message is a turn of the same
// session, questions and permission requests are answered by lines that
// name their call, and a bad line is an error event, not the end.
func TestStreamInputFromOutside(t *testing.T) {
	t.Parallel()
	t.Run("two user messages, one session", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("Paris."), finalAnswer("About 2.1 million."))
		s := startStream(t, sb, srv)
		// The second message in Claude Code's block form; stdin closes
		// while the first turn runs, which still finishes both.
		s.send(userLine("What is the capital of France?"),
			`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"How many people live there?"}]}}`)
		s.stdin.Close()
		s.rest()
		if code := s.wait(); code != 0 {
			t.Fatalf("exit code: got %d, want 0\n%s", code, s.dump())
		}
		if n := s.count("completed"); n != 2 {
			t.Fatalf("completed events: got %d, want 2\n%s", n, s.dump())
		}
		var ids []string
		for _, l := range s.seen {
			if l.Type == "completed" {
				ids = append(ids, l.SessionID)
			}
		}
		if ids[0] == "" || ids[0] != ids[1] {
			t.Errorf("session ids of the two turns: got %q, want one id twice", ids)
		}
		if files := sb.sessions(); len(files) != 1 {
			t.Errorf("session files: got %d, want 1", len(files))
		}
		reqs := srv.Requests()
		if len(reqs) != 2 {
			t.Fatalf("model calls: got %d, want 2", len(reqs))
		}
		second := string(reqs[1].Body)
		for _, want := range []string{"What is the capital of France?", "Paris.", "How many people live there?"} {
			if !strings.Contains(second, want) {
				t.Errorf("second request lacks %q (the first turn's history and the new message):\n%s", want, second)
			}
		}
	})
	t.Run("malformed lines are error events", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
		s := startStream(t, sb, srv)
		s.send(`this is not JSON`, `{"type":"user"}`, `{"type":"telepathy"}`, `{"type":"permission","id":"nope","decision":"allow_once"}`, userLine("hello"))
		s.stdin.Close()
		s.rest()
		if code := s.wait(); code != 0 {
			t.Fatalf("exit code: got %d, want 0\n%s", code, s.dump())
		}
		var errs []streamLine
		for _, l := range s.seen {
			if l.Type == "error" {
				errs = append(errs, l)
			}
		}
		if len(errs) != 4 {
			t.Fatalf("error events: got %d, want 4\n%s", len(errs), s.dump())
		}
		for i, want := range []string{"JSON", "message", "telepathy", "nope"} {
			if errs[i].Error == nil || errs[i].Line != i+1 || !strings.Contains(errs[i].Error.Message, want) {
				t.Errorf("error event %d: got %s, want line %d naming %q", i, errs[i].raw, i+1, want)
			}
		}
		if n := s.count("completed"); n != 1 {
			t.Errorf("completed events: got %d, want 1 (the good message still runs)\n%s", n, s.dump())
		}
	})
	t.Run("a permission request answered by a line", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, toolCall("write_file", `{"path":"note.txt","content":"hi"}`), finalAnswer("Wrote it."))
		s := startStream(t, sb, srv, "--permission", "ask")
		s.send(userLine("write a note"))
		req := s.next("a permission_request", isType("permission_request"))
		if req.Call == nil || req.Call.ID == "" {
			t.Fatalf("permission_request without a call id: %s", req.raw)
		}
		s.send(`{"type":"permission","id":"` + req.Call.ID + `","decision":"allow_once"}`)
		s.next("the turn's end", isType("completed"))
		s.stdin.Close()
		s.rest()
		if code := s.wait(); code != 0 {
			t.Fatalf("exit code: got %d, want 0\n%s", code, s.dump())
		}
		if b, err := os.ReadFile(sb.work + "/note.txt"); err != nil || string(b) != "hi" {
			t.Errorf("note.txt: got %q, %v; want the allowed write", b, err)
		}
	})
	t.Run("allow_always holds for the later turns", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI,
			toolCall("write_file", `{"path":"a.txt","content":"a"}`), finalAnswer("Wrote a."),
			toolCall("write_file", `{"path":"b.txt","content":"b"}`), finalAnswer("Wrote b."))
		s := startStream(t, sb, srv, "--permission", "ask")
		s.send(userLine("write a"))
		req := s.next("a permission_request", isType("permission_request"))
		s.send(`{"type":"permission","id":"` + req.Call.ID + `","decision":"allow_always","rule":"write_file"}`)
		s.next("the first turn's end", isType("completed"))
		s.send(userLine("write b"))
		s.next("the second turn's end", isType("completed"))
		s.stdin.Close()
		s.rest()
		if code := s.wait(); code != 0 {
			t.Fatalf("exit code: got %d, want 0\n%s", code, s.dump())
		}
		if n := s.count("permission_request"); n != 1 {
			t.Errorf("permission requests: got %d, want 1 (the rule allowed always covers the second write)\n%s", n, s.dump())
		}
		for _, f := range []string{"a.txt", "b.txt"} {
			if _, err := os.Stat(sb.work + "/" + f); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
	})
	t.Run("stdin ends while a permission request waits", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, toolCall("write_file", `{"path":"note.txt","content":"hi"}`), finalAnswer("I could not write it."))
		s := startStream(t, sb, srv, "--permission", "ask")
		s.send(userLine("write a note"))
		s.next("a permission_request", isType("permission_request"))
		s.stdin.Close()
		s.rest()
		if code := s.wait(); code != 0 {
			t.Fatalf("exit code: got %d, want 0 (the turn finishes without the write)\n%s", code, s.dump())
		}
		if s.count("completed") != 1 {
			t.Errorf("want the turn to complete:\n%s", s.dump())
		}
		if _, err := os.Stat(sb.work + "/note.txt"); err == nil {
			t.Errorf("note.txt was written although nobody allowed it")
		}
		reqs := srv.Requests()
		if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "the input ended") {
			t.Errorf("the second request should tell the model the call was denied because the input ended")
		}
	})
	t.Run("a question answered by a line", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", askArgs), finalAnswer("Bonjour!"))
		s := startStream(t, sb, srv)
		s.send(userLine("greet me"))
		q := s.next("a question", isType("question"))
		if q.Call == nil || q.Call.ID == "" {
			t.Fatalf("question without a call id: %s", q.raw)
		}
		s.send(`{"type":"answer","id":"` + q.Call.ID + `","answers":{"lang":"fr"}}`)
		s.next("the turn's end", isType("completed"))
		s.stdin.Close()
		s.rest()
		if code := s.wait(); code != 0 {
			t.Fatalf("exit code: got %d, want 0\n%s", code, s.dump())
		}
		reqs := srv.Requests()
		if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), `\"lang\":\"fr\"`) {
			t.Errorf("the second request should hold the answer lang=fr; got %d requests", len(reqs))
		}
	})
	t.Run("stdin ends while a question waits", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", askArgs), finalAnswer("never"))
		s := startStream(t, sb, srv)
		s.send(userLine("greet me"))
		s.next("a question", isType("question"))
		s.stdin.Close()
		s.rest()
		if code := s.wait(); code != 130 {
			t.Fatalf("exit code: got %d, want 130 (the turn is cancelled)\n%s", code, s.dump())
		}
		if s.count("cancelled") != 1 {
			t.Errorf("want the turn to end cancelled:\n%s", s.dump())
		}
		if files := sb.sessions(); len(files) != 1 {
			t.Errorf("session files: got %d, want the conversation saved", len(files))
		}
	})
	t.Run("needs -o stream-json", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("never"))
		o := openaiRun(sb, srv, "--input-format", "stream-json")
		o.want(t, 2)
		if !strings.Contains(o.stderr, "-o stream-json") {
			t.Errorf("stderr: got %q, want it to say -o stream-json is needed", o.stderr)
		}
		o = openaiRun(sb, srv, "--input-format", "stream-json", "-o", "stream-json", "-p", "hi")
		o.want(t, 2)
		if !strings.Contains(o.stderr, "stdin") {
			t.Errorf("stderr: got %q, want it to say the prompts come from stdin", o.stderr)
		}
	})
}
