package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/runcode"
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

const writeProgram = `
r = write_file(path="x.txt", content="yes")
print("refused: " + r.error if failed(r) else "written")
`

// TestRunCodeInnerCallsArePermitted: a write from inside a program meets
// the run's permission policy like a direct one: mode read and deny rules
// refuse it, ask mode puts it to the Approver with the program's call as
// its parent, and the program sees the refusal and its reason.
func TestRunCodeInnerCallsArePermitted(t *testing.T) {
	cases := []struct {
		name     string
		mode     engine.Mode
		deny     string
		decision engine.DecisionAction
		want     string // in the program's stdout
		written  bool
		asked    bool
	}{
		{name: "mode read", mode: engine.ModeRead, want: "refused: permission denied: this run is read-only"},
		{name: "deny rule", mode: engine.ModeAuto, deny: "write_file(path=x.txt)", want: "refused: permission denied: the rule deny write_file(path=x.txt)"},
		{name: "ask, allowed", mode: engine.ModeAsk, decision: engine.AllowOnce, want: "written", written: true, asked: true},
		{name: "ask, denied", mode: engine.ModeAsk, decision: engine.Deny, want: "their reason: not now", asked: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, call(engine.RunCodeTool, runCode(writeProgram)), answer("done"))
			req := h.request("try")
			req.Permission.Mode = tc.mode
			if tc.deny != "" {
				rule, err := engine.ParseRule(engine.RuleDeny, tc.deny)
				if err != nil {
					t.Fatal(err)
				}
				req.Permission.Rules = []engine.Rule{rule}
			}
			var asked []engine.PermissionRequest
			req.Permission.Approver = engine.ApproverFunc(func(_ context.Context, pr engine.PermissionRequest) (engine.Decision, error) {
				asked = append(asked, pr)
				return engine.Decision{Action: tc.decision, Reason: "not now"}, nil
			})
			var log eventLog
			res, err := h.rt.CompleteWith(t.Context(), req, log.add)
			if err != nil || res.Status != engine.StatusCompleted {
				t.Fatal(err, res.Status, res.Error)
			}
			if out := toolResultFor(res.Messages, engine.RunCodeTool); !strings.Contains(out, tc.want) {
				t.Errorf("program output %s, want it to hold %q", out, tc.want)
			}
			_, statErr := os.Stat(filepath.Join(h.dir, "x.txt"))
			if written := statErr == nil; written != tc.written {
				t.Errorf("x.txt written = %v, want %v", written, tc.written)
			}
			if got := len(asked) == 1 && asked[0].Tool == "write_file"; got != tc.asked {
				t.Errorf("asked about the write: %v (%+v), want %v", got, asked, tc.asked)
			}
			programID := res.Messages[1].ToolCalls[0].ID
			for _, ev := range log.evs {
				if ev.Call != nil && ev.Call.Name == "write_file" && ev.Call.ParentID != programID {
					t.Errorf("%s event of the inner write has parent %q, want %q", ev.Type, ev.Call.ParentID, programID)
				}
			}
		})
	}
}

// TestRunCodeEvidence: a successful write inside a program is evidence of
// work, so a plain-text reply after it ends the run under the evidence
// finish policy; a program that only read, or whose write was refused,
// is not, and the model is told to finish with final_answer.
func TestRunCodeEvidence(t *testing.T) {
	cases := []struct {
		name    string
		mode    engine.Mode
		program string
		ends    bool
	}{
		{"a write", engine.ModeAuto, writeProgram, true},
		{"reads only", engine.ModeAuto, `print(path_exists(path="x.txt"))`, false},
		{"a refused write", engine.ModeRead, writeProgram, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, call(engine.RunCodeTool, runCode(tc.program)), say("All done."), answer("finished"))
			req := h.request("go")
			req.Permission.Mode = tc.mode
			res := h.complete(req)
			if res.Status != engine.StatusCompleted {
				t.Fatalf("status %s %+v", res.Status, res.Error)
			}
			if ended := res.Output == "All done."; ended != tc.ends {
				t.Errorf("the text reply ended the run: %v (output %q after %d calls), want %v", ended, res.Output, res.Iterations, tc.ends)
			}
		})
	}
}

