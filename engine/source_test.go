package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// fakeSource is a ToolSource with every optional interface.
type fakeSource struct {
	mu       sync.Mutex
	list     []tools.Tool
	instr    string
	diags    []tools.Diagnostic
	listErr  error
	startErr error
	starts   int
	closes   int
}

func (s *fakeSource) Tools(context.Context) ([]tools.Tool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list, s.listErr
}

func (s *fakeSource) set(list []tools.Tool, instr string) {
	s.mu.Lock()
	s.list, s.instr = list, instr
	s.mu.Unlock()
}

func (s *fakeSource) Instructions() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.instr
}

func (s *fakeSource) Diagnostics() []tools.Diagnostic { return s.diags }

func (s *fakeSource) Start(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.starts++
	return s.startErr
}

func (s *fakeSource) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closes++
	return nil
}

func sourceTool(name, source string, exec tools.Executor) tools.Tool {
	return tools.Tool{Name: name, Description: "source tool " + name, Source: source,
		Schema: json.RawMessage(`{"type":"object"}`), Kind: tools.KindRead, Execute: exec}
}

func newSourceHarness(t *testing.T, sources []engine.ToolSource, turns ...scripted.Turn) *harness {
	t.Helper()
	sp := scripted.New()
	sp.Register("test", &scripted.Script{Turns: turns})
	rec := &recorder{p: sp}
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": rec}, Sources: sources})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return &harness{t: t, rt: rt, rec: rec, dir: t.TempDir()}
}

func specNames(req providers.Request) []string {
	var out []string
	for _, s := range req.Tools {
		out = append(out, s.Name)
	}
	return out
}

