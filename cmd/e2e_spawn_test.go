package cmd_test

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestRunCodeFromOutside: a run_code program that reads three files shows
// three inner tool results with the program's call as parent, in one model
// round trip.
func TestRunCodeFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	for _, n := range []string{"a", "b", "c"} {
		sb.write(n+".txt", "file "+n+"\n")
	}
	prog, _ := json.Marshal(map[string]string{"code": "for n in ['a', 'b', 'c']:\n    print(read_file(path=n + '.txt'))\n"})
	srv := fake(t, fakellm.OpenAI, toolCall("run_code", string(prog)), finalAnswer("read all three"))
	o := sandboxRun(t, sb, srv, "-o", "stream-json", "-p", "read")
	o.want(t, 0)
	var programID string
	inner := 0
	sc := bufio.NewScanner(strings.NewReader(o.stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev struct {
			Type string `json:"type"`
			Call *struct {
				ID       string `json:"id"`
				Name     string `json:"name"`
				ParentID string `json:"parent_id"`
			} `json:"call"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("not JSON: %s", sc.Text())
		}
		switch {
		case ev.Type == "tool_start" && ev.Call.Name == "run_code":
			programID = ev.Call.ID
		case ev.Type == "tool_result" && ev.Call.Name == "read_file":
			inner++
			if ev.Call.ParentID == "" || ev.Call.ParentID != programID {
				t.Errorf("inner result with parent %q, want %q", ev.Call.ParentID, programID)
			}
		}
	}
	if inner != 3 {
		t.Errorf("want 3 inner read_file results, got %d:\n%s", inner, o.stdout)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("want 2 model calls (the program, the answer), got %d", n)
	}
	if last := lastRequestText(t, srv); !contains(last, "file a") || !contains(last, "file c") {
		t.Errorf("the program's output should reach the model: %s", last)
	}
}

// TestSpawnAgentFromOutside: a sub-run's answer goes to the parent model,
// stdout holds only the parent's answer, and progress shows the sub-run
// indented.
func TestSpawnAgentFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI,
		toolCall("spawn_agent", `{"task":"count the files"}`),
		finalAnswer("the child counted 0"),
		finalAnswer("parent answer"))
	o := sandboxRun(t, sb, srv, "--verbose", "-p", "delegate")
	o.want(t, 0)
	if strings.TrimSpace(o.stdout) != "parent answer" {
		t.Errorf("stdout should hold only the parent's answer, got %q", o.stdout)
	}
	if !contains(lastRequestText(t, srv), "the child counted 0") {
		t.Errorf("the parent model should get the sub-run's answer")
	}
	t.Logf("stderr:\n%s", o.stderr)
	if !contains(o.stderr, "\n  ⤷ sub-agent") && !strings.HasPrefix(o.stderr, "  ⤷ sub-agent") {
		t.Errorf("progress should show the sub-run:\n%s", o.stderr)
	}
}

// TestSpawnAgentStreamJSON: under -o stream-json every event of the
// sub-run carries the parent's run id as parent_id, the sub-run ends with
// its own terminal event, and the last line is the parent's.
func TestSpawnAgentStreamJSON(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI,
		toolCall("spawn_agent", `{"task":"look around"}`),
		toolCall("path_exists", `{"path":"."}`),
		finalAnswer("the child looked"),
		finalAnswer("parent answer"))
	o := sandboxRun(t, sb, srv, "-o", "stream-json", "-p", "delegate")
	o.want(t, 0)
	type event struct {
		Type     string `json:"type"`
		RunID    string `json:"run_id"`
		ParentID string `json:"parent_id"`
		Call     *struct {
			Name string `json:"name"`
		} `json:"call"`
	}
	var evs []event
	for _, line := range strings.Split(strings.TrimSpace(o.stdout), "\n") {
		var ev event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		evs = append(evs, ev)
	}
	parent := evs[0].RunID
	if last := evs[len(evs)-1]; last.RunID != parent || last.Type != "completed" || evs[0].ParentID != "" {
		t.Fatalf("want the parent's run_start first and its completed last, got %+v ... %+v", evs[0], last)
	}
	child := map[string]int{}
	for _, ev := range evs {
		if ev.RunID == parent {
			continue
		}
		if ev.ParentID != parent {
			t.Errorf("a sub-run's %s event has parent_id %q, want %q", ev.Type, ev.ParentID, parent)
		}
		child[ev.Type]++
		if ev.Call != nil && ev.Call.Name == "path_exists" && ev.Type == "tool_result" {
			child["path_exists"]++
		}
	}
	if child["run_start"] != 1 || child["completed"] != 1 || child["path_exists"] != 1 {
		t.Errorf("the sub-run's events: %v, want one run_start, one path_exists result and one completed", child)
	}
}
