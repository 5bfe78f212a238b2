package runcode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/runcode"
)

// recording is a Runtime that keeps what it was given and returns a
// result it was told to.
type recording struct {
	mu        sync.Mutex
	described []runcode.Env
	code      string
	env       runcode.Env
	deadline  time.Duration // from Run's start to its context's deadline

	run func(ctx context.Context, env runcode.Env) (runcode.Result, error)
}

func (r *recording) Language() string { return "Lines" }

func (r *recording) Describe(env runcode.Env) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.described = append(r.described, env)
	return "Run a Lines program."
}

func (r *recording) Run(ctx context.Context, code string, env runcode.Env) (runcode.Result, error) {
	r.mu.Lock()
	r.code, r.env = code, env
	if d, ok := ctx.Deadline(); ok {
		r.deadline = time.Until(d)
	}
	r.mu.Unlock()
	return r.run(ctx, env)
}

func names(fns []runcode.Function) []string {
	var out []string
	for _, f := range fns {
		out = append(out, f.Name+"="+f.Tool)
	}
	return out
}

func echoTool(name string) tools.Tool {
	return tools.Tool{Name: name, Description: "Echoes. More text.", Kind: tools.KindRead,
		Schema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`),
		Execute: func(_ context.Context, raw json.RawMessage) (tools.Result, error) {
			return tools.Text(name + ":" + string(raw)), nil
		}}
}

// inRun returns ctx with a Caller that runs surface's tools directly and
// records the calls.
func inRun(ctx context.Context, surface []tools.Tool, calls *[]string) context.Context {
	return tools.WithCaller(ctx, func(ctx context.Context, name string, args json.RawMessage) tools.Result {
		*calls = append(*calls, name+string(args))
		for _, t := range surface {
			if t.Name == name {
				r, _ := t.Execute(ctx, args)
				return r
			}
		}
		return tools.Errorf("unknown tool %s", name)
	})
}

type wire struct {
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	ReturnCode int    `json:"return_code"`
	Value      any    `json:"value"`
	Error      string `json:"error"`
}

func execute(t *testing.T, ctx context.Context, tool tools.Tool, args string) (wire, tools.Result) {
	t.Helper()
	r, err := tool.Execute(ctx, json.RawMessage(args))
	if err != nil {
		t.Fatalf("Execute(%s): %v", args, err)
	}
	var w wire
	if err := json.Unmarshal([]byte(r.Content), &w); err != nil {
		t.Fatalf("Execute(%s) = %q: %v", args, r.Content, err)
	}
	return w, r
}

// TestCustomRuntime: run_code with a host's runtime describes itself with
// the runtime's words and language, and hands the runtime the program, the
// tools as functions that call through the run, the host's globals (a
// tool's function winning over a global of its name) and the time limit;
// the runtime's result reaches the model as run_code's JSON.
func TestCustomRuntime(t *testing.T) {
	surface := []tools.Tool{echoTool("echo"), echoTool("mcp.search"), {Name: "host_owned", Kind: tools.KindRead}}
	rec := &recording{run: func(ctx context.Context, env runcode.Env) (runcode.Result, error) {
		r := env.Functions[0].Call(ctx, json.RawMessage(`{"x":"hi"}`))
		return runcode.Result{Stdout: r.Content + "\n", Value: map[string]int{"calls": 1},
			Err: &runcode.Error{Line: 2, Msg: "stopped here"}}, nil
	}}
	globals := map[string]any{"limit": 3, "echo": "a global the tool hides"}
	tool := runcode.Tool(surface, runcode.Options{Runtime: rec, Globals: globals})

	if tool.Description != "Run a Lines program." {
		t.Errorf("description = %q, want the runtime's", tool.Description)
	}
	if !strings.Contains(string(tool.Schema), `"The Lines program"`) {
		t.Errorf("schema = %s, want the code described as a Lines program", tool.Schema)
	}
	if len(rec.described) != 1 {
		t.Fatalf("Describe called %d times, want 1", len(rec.described))
	}
	d := rec.described[0]
	if got, want := names(d.Functions), []string{"echo=echo", "mcp_search=mcp.search"}; !slices.Equal(got, want) {
		t.Errorf("described functions = %v, want %v", got, want)
	}
	if d.Timeout != 30*time.Second {
		t.Errorf("described timeout = %s, want the default 30s", d.Timeout)
	}

	var calls []string
	w, r := execute(t, inRun(t.Context(), surface, &calls), tool, `{"code":"echo x=hi\nboom","timeout_ms":5000}`)
	if rec.code != "echo x=hi\nboom" {
		t.Errorf("runtime got code %q", rec.code)
	}
	if got, want := names(rec.env.Functions), []string{"echo=echo", "mcp_search=mcp.search"}; !slices.Equal(got, want) {
		t.Errorf("run's functions = %v, want %v", got, want)
	}
	if len(rec.env.Globals) != 1 || rec.env.Globals["limit"] != 3 {
		t.Errorf("run's globals = %v, want only limit (echo is the tool's)", rec.env.Globals)
	}
	if rec.env.Timeout != 5*time.Second || rec.deadline <= 4*time.Second || rec.deadline > 5*time.Second {
		t.Errorf("timeout %s, context deadline in %s; want 5s both", rec.env.Timeout, rec.deadline)
	}
	if !slices.Equal(calls, []string{`echo{"x":"hi"}`}) {
		t.Errorf("calls through the run = %v", calls)
	}
	want := wire{Stdout: `echo:{"x":"hi"}` + "\n", ReturnCode: 1, Value: map[string]any{"calls": float64(1)}, Error: "line 2: stopped here"}
	if fmt.Sprint(w) != fmt.Sprint(want) {
		t.Errorf("result = %+v, want %+v", w, want)
	}
	if !r.Failed || r.IsError {
		t.Errorf("Failed %v, IsError %v; want a failed program to be Failed, not IsError", r.Failed, r.IsError)
	}
}

// TestCustomRuntimeOutcomes: a program that runs to its end is not
// failed; a runtime that cannot run programs is an Execute error; a
// program stopped at its time limit learns why from context.Cause.
func TestCustomRuntimeOutcomes(t *testing.T) {
	cases := []struct {
		name    string
		args    string
		run     func(ctx context.Context, env runcode.Env) (runcode.Result, error)
		want    string // in the result's JSON
		execErr bool
	}{
		{name: "ok", args: `{"code":"x"}`, run: func(context.Context, runcode.Env) (runcode.Result, error) {
			return runcode.Result{Stdout: "fine"}, nil
		}, want: `{"stdout":"fine","stderr":"","return_code":0}`},
		{name: "broken", args: `{"code":"x"}`, run: func(context.Context, runcode.Env) (runcode.Result, error) {
			return runcode.Result{}, errors.New("interpreter missing")
		}, execErr: true},
		{name: "time limit", args: `{"code":"x","timeout_ms":20}`, run: func(ctx context.Context, _ runcode.Env) (runcode.Result, error) {
			<-ctx.Done()
			return runcode.Result{Err: context.Cause(ctx)}, nil
		}, want: `"error":"time limit of 20ms reached"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tool := runcode.Tool(nil, runcode.Options{Runtime: &recording{run: tc.run}})
			var calls []string
			r, err := tool.Execute(inRun(t.Context(), nil, &calls), json.RawMessage(tc.args))
			if (err != nil) != tc.execErr {
				t.Fatalf("Execute error %v, want error: %v", err, tc.execErr)
			}
			if !strings.Contains(r.Content, tc.want) {
				t.Errorf("result %s, want it to hold %s", r.Content, tc.want)
			}
		})
	}
}

