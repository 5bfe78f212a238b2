package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools/runcode"
)

// lines is a code runtime for a language of one call per line: a name,
// then optionally its arguments as a JSON object. A tool's function prints
// "name: result" or "name failed: reason"; a global prints its value, or
// what it returns when it is a function. The program's value is the
// number of lines it ran.
type lines struct{}

func (lines) Language() string { return "Lines" }

func (lines) Describe(env runcode.Env) string {
	var fns []string
	for _, f := range env.Functions {
		fns = append(fns, f.Name)
	}
	return "Run a Lines program: one call per line, a name then its JSON arguments. Functions: " + strings.Join(fns, ", ")
}

func (lines) Run(ctx context.Context, code string, env runcode.Env) (runcode.Result, error) {
	var out strings.Builder
	ran := 0
	for i, line := range strings.Split(code, "\n") {
		name, args, _ := strings.Cut(strings.TrimSpace(line), " ")
		if name == "" {
			continue
		}
		if args == "" {
			args = "{}"
		}
		res, err := lineCall(ctx, env, name, json.RawMessage(args))
		if err != nil {
			return runcode.Result{Stdout: out.String(), Value: ran, Err: &runcode.Error{Line: i + 1, Msg: err.Error()}}, nil
		}
		out.WriteString(res + "\n")
		ran++
	}
	return runcode.Result{Stdout: out.String(), Value: ran}, nil
}

func lineCall(ctx context.Context, env runcode.Env, name string, args json.RawMessage) (string, error) {
	for _, f := range env.Functions {
		if f.Name == name {
			if r := f.Call(ctx, args); r.IsError {
				return name + " failed: " + r.Content, nil
			} else {
				return name + ": " + r.Content, nil
			}
		}
	}
	g, ok := env.Globals[name]
	if !ok {
		return "", fmt.Errorf("unknown name %s", name)
	}
	if fn, ok := g.(runcode.Func); ok {
		v, err := fn(ctx, args)
		if err != nil {
			return "", err
		}
		g = v
	}
	b, err := json.Marshal(g)
	return name + " = " + string(b), err
}

// newCodeHarness is newHarness with run_code's options in the Config.
func newCodeHarness(t *testing.T, opts runcode.Options, turns ...scripted.Turn) *harness {
	t.Helper()
	sp := scripted.New()
	sp.Register("test", &scripted.Script{Turns: turns})
	rec := &recorder{p: sp}
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": rec}, RunCode: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return &harness{t: t, rt: rt, rec: rec, dir: t.TempDir()}
}

func codeResult(t *testing.T, msgs []engine.Message) (out struct {
	Stdout     string `json:"stdout"`
	ReturnCode int    `json:"return_code"`
	Value      any    `json:"value"`
	Error      string `json:"error"`
}) {
	t.Helper()
	text := toolResultFor(msgs, engine.RunCodeTool)
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("run_code's result %q: %v", text, err)
	}
	return out
}

// TestCodeRuntimeRunsInTheLoop: a runtime given in Config.RunCode gets the
// model's run_code call; the model saw run_code described by it; its
// functions call the run's tools, reported with the run_code call as
// parent; the host's globals are visible; its stdout and value come back.
func TestCodeRuntimeRunsInTheLoop(t *testing.T) {
	program := "read_file {\"path\":\"a.txt\"}\nteam\nscore {\"n\":4}"
	h := newCodeHarness(t, runcode.Options{Runtime: lines{}, Globals: map[string]any{
		"team": map[string]string{"name": "red"},
		"score": runcode.Func(func(_ context.Context, raw json.RawMessage) (any, error) {
			var in struct{ N int }
			err := json.Unmarshal(raw, &in)
			return in.N * 10, err
		}),
	}}, call(engine.RunCodeTool, runCode(program)), answer("done"))
	if err := os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	req := h.request("go")
	req.BuiltIns = []string{engine.RunCodeTool, "read_file"}
	var log eventLog
	res, err := h.rt.CompleteWith(t.Context(), req, log.add)
	if err != nil || res.Status != engine.StatusCompleted {
		t.Fatal(err, res.Status, res.Error)
	}
	out := codeResult(t, res.Messages)
	if tail := "team = {\"name\":\"red\"}\nscore = 40\n"; !strings.HasPrefix(out.Stdout, "read_file: ") || !strings.Contains(out.Stdout, "alpha") ||
		!strings.HasSuffix(out.Stdout, tail) || out.Error != "" || out.Value != float64(3) {
		t.Errorf("run_code's result %+v, want stdout with alpha read, then %q, and value 3", out, tail)
	}
	var spec providers.ToolSpec
	for _, s := range h.rec.request(0).Tools {
		if s.Name == engine.RunCodeTool {
			spec = s
		}
	}
	if spec.Description != "Run a Lines program: one call per line, a name then its JSON arguments. Functions: read_file" {
		t.Errorf("the model saw run_code described as %q, want the runtime's description", spec.Description)
	}
	if schema, _ := json.Marshal(spec.Parameters); !strings.Contains(string(schema), "The Lines program") {
		t.Errorf("run_code's schema %s does not name the runtime's language", schema)
	}
	programID := res.Messages[1].ToolCalls[0].ID
	reads := 0
	for _, ev := range log.evs {
		if ev.Type == engine.EventToolResult && ev.Call.Name == "read_file" {
			reads++
			if ev.Call.ParentID != programID {
				t.Errorf("the inner read has parent %q, want the run_code call %q", ev.Call.ParentID, programID)
			}
		}
	}
	if reads != 1 {
		t.Errorf("inner read_file results: %d, want 1", reads)
	}
}