// TestRunCodeStopsWhenTheRunIsCancelled: cancelling the run ends a
// running program at once, not at its time limit.
func TestRunCodeStopsWhenTheRunIsCancelled(t *testing.T) {
	sp := scripted.New()
	sp.Register("test", &scripted.Script{Turns: []scripted.Turn{call(engine.RunCodeTool, runCode("started()\nwhile True:\n    pass\n")), answer("never")}})
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": sp},
		RunCode: runcode.Options{DefaultTimeout: time.Minute, MaxSteps: 1 << 62}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	running := make(chan struct{})
	started := engine.Tool{Name: "started", Description: "says the program runs", Kind: tools.KindRead,
		Schema: json.RawMessage(`{"type":"object"}`),
		Execute: func(context.Context, json.RawMessage) (tools.Result, error) {
			close(running)
			return tools.Text("ok"), nil
		}}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req := engine.Request{Provider: "fake", Model: "test", WorkDir: t.TempDir(), BuiltIns: []string{engine.RunCodeTool},
		Tools: []engine.Tool{started}, Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "loop")}}
	done := make(chan engine.Result, 1)
	go func() {
		res, _ := rt.Complete(ctx, req)
		done <- res
	}()
	<-running
	cancel()
	select {
	case res := <-done:
		if res.Status != engine.StatusCancelled {
			t.Errorf("status %s, want cancelled", res.Status)
		}
		if out := toolResultFor(res.Messages, engine.RunCodeTool); !strings.Contains(out, "the run was cancelled") {
			t.Errorf("the program's result %q should say the run was cancelled", out)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("cancelling the run did not stop the program")
	}
}

// TestRunCodeAfterSourcesChange: when a source's tools change mid-run
// (an MCP server's list_changed), run_code is rebuilt over the new
// surface: it still runs, and its programs can call the new tool.
func TestRunCodeAfterSourcesChange(t *testing.T) {
	src := &fakeSource{}
	later := sourceTool("mcp_later", "mcp:test", func(context.Context, json.RawMessage) (tools.Result, error) {
		return tools.Text("from later"), nil
	})
	first := sourceTool("mcp_first", "mcp:test", func(context.Context, json.RawMessage) (tools.Result, error) {
		src.set([]tools.Tool{later}, "")
		return tools.Text("changed"), nil
	})
	src.set([]tools.Tool{first}, "")
	h := newSourceHarness(t, []engine.ToolSource{src},
		call("mcp_first", `{}`), call(engine.RunCodeTool, runCode(`print(mcp_later())`)), answer("done"))
	req := h.request("go")
	req.BuiltIns = []string{engine.RunCodeTool}
	res := h.complete(req)
	if res.Status != engine.StatusCompleted {
		t.Fatalf("status %s %+v, want completed", res.Status, res.Error)
	}
	if out := toolResultFor(res.Messages, engine.RunCodeTool); !strings.Contains(out, "from later") {
		t.Errorf("run_code after the change returned %q, want the new tool's output", out)
	}
	if d := h.rec.request(2).Tools; !strings.Contains(specDescription(d, engine.RunCodeTool), "mcp_later()") {
		t.Errorf("run_code's description after the change does not offer mcp_later")
	}
}

func specDescription(specs []providers.ToolSpec, name string) string {
	for _, s := range specs {
		if s.Name == name {
			return s.Description
		}
	}
	return ""
}

// TestRunCodeInnerCallsAreValidated: an inner call's arguments meet the
// tool's schema as a direct call's do, and the program can tell.
func TestRunCodeInnerCallsAreValidated(t *testing.T) {
	h := newHarness(t, call(engine.RunCodeTool, runCode(`
r = read_file(path="a.txt", lines=3)
print("refused:", r.error if failed(r) else "no")
`)), answer("done"))
	res := h.complete(h.request("go"))
	if out := toolResultFor(res.Messages, engine.RunCodeTool); !strings.Contains(out, "refused:") || !strings.Contains(out, "lines") {
		t.Errorf("the program's output %s should hold the validation error naming lines", out)
	}
}
