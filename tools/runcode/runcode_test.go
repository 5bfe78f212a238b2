package runcode

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmrt/llmrt/tools"
)

// harness builds run_code over the real built-ins of a temp workspace,
// with a Caller that runs tools directly and counts calls.
type harness struct {
	t     *testing.T
	ws    *tools.Workspace
	tool  tools.Tool
	calls atomic.Int64
	extra []tools.Tool
}

func newHarness(t *testing.T, opts Options, extra ...tools.Tool) *harness {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "gamma\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, ws: ws, extra: extra}
	h.tool = Tool(h.surface(), opts)
	return h
}

func (h *harness) surface() []tools.Tool {
	return append(tools.Builtins(h.ws, tools.Options{}), h.extra...)
}

func (h *harness) call(ctx context.Context, name string, args json.RawMessage) tools.Result {
	h.calls.Add(1)
	for _, t := range h.surface() {
		if t.Name == name {
			r, err := t.Execute(ctx, args)
			if err != nil {
				return tools.Errorf("%v", err)
			}
			return r
		}
	}
	return tools.Errorf("unknown tool %s", name)
}

func (h *harness) run(ctx context.Context, code string, timeoutMS int) result {
	h.t.Helper()
	raw, _ := json.Marshal(args{Code: code, TimeoutMS: timeoutMS})
	r, err := h.tool.Execute(tools.WithCaller(ctx, h.call), raw)
	if err != nil {
		h.t.Fatalf("Execute: %v", err)
	}
	var res result
	if err := json.Unmarshal([]byte(r.Content), &res); err != nil {
		h.t.Fatalf("result %q: %v", r.Content, err)
	}
	if (res.Error != "") != r.Failed {
		h.t.Errorf("Failed = %v but error = %q", r.Failed, res.Error)
	}
	return res
}

func TestProgramCallsTools(t *testing.T) {
	h := newHarness(t, Options{})
	res := h.run(t.Context(), `
listing = list_files(path=".")
names = sorted([e["path"] for e in listing["entries"]]) if type(listing) == "dict" and "entries" in listing else None
if names == None:
    names = [l for l in str(listing).split("\n") if l.endswith(".txt")]
for n in names:
    r = read_file(path=n)
    print(n, str(r).strip())
`, 0)
	if res.Error != "" || res.ReturnCode != 0 {
		t.Fatalf("program failed: %+v", res)
	}
	for _, want := range []string{"alpha", "beta", "gamma"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.Stdout)
		}
	}
	if n := h.calls.Load(); n != 4 {
		t.Errorf("tool calls = %d, want 4 (one list, three reads)", n)
	}
}

func TestFailedCallIsTestable(t *testing.T) {
	h := newHarness(t, Options{})
	res := h.run(t.Context(), `
r = read_file(path="missing.txt")
if failed(r):
    print("failed:", r.error)
ok = path_exists(path="a.txt")
print("ok failed?", failed(ok))
`, 0)
	if res.Error != "" {
		t.Fatalf("program failed: %+v", res)
	}
	if !strings.Contains(res.Stdout, "failed: ") || !strings.Contains(res.Stdout, "ok failed? False") {
		t.Errorf("stdout = %q", res.Stdout)
	}
}

func TestErrorsNameTheLine(t *testing.T) {
	h := newHarness(t, Options{})
	for _, tc := range []struct{ code, want string }{
		{"x = 1\ny = (\n", "line 3"},
		{"a = 1\nb = a + undefined_name\n", "line 2"},
		{"print(1)\n\nfail(\"stop here\")\n", "line 3: fail: stop here"},
		{"read_file(\"a.txt\")\n", "pass arguments by name"},
	} {
		res := h.run(t.Context(), tc.code, 0)
		if res.ReturnCode != 1 || !strings.Contains(res.Error, tc.want) {
			t.Errorf("code %q: return_code %d, error %q; want 1 and %q", tc.code, res.ReturnCode, res.Error, tc.want)
		}
	}
}

func TestStepLimit(t *testing.T) {
	h := newHarness(t, Options{MaxSteps: 100_000})
	start := time.Now()
	res := h.run(t.Context(), "while True:\n    pass\n", 10_000)
	if !strings.Contains(res.Error, "too many steps") {
		t.Fatalf("error = %q, want the step limit", res.Error)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("step limit took %s", d)
	}
}

// slowTool stands in for a tool that takes a while and honours its context.
func slowTool() tools.Tool {
	return tools.Tool{Name: "slow-op", Kind: tools.KindRead, Schema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
			select {
			case <-time.After(20 * time.Millisecond):
				return tools.Text("done"), nil
			case <-ctx.Done():
				return tools.Errorf("cancelled"), nil
			}
		}}
}

func TestTimeLimit(t *testing.T) {
	h := newHarness(t, Options{}, slowTool())
	start := time.Now()
	res := h.run(t.Context(), "n = 0\nwhile True:\n    slow_op()\n    n += 1\n", 300)
	if !strings.Contains(res.Error, "time limit") {
		t.Fatalf("error = %q, want the time limit", res.Error)
	}
	if d := time.Since(start); d < 300*time.Millisecond || d > 3*time.Second {
		t.Errorf("stopped after %s, want about 300ms", d)
	}
}

func TestCancellationStopsTheProgram(t *testing.T) {
	h := newHarness(t, Options{}, slowTool())
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		for h.calls.Load() < 3 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	res := h.run(ctx, "while True:\n    slow_op()\n", 60_000)
	if !strings.Contains(res.Error, "cancelled") {
		t.Fatalf("error = %q, want cancelled", res.Error)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %s", d)
	}
}

func TestNoCallerNoRun(t *testing.T) {
	h := newHarness(t, Options{})
	r, _ := h.tool.Execute(t.Context(), json.RawMessage(`{"code":"print(1)"}`))
	if !r.IsError {
		t.Errorf("run_code without a run = %+v, want an error result", r)
	}
}

func TestDescriptionListsFunctions(t *testing.T) {
	h := newHarness(t, Options{}, slowTool())
	d := h.tool.Description
	for _, want := range []string{"read_file(path, limit=None, offset=None)", "slow_op()", "shell_cmd(command,", "failed(v)"} {
		if !strings.Contains(d, want) {
			t.Errorf("description lacks %q:\n%s", want, d)
		}
	}
	for _, absent := range []string{"ask_user_input(", "run_code("} {
		if strings.Contains(d, absent) {
			t.Errorf("description offers %q, which a program cannot call:\n%s", absent, d)
		}
	}
}

func TestOutputIsCapped(t *testing.T) {
	h := newHarness(t, Options{MaxOutputBytes: 1000})
	res := h.run(t.Context(), "for i in range(1000):\n    print('line', i)\n", 0)
	if len(res.Stdout) > 1200 || !strings.Contains(res.Stdout, "line 0") || !strings.Contains(res.Stdout, "line 999") || !strings.Contains(res.Stdout, "cut") {
		t.Errorf("capped stdout (%d bytes) = %q", len(res.Stdout), res.Stdout)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	h := newHarness(t, Options{})
	res := h.run(t.Context(), `print(json.encode({"n": 1 << 70, "l": [1, 2.5, None, True]}))`, 0)
	if res.Error != "" {
		t.Fatalf("error: %s", res.Error)
	}
	if strings.TrimSpace(res.Stdout) != `{"l":[1,2.5,null,true],"n":1180591620717411303424}` {
		t.Errorf("stdout = %q", res.Stdout)
	}
}