// TestSourceToolsJoinTheSurface: a source's tools are offered after the
// request's own, run with the run's workspace on their context, and a
// changed list is seen by the next model call.
func TestSourceToolsJoinTheSurface(t *testing.T) {
	src := &fakeSource{instr: "Skills: none yet."}
	var sawWorkspace bool
	echo := sourceTool("mcp_echo", "mcp:test", func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		sawWorkspace = tools.WorkspaceFrom(ctx) != nil
		return tools.Text("echo"), nil
	})
	later := sourceTool("mcp_later", "mcp:test", func(context.Context, json.RawMessage) (tools.Result, error) {
		return tools.Text("later"), nil
	})
	src.set([]tools.Tool{echo}, "Skills: none yet.")
	h := newSourceHarness(t, []engine.ToolSource{src}, call("mcp_echo", `{}`), call("mcp_later", `{}`), answer("done"))
	req := h.request("go")
	req.BuiltIns = []string{"read_file"}
	ct := &counterTool{}
	req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
	first := true
	res, err := h.rt.CompleteWith(context.Background(), req, func(ev engine.Event) {
		if ev.Type == engine.EventToolResult && first {
			first = false
			src.set([]tools.Tool{echo, later}, "Skills: deploy.") // an MCP list_changed
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engine.StatusCompleted || !sawWorkspace {
		t.Fatalf("got %s (workspace on context %v), want completed with a workspace", res.Status, sawWorkspace)
	}
	if got, want := specNames(h.rec.request(0)), []string{"read_file", "peek", "mcp_echo", "final_answer", "blocked"}; !reflect.DeepEqual(got, want) {
		t.Errorf("first call tools: got %v, want %v", got, want)
	}
	if got, want := specNames(h.rec.request(1)), []string{"read_file", "peek", "mcp_echo", "mcp_later", "final_answer", "blocked"}; !reflect.DeepEqual(got, want) {
		t.Errorf("second call tools: got %v, want %v", got, want)
	}
	if got := toolResultFor(res.Messages, "mcp_later"); got != "later" {
		t.Errorf("mcp_later result: got %q, want later", got)
	}
	sys0, sys1 := h.rec.request(0).Messages[0].Text(), h.rec.request(1).Messages[0].Text()
	if !strings.HasSuffix(sys0, "Skills: none yet.") || !strings.HasSuffix(sys1, "Skills: deploy.") || !strings.Contains(sys1, "## How to work") {
		t.Errorf("system prompts should end with the source's current instructions:\n%q\n%q", sys0, sys1)
	}
}

// TestSourceClashesAreDiagnostics: a source tool whose name is taken is
// left out deterministically, with a diagnostic in the Result and in
// Runtime.Diagnostics, beside the request's and the sources' own. Each is
// a structured entry: a level, a kind, where and what.
func TestSourceClashesAreDiagnostics(t *testing.T) {
	noop := func(context.Context, json.RawMessage) (tools.Result, error) { return tools.Text("x"), nil }
	first := &fakeSource{list: []tools.Tool{
		sourceTool("read_file", "mcp:a", noop),
		sourceTool("peek", "mcp:a", noop),
		sourceTool("final_answer", "mcp:a", noop),
		sourceTool("shared", "mcp:a", noop),
	}, diags: []tools.Diagnostic{{Source: "skills/broken/SKILL.md", Message: "front matter does not parse"}}}
	second := &fakeSource{list: []tools.Tool{sourceTool("shared", "mcp:b", noop)}}
	failing := &fakeSource{startErr: errors.New("exec: npx: not found")}
	listing := &fakeSource{listErr: errors.New("mcp c: connection closed")}
	h := newSourceHarness(t, []engine.ToolSource{first, second, failing, listing}, answer("done"))
	req := h.request("go")
	req.BuiltIns = []string{"read_file"}
	req.Tools = []engine.Tool{(&counterTool{}).tool("peek", tools.KindRead)}
	req.Diagnostics = []engine.Diagnostic{{Source: "config.json", Message: `unknown key "colour"`}}

	infos, err := h.rt.ResolveTools(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, i := range infos {
		names = append(names, i.Name+"/"+i.Source)
	}
	if want := []string{"read_file/builtin", "peek/host", "shared/mcp:a", "final_answer/control", "blocked/control"}; !reflect.DeepEqual(names, want) {
		t.Errorf("surface: got %v, want %v", names, want)
	}
	warning, failure := engine.DiagnosticWarning, engine.DiagnosticError
	want := []engine.Diagnostic{
		{Level: warning, Kind: engine.DiagRequest, Source: "config.json", Message: `unknown key "colour"`},
		{Level: failure, Kind: engine.DiagSourceStart, Source: "tool source", Message: "did not start: exec: npx: not found"},
		{Level: warning, Kind: engine.DiagSource, Source: "skills/broken/SKILL.md", Message: "front matter does not parse"},
		{Level: failure, Kind: engine.DiagSourceList, Source: "tool source", Message: "listing tools failed: mcp c: connection closed"},
		{Level: warning, Kind: engine.DiagToolLeftOut, Source: "mcp:a", Message: `tool "read_file" is not offered: the name is taken by a builtin tool`},
		{Level: warning, Kind: engine.DiagToolLeftOut, Source: "mcp:a", Message: `tool "peek" is not offered: the name is taken by a host tool`},
		{Level: warning, Kind: engine.DiagToolLeftOut, Source: "mcp:a", Message: `tool "final_answer" is not offered: the name is reserved for a control tool`},
		{Level: warning, Kind: engine.DiagToolLeftOut, Source: "mcp:b", Message: `tool "shared" is not offered: the name is taken by a mcp:a tool`},
	}
	got, err := h.rt.Diagnostics(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Runtime.Diagnostics:\n got %v\nwant %v", got, want)
	}
	res := h.complete(req)
	if !reflect.DeepEqual(res.Diagnostics, want) {
		t.Errorf("Result.Diagnostics:\n got %v\nwant %v", res.Diagnostics, want)
	}
	if failing.starts != 1 || first.starts != 1 {
		t.Errorf("starts: got %d and %d, want 1 each", failing.starts, first.starts)
	}
}

// TestRuntimeLifecycle: Start starts sources once, Close closes them once,
// a closed runtime refuses runs, and Close is safe on nil.
func TestRuntimeLifecycle(t *testing.T) {
	src := &fakeSource{}
	h := newSourceHarness(t, []engine.ToolSource{src}, answer("a"), answer("b"))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := h.rt.Start(context.Background()); err != nil {
				t.Errorf("Start: %v", err)
			}
		})
	}
	wg.Wait()
	h.complete(h.request("go"))
	if src.starts != 1 {
		t.Errorf("starts: got %d, want 1", src.starts)
	}
	for range 2 {
		if err := h.rt.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	if src.closes != 1 {
		t.Errorf("closes: got %d, want 1", src.closes)
	}
	_, err := h.rt.Complete(context.Background(), h.request("go"))
	var re *engine.RunError
	if !errors.As(err, &re) || re.Code != engine.CodeInvalidRequest || !strings.Contains(re.Message, "closed") {
		t.Errorf("run after Close: got %v, want invalid_request naming the closed runtime", err)
	}
	if err := h.rt.Start(context.Background()); err == nil {
		t.Error("Start after Close: got nil, want an error")
	}
	var nilRT *engine.Runtime
	if err := nilRT.Close(); err != nil {
		t.Errorf("nil Close: got %v, want nil", err)
	}
}

// TestRuntimeStartsOnFirstRun: without Start, the first run starts the
// sources.
func TestRuntimeStartsOnFirstRun(t *testing.T) {
	src := &fakeSource{list: []tools.Tool{sourceTool("mcp_x", "mcp:x", func(context.Context, json.RawMessage) (tools.Result, error) {
		return tools.Text("x"), nil
	})}}
	h := newSourceHarness(t, []engine.ToolSource{src}, answer("a"))
	h.complete(h.request("go"))
	if src.starts != 1 || !strings.Contains(strings.Join(specNames(h.rec.request(0)), ","), "mcp_x") {
		t.Errorf("got %d starts and tools %v, want 1 start and mcp_x offered", src.starts, specNames(h.rec.request(0)))
	}
}