// TestStarlarkIsTheDefault: without a Runtime, run_code runs Starlark.
func TestStarlarkIsTheDefault(t *testing.T) {
	tool := runcode.Tool([]tools.Tool{echoTool("echo")}, runcode.Options{})
	if lang := (runcode.Starlark{}).Language(); lang != "Starlark" {
		t.Errorf("Starlark's language = %q", lang)
	}
	if !strings.HasPrefix(tool.Description, "Run a Starlark program") || !strings.Contains(string(tool.Schema), `"The Starlark program"`) {
		t.Errorf("default run_code is not Starlark: %q, %s", tool.Description, tool.Schema)
	}
	var calls []string
	w, _ := execute(t, inRun(t.Context(), nil, &calls), tool, `{"code":"print(1 + 1)"}`)
	if w.Stdout != "2\n" || w.Error != "" {
		t.Errorf("result %+v, want stdout 2", w)
	}
}

// TestStarlarkGlobals: the host's globals are visible to Starlark
// programs: data as Starlark values, Funcs (named or not) as functions
// taking keyword arguments; a Func's error stops the program at its line;
// a tool's function wins over a global of its name; the description lists
// them.
func TestStarlarkGlobals(t *testing.T) {
	double := runcode.Func(func(_ context.Context, raw json.RawMessage) (any, error) {
		var in struct{ N int }
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, err
		}
		if in.N < 0 {
			return nil, errors.New("negative")
		}
		return map[string]int{"twice": 2 * in.N}, nil
	})
	globals := map[string]any{
		"config": map[string]any{"teams": []string{"red", "blue"}, "size": 2},
		"double": double,
		"shout": func(_ context.Context, raw json.RawMessage) (any, error) {
			return strings.ToUpper(string(raw)), nil
		},
		"echo":     "hidden by the tool",
		"greeting": starlark.String("hi"),
		"len":      "left out: Starlark's own",
	}
	surface := []tools.Tool{echoTool("echo")}
	tool := runcode.Tool(surface, runcode.Options{Globals: globals})
	for _, want := range []string{"config", "double()", "shout()"} {
		if !strings.Contains(tool.Description, want) {
			t.Errorf("description lacks the global %q:\n%s", want, tool.Description)
		}
	}
	var calls []string
	ctx := inRun(t.Context(), surface, &calls)
	w, _ := execute(t, ctx, tool, `{"code":"print(config[\"teams\"][1], config[\"size\"] + 1)\nprint(double(n=21)[\"twice\"])\nprint(shout(a=\"x\"))\nprint(echo(x=\"y\"))\nprint(greeting, len(\"ab\"))"}`)
	if want := "blue 3\n42\n{\"A\":\"X\"}\necho:{\"x\":\"y\"}\nhi 2\n"; w.Stdout != want || w.Error != "" {
		t.Errorf("stdout %q, error %q; want %q", w.Stdout, w.Error, want)
	}
	w, _ = execute(t, ctx, tool, `{"code":"x = 1\ndouble(n=-1)\n"}`)
	if w.ReturnCode != 1 || !strings.HasPrefix(w.Error, "line 2: ") || !strings.Contains(w.Error, "negative") {
		t.Errorf("a failing global: %+v, want line 2 and its message", w)
	}
	// Programs get their own copy of the data: a change does not last.
	execute(t, ctx, tool, `{"code":"config[\"size\"] = 9"}`)
	if w, _ = execute(t, ctx, tool, `{"code":"print(config[\"size\"])"}`); w.Stdout != "2\n" {
		t.Errorf("after a program changed it, config[\"size\"] = %q, want 2", w.Stdout)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{{"limit", true}, {"_x9", true}, {"max-items", false}, {"9lives", false}, {"", false}} {
		err := runcode.Options{Globals: map[string]any{tc.name: 1}}.Validate()
		if (err == nil) != tc.ok {
			t.Errorf("a global named %q: error %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