// TestCodeRuntimeCallsArePermitted: the calls of a host's runtime meet the
// run's permission policy as a direct call does; a refused one stays
// refused, and the program sees why.
func TestCodeRuntimeCallsArePermitted(t *testing.T) {
	cases := []struct {
		name     string
		mode     engine.Mode
		deny     string
		decision engine.DecisionAction
		want     string
		written  bool
	}{
		{name: "mode read", mode: engine.ModeRead, want: "write_file failed: permission denied: this run is read-only"},
		{name: "deny rule", mode: engine.ModeAuto, deny: "write_file(path=x.txt)", want: "write_file failed: permission denied: the rule deny write_file(path=x.txt)"},
		{name: "ask, denied", mode: engine.ModeAsk, decision: engine.Deny, want: "their reason: not now"},
		{name: "ask, allowed", mode: engine.ModeAsk, decision: engine.AllowOnce, want: "write_file: ", written: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newCodeHarness(t, runcode.Options{Runtime: lines{}},
				call(engine.RunCodeTool, runCode(`write_file {"path":"x.txt","content":"yes"}`)), answer("done"))
			req := h.request("try")
			req.Permission.Mode = tc.mode
			if tc.deny != "" {
				rule, err := engine.ParseRule(engine.RuleDeny, tc.deny)
				if err != nil {
					t.Fatal(err)
				}
				req.Permission.Rules = []engine.Rule{rule}
			}
			req.Permission.Approver = engine.ApproverFunc(func(context.Context, engine.PermissionRequest) (engine.Decision, error) {
				return engine.Decision{Action: tc.decision, Reason: "not now"}, nil
			})
			res := h.complete(req)
			if res.Status != engine.StatusCompleted {
				t.Fatal(res.Status, res.Error)
			}
			if out := codeResult(t, res.Messages); !strings.Contains(out.Stdout, tc.want) {
				t.Errorf("program output %q, want it to hold %q", out.Stdout, tc.want)
			}
			_, statErr := os.Stat(filepath.Join(h.dir, "x.txt"))
			if written := statErr == nil; written != tc.written {
				t.Errorf("x.txt written = %v, want %v", written, tc.written)
			}
		})
	}
}

// TestCodeRuntimeErrorNamesTheLine: a program the runtime stops reaches
// the model as a failed run_code with the line.
func TestCodeRuntimeErrorNamesTheLine(t *testing.T) {
	h := newCodeHarness(t, runcode.Options{Runtime: lines{}, Globals: map[string]any{"team": "red"}},
		call(engine.RunCodeTool, runCode("team\nnope")), answer("done"))
	res := h.complete(h.request("go"))
	out := codeResult(t, res.Messages)
	if out.ReturnCode != 1 || out.Error != "line 2: unknown name nope" || out.Stdout != "team = \"red\"\n" {
		t.Errorf("run_code's result %+v, want return code 1, the error on line 2 and the first line's output", out)
	}
}

// TestRunCodeDefaultsToStarlark: with no runtime in the Config, run_code
// runs Starlark and says so.
func TestRunCodeDefaultsToStarlark(t *testing.T) {
	h := newHarness(t)
	req := h.request("")
	req.BuiltIns = []string{engine.RunCodeTool}
	infos, err := h.rt.ResolveTools(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range infos {
		if ti.Name != engine.RunCodeTool {
			continue
		}
		schema, _ := json.Marshal(ti.Schema)
		if !strings.HasPrefix(ti.Description, "Run a Starlark program") || !strings.Contains(string(schema), "The Starlark program") {
			t.Errorf("default run_code: %q, schema %s; want Starlark", ti.Description, schema)
		}
		return
	}
	t.Fatal("no run_code in the surface")
}

// TestCodeRuntimeBadGlobal: a global no program could name is a
// configuration error.
func TestCodeRuntimeBadGlobal(t *testing.T) {
	_, err := engine.New(engine.Config{RunCode: runcode.Options{Globals: map[string]any{"max-items": 3}}})
	if !errors.Is(err, engine.ErrInvalidRequest) || !strings.Contains(err.Error(), "max-items") {
		t.Errorf("New with a global named max-items: %v, want an invalid-request error naming it", err)
	}
}
