package engine_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

func runCode(program string) string {
	b, _ := json.Marshal(map[string]string{"code": program})
	return string(b)
}

// TestRunCodeReadsFilesInOneRoundTrip: a program lists the workspace and
// reads every file it found, all within one model call.
func TestRunCodeReadsFilesInOneRoundTrip(t *testing.T) {
	h := newHarness(t, call(engine.RunCodeTool, runCode(`
listing = list_files(path=".")
for line in listing.splitlines():
    name = line.strip()
    if name.endswith(".txt"):
        print(name, "=", read_file(path=name))
`)), answer("done"))
	for name, body := range map[string]string{"a.txt": "alpha", "b.txt": "bravo", "c.txt": "charlie"} {
		if err := os.WriteFile(filepath.Join(h.dir, name), []byte(body+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	req := h.request("read them all")
	var log eventLog
	res, err := h.rt.CompleteWith(t.Context(), req, log.add)
	if err != nil || res.Status != engine.StatusCompleted {
		t.Fatal(err, res.Status, res.Error)
	}
	out := toolResultFor(res.Messages, engine.RunCodeTool)
	for _, want := range []string{"alpha", "bravo", "charlie"} {
		if !strings.Contains(out, want) {
			t.Errorf("run_code's stdout should hold %q: %s", want, out)
		}
	}
	if n := len(h.rec.reqs); n != 2 {
		t.Errorf("want one model call for the program and one for the answer, got %d", n)
	}
	callID := res.Messages[1].ToolCalls[0].ID
	reads := 0
	for _, ev := range log.evs {
		if ev.Type == engine.EventToolResult && ev.Call.Name == "read_file" {
			reads++
			if ev.Call.ParentID != callID {
				t.Errorf("an inner read has parent %q, want the run_code call %q", ev.Call.ParentID, callID)
			}
		}
	}
	if reads != 3 {
		t.Errorf("want 3 inner read_file results, got %d", reads)
	}
}

// TestRunCodeKeepsThePermissionMode: under mode read, a write from inside
// a program is refused like a direct one, and the program can tell.
func TestRunCodeKeepsThePermissionMode(t *testing.T) {
	h := newHarness(t, call(engine.RunCodeTool, runCode(`
r = write_file(path="x.txt", content="no")
print("refused" if failed(r) else "written")
`)), answer("done"))
	req := h.request("try")
	req.Permission.Mode = engine.ModeRead
	res := h.complete(req)
	if out := toolResultFor(res.Messages, engine.RunCodeTool); !strings.Contains(out, "refused") {
		t.Errorf("the program should see the refusal: %s", out)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "x.txt")); err == nil {
		t.Error("the write happened under mode read")
	}
}
