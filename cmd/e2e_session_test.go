package cmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// TestPauseAndResume: a non-terminal run whose model asks a question exits
// 3 showing the ids; a bad answer exits 2 without touching the session; a
// good one resumes and sends the chosen option id back to the model.
func TestPauseAndResume(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", askArgs), finalAnswer("Bonjour, le monde !"))
	o := openaiRun(sb, srv, "-p", "greet the world")
	o.want(t, 3)
	for _, want := range []string{"lang", "en", "fr", "Which language", "--resume"} {
		if !contains(o.stderr, want) {
			t.Errorf("stderr should show %q:\n%s", want, o.stderr)
		}
	}
	files := sb.sessions()
	if len(files) != 1 {
		t.Fatalf("got %d session files, want 1", len(files))
	}
	id := strings.TrimSuffix(files[0][strings.LastIndex(files[0], "/")+1:], ".jsonl")
	before, _ := os.ReadFile(files[0])

	bad := openaiRun(sb, srv, "--resume", id, "--answer", "lang=de")
	bad.want(t, 2)
	if !contains(bad.stderr, `"en"`) || !contains(bad.stderr, `"fr"`) {
		t.Errorf("an invalid answer should name the valid option ids:\n%s", bad.stderr)
	}
	badQ := openaiRun(sb, srv, "--resume", id, "--answer", "color=red")
	badQ.want(t, 2)
	if !contains(badQ.stderr, `"lang"`) {
		t.Errorf("an unknown question should name the valid question ids:\n%s", badQ.stderr)
	}
	after, _ := os.ReadFile(files[0])
	if !bytes.Equal(before, after) || len(srv.Requests()) != 1 {
		t.Fatalf("invalid answers must not touch the session or call the model")
	}

	ok := openaiRun(sb, srv, "--resume", id, "--answer", "lang=fr")
	ok.want(t, 0)
	if ok.stdout != "Bonjour, le monde !\n" {
		t.Errorf("stdout: %q", ok.stdout)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !contains(string(reqs[1].Body), `{\"answers\":{\"lang\":\"fr\"}`) {
		t.Errorf("the model should receive the chosen option id: %s", reqs[len(reqs)-1].Body)
	}
	// The JSON form of a pause carries the questions.
	srv2 := fake(t, fakellm.OpenAI, toolCall("ask_user_input", askArgs))
	j := openaiRun(sb, srv2, "-o", "json", "-p", "greet")
	j.want(t, 3)
	var got struct {
		Status  string `json:"status"`
		Pending []struct {
			Tool      string `json:"tool"`
			Questions []struct {
				ID      string `json:"id"`
				Options []struct {
					ID string `json:"id"`
				} `json:"options"`
			} `json:"questions"`
		} `json:"pending"`
	}
	if err := json.Unmarshal([]byte(j.stdout), &got); err != nil || got.Status != "tool_calls" || len(got.Pending) != 1 ||
		got.Pending[0].Questions[0].ID != "lang" || got.Pending[0].Questions[0].Options[1].ID != "fr" {
		t.Errorf("json pause: %v %s", err, j.stdout)
	}
}

// TestInterruptDuringStreaming sends SIGINT while the answer streams: the
// process exits 130 within a second, the session holds the conversation so
// far, and --resume continues from it. Not parallel, as it times the stop.
func TestInterruptDuringStreaming(t *testing.T) {
	sb := newSandbox(t)
	sb.write("a.txt", "alpha\n")
	long := strings.Repeat("word ", 200)
	srv := fake(t, fakellm.OpenAI,
		toolCall("read_file", `{"path":"a.txt"}`),
		scripted.Turn{ToolCalls: finalAnswer(long).ToolCalls, ChunkDelayMS: 1000},
		finalAnswer("resumed fine"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := sb.command(ctx, cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "-p", "go"},
		env: map[string]string{"OPENAI_API_KEY": "k"}})
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The answer is streaming once its first words are on stdout; the
	// rest follows a chunk a second.
	streaming := make(chan bool, 1)
	go func() {
		n, _ := stdout.Read(make([]byte, 1))
		streaming <- n > 0
		io.Copy(io.Discard, stdout)
	}()
	select {
	case ok := <-streaming:
		if !ok {
			cmd.Wait()
			t.Fatalf("llmrt ended before the answer streamed: %s", stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the answer did not start streaming")
	}
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	took := time.Since(sent)
	code := -1
	if ee, ok := err.(interface{ ExitCode() int }); ok {
		code = ee.ExitCode()
	}
	if code != 130 {
		t.Fatalf("exit code %d, want 130 (stderr: %s)", code, stderr.String())
	}
	if took > time.Second {
		t.Errorf("exited %s after SIGINT, want within a second", took)
	}
	files := sb.sessions()
	if len(files) != 1 {
		t.Fatalf("sessions: %v", files)
	}
	data, _ := os.ReadFile(files[0])
	if !strings.Contains(string(data), "alpha") || !strings.Contains(string(data), `"status":"cancelled"`) {
		t.Errorf("the session should hold the read_file result and the cancelled end:\n%s", data)
	}
	id := strings.TrimSuffix(files[0][strings.LastIndex(files[0], "/")+1:], ".jsonl")
	o := openaiRun(sb, srv, "--resume", id)
	o.want(t, 0)
	if o.stdout != "resumed fine\n" {
		t.Errorf("resume stdout: %q", o.stdout)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if !contains(string(last.Body), "alpha") {
		t.Errorf("the resumed call should carry the earlier conversation")
	}
}

// TestKillLeavesLoadableSession kills the process with SIGKILL mid-run; the
// session file must still load.
func TestKillLeavesLoadableSession(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI,
		toolCall("list_files", `{}`),
		scripted.Turn{Text: strings.Repeat("slow ", 100), ChunkDelayMS: 1000})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := sb.command(ctx, cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "-p", "go"},
		env: map[string]string{"OPENAI_API_KEY": "k"}})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(srv.Requests()) < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	files := sb.sessions()
	if len(files) != 1 {
		t.Fatalf("sessions: %v", files)
	}
	// Tear the last line as a kill mid-write would.
	data, _ := os.ReadFile(files[0])
	os.WriteFile(files[0], data[:len(data)-5], 0o600)
	id := strings.TrimSuffix(files[0][strings.LastIndex(files[0], "/")+1:], ".jsonl")
	o := sb.run(cli{args: []string{"sessions", "show", id, "--json"}})
	o.want(t, 0)
	var s struct {
		Messages []json.RawMessage `json:"messages"`
		Warnings []string          `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(o.stdout), &s); err != nil || len(s.Messages) < 2 || len(s.Warnings) == 0 {
		t.Errorf("the session should load with its messages and a warning about the torn line: %v\n%s", err, o.stdout)
	}
}
