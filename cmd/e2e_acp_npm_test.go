package cmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// acpSDK returns the npm directory holding the pinned official ACP client
// SDK, "" when the npm packages are not installed outside CI; in CI, or
// with LLMRT_CI_NPM set, a missing SDK fails the test.
func acpSDK(t *testing.T) string {
	t.Helper()
	dir := ciNPM(t)
	if dir == "" {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("@agentclientprotocol/sdk is missing from %s: run .ci/run (npm ci in .ci/npm)", dir)
	}
	return dir
}

// TestE2EACPOfficialClient drives llmrt acp with the official ACP client
// SDK (cmd/testdata/acp/client.mjs): a prompt with a tool call and a
// permission request whose write goes through the client's fs, a cancel
// while the model streams, and, in a new process, a load of the earlier
// session that then goes on.
func TestE2EACPOfficialClient(t *testing.T) {
	t.Parallel()
	npmDir := acpSDK(t)
	if npmDir == "" {
		t.Skip("the pinned npm packages are not installed; run .ci/run (npm ci in .ci/npm)")
	}
	sb := newSandbox(t)
	story := strings.Repeat("once upon a time ", 300)
	srv := fake(t, fakellm.OpenAI,
		toolCall("write_file", `{"path":"hello.txt","content":"hi\n"}`),
		finalAnswer("I wrote hello.txt."),
		// Paced at 50 ms a word, the story takes a minute: the client
		// cancels at its first word.
		scripted.Turn{Text: story, ChunkDelayMS: 50},
		finalAnswer("Still here."))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	script, err := filepath.Abs(filepath.Join("testdata", "acp", "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, filepath.Join(npmDir, "node_modules", ".bin", "node"), script, binary, sb.work, srv.URL+"/v1")
	cmd.Dir = sb.work
	cmd.Env = sb.env(map[string]string{"OPENAI_API_KEY": "sk-test", "LLMRT_CI_NPM": npmDir})
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the ACP client failed: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	var out struct {
		SessionID     string   `json:"sessionId"`
		Options       []string `json:"options"`
		Writes        []struct{ Path, Content string }
		Answer        string   `json:"answer"`
		Cancelled     string   `json:"cancelled"`
		ReplayedUser  []string `json:"replayedUser"`
		ReplayedTools []string `json:"replayedTools"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("the client's report: %v\n%s", err, stdout.String())
	}
	if want := []string{"allow_once", "allow_always", "reject_once"}; !slices.Equal(out.Options, want) {
		t.Errorf("permission options: got %v, want %v", out.Options, want)
	}
	abs := filepath.Join(sb.work, "hello.txt")
	if len(out.Writes) != 1 || out.Writes[0].Path != abs || out.Writes[0].Content != "hi\n" {
		t.Errorf("fs/write_text_file: got %+v, want one write of %q to %s", out.Writes, "hi\n", abs)
	}
	if b, err := os.ReadFile(abs); err != nil || string(b) != "hi\n" {
		t.Errorf("hello.txt on disk: got %q, %v", b, err)
	}
	if out.Answer != "I wrote hello.txt." {
		t.Errorf("answer: got %q, want %q", out.Answer, "I wrote hello.txt.")
	}
	if out.Cancelled != "cancelled" {
		t.Errorf("cancel: got %q, want cancelled", out.Cancelled)
	}
	if !slices.Contains(out.ReplayedUser, "Write hello.txt") || !slices.Contains(out.ReplayedTools, "Write hello.txt") {
		t.Errorf("session/load should replay the first prompt and its call: users %q, tools %q", out.ReplayedUser, out.ReplayedTools)
	}
	if n := len(srv.Requests()); n != 4 {
		t.Errorf("model calls: got %d, want 4 (the cancelled stream is not asked again)", n)
	}
	if last := lastRequestText(t, srv); !strings.Contains(last, "Write hello.txt") || !strings.Contains(last, "And now?") {
		t.Errorf("the loaded session should go on with its history: %s", last)
	}
}
