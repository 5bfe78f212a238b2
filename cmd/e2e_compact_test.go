package cmd_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestLongSessionIsCompacted: a session continued with large piped inputs
// under a small context_window keeps every request inside the window,
// continues from the model's summary, and still shows its whole history.
func TestLongSessionIsCompacted(t *testing.T) {
	t.Parallel()
	const window = 5_000 // tokens
	sb := newSandbox(t)
	sb.write(".llmrt/config.json", fmt.Sprintf(`{"context_window": %d}`, window))
	// Claude Code's PreCompact hook, matched on its trigger, runs before
	// the compaction the run makes on its own.
	user, _ := json.Marshal(map[string]any{"hooks": map[string]any{
		"PreCompact": commandHook("auto", `cat >> "$HOME/precompact.jsonl"`)}})
	if err := os.MkdirAll(filepath.Join(sb.home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sb.home, ".claude", "settings.json"), user, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI,
		finalAnswer("noted part 1"),
		finalAnswer("noted part 2"),
		text("SUMMARY-7731: the user sent parts 1 and 2 of a log"),
		finalAnswer("noted part 3"),
		finalAnswer("noted part 4"))
	part := func(n int) string {
		return strings.Repeat(fmt.Sprintf("log line of part %d ", n), 300) // about 6 KB
	}
	run := func(n int, extra ...string) outcome {
		args := append([]string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m",
			"--tools", "none", "-o", "json", "-p", fmt.Sprintf("here is part %d", n)}, extra...)
		return sb.run(cli{args: args, env: map[string]string{"OPENAI_API_KEY": "k"}, stdin: strings.NewReader(part(n))})
	}
	run(1).want(t, 0)
	for n := 2; n <= 4; n++ {
		o := run(n, "--continue")
		if o.code != 0 {
			t.Fatalf("run %d: exit %d\n%s\n%s", n, o.code, o.stdout, o.stderr)
		}
		if n == 3 && !strings.Contains(o.stdout, "context_compacted") {
			t.Errorf("run 3 should report the compaction:\n%s", o.stdout)
		}
	}
	fired, _ := os.ReadFile(filepath.Join(sb.home, "precompact.jsonl"))
	if n := strings.Count(string(fired), `"hook_event_name":"PreCompact"`); n != 1 || !strings.Contains(string(fired), `"trigger":"auto"`) {
		t.Errorf("the PreCompact hook should run once, with trigger auto: got %q", fired)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("want 5 model calls (4 runs and one summary), got %d", len(reqs))
	}
	for i, r := range reqs {
		if n := len(r.Body) / 4; n > window {
			t.Errorf("request %d is about %d tokens, over the window of %d", i+1, n, window)
		}
	}
	summaryReq := string(reqs[2].Body)
	if !contains(summaryReq, "compacting a conversation") || !contains(summaryReq, "part 1") {
		t.Errorf("the third call should ask for a summary of the older parts: %.300s", summaryReq)
	}
	for i, r := range reqs[3:] {
		body := string(r.Body)
		if !contains(body, "SUMMARY-7731") || contains(body, "log line of part 1") {
			t.Errorf("request %d should continue from the summary without part 1", i+4)
		}
	}
	files := sb.sessions()
	if len(files) != 1 {
		t.Fatalf("want one session, got %v", files)
	}
	data, _ := os.ReadFile(files[0])
	if !contains(string(data), `"type":"compacted"`) {
		t.Error("the session should record the compaction")
	}
	id := strings.TrimSuffix(files[0][strings.LastIndexByte(files[0], '/')+1:], ".jsonl")
	show := sb.run(cli{args: []string{"sessions", "show", id}})
	show.want(t, 0)
	for _, want := range []string{"here is part 1", "here is part 4", "noted part 4"} {
		if !contains(show.stdout, want) {
			t.Errorf("sessions show should keep the whole history, missing %q", want)
		}
	}
}
