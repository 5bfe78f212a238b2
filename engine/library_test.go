package engine_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// TestZeroRequestIsReadOnly: a request that selects nothing gets the tools
// that only read the workspace, never shell_cmd, the writing tools,
// web_fetch or ask_user_input, and a call of shell_cmd is refused as an
// unknown tool before anything runs.
func TestZeroRequestIsReadOnly(t *testing.T) {
	h := newHarness(t)
	surface, err := h.rt.ResolveTools(context.Background(), engine.Request{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ti := range surface {
		if ti.Source == tools.SourceBuiltin {
			names = append(names, ti.Name)
			if ti.Kind != tools.KindRead {
				t.Errorf("default built-in %s is %s, want read", ti.Name, ti.Kind)
			}
		}
	}
	if want := engine.DefaultBuiltIns(); !slices.Equal(names, want) {
		t.Errorf("built-ins of a zero request: got %v, want %v", names, want)
	}
	for _, n := range []string{"shell_cmd", "write_file", "edit_file", "create_directory", "web_fetch", engine.AskUserTool} {
		if slices.Contains(names, n) {
			t.Errorf("a zero request offers %s", n)
		}
	}
	out := h.rt.ExecuteToolCall(context.Background(), engine.ToolCall{ID: "c1", Name: "shell_cmd", Arguments: `{"command":"touch pwned"}`}, engine.Request{WorkDir: h.dir})
	if !out.IsError || out.Code != engine.OutcomeUnknownTool {
		t.Errorf("shell_cmd in a zero request: got %+v, want unknown_tool", out)
	}
	// The empty selection is still none, and AllBuiltIns is everything:
	// the tools package's built-ins, run_code and spawn_agent.
	for _, tc := range []struct {
		sel  []string
		want int
	}{{[]string{}, 0}, {engine.AllBuiltIns(), len(tools.BuiltinNames()) + 2}} {
		surface, err := h.rt.ResolveTools(context.Background(), engine.Request{BuiltIns: tc.sel})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, ti := range surface {
			if ti.Source == tools.SourceBuiltin {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("BuiltIns %v: got %d built-ins, want %d", tc.sel, n, tc.want)
		}
	}
}

// TestAdapterNamesItself: an adapter in Config.Adapters is known by its
// own name and is the default provider when it is the only one; the
// default model fills requests that use it.
func TestAdapterNamesItself(t *testing.T) {
	sp := scripted.New()
	sp.Register("m", &scripted.Script{Turns: []scripted.Turn{answer("hi")}})
	rt, err := engine.New(engine.Config{Adapters: []engine.Provider{sp}, Defaults: engine.Defaults{Model: "m"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	var start engine.Event
	res, err := rt.CompleteWith(context.Background(), engine.Request{Messages: []engine.Message{engine.UserMessage("x")}}, func(ev engine.Event) {
		if ev.Type == engine.EventRunStart {
			start = ev
		}
	})
	if err != nil || res.Status != engine.StatusCompleted || res.Output != "hi" {
		t.Fatalf("got %+v, %v; want completed with hi", res, err)
	}
	if start.Provider != "scripted" || start.Model != "m" {
		t.Errorf("run_start names %q/%q, want scripted/m", start.Provider, start.Model)
	}
	// Naming the default provider still gets the default model.
	if _, err := rt.Complete(context.Background(), engine.Request{Provider: "scripted", Messages: res.Messages[:1]}); err != nil {
		t.Errorf("explicit provider: %v", err)
	}
}

func TestNewRejectsAmbiguousProviders(t *testing.T) {
	sp := scripted.New()
	for name, cfg := range map[string]engine.Config{
		"same adapter twice":       {Adapters: []engine.Provider{sp, scripted.New()}},
		"adapter and map":          {Adapters: []engine.Provider{sp}, Providers: map[string]providers.Provider{"scripted": sp}},
		"nil adapter":              {Adapters: []engine.Provider{nil}},
		"unknown default provider": {Adapters: []engine.Provider{sp}, Defaults: engine.Defaults{Provider: "openai"}},
		"model without a provider": {Defaults: engine.Defaults{Model: "m"}},
		"model for no one of two":  {Adapters: []engine.Provider{sp}, Providers: map[string]providers.Provider{"other": sp}, Defaults: engine.Defaults{Model: "m"}},
	} {
		_, err := engine.New(cfg)
		if !errors.Is(err, engine.ErrInvalidRequest) {
			t.Errorf("%s: got %v, want an ErrInvalidRequest", name, err)
		}
	}
	// Two providers and no default: requests must name one.
	rt, err := engine.New(engine.Config{Adapters: []engine.Provider{sp}, Providers: map[string]providers.Provider{"other": sp}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = rt.Complete(context.Background(), engine.Request{Model: "m"})
	if !errors.Is(err, engine.ErrNoProvider) || !errors.Is(err, engine.ErrInvalidRequest) {
		t.Errorf("no provider named among two: got %v, want ErrNoProvider", err)
	}
}

// TestSentinelErrors: errors.Is sees the code of a *RunError, from
// Complete's error and from Result.Err, which is nil on success.
func TestSentinelErrors(t *testing.T) {
	h := newHarness(t, call("read_file", `{"path":"nope"}`), call("read_file", `{"path":"nope2"}`))
	req := h.request("x")
	req.MaxIterations = 1
	res := h.complete(req)
	if err := res.Err(); !errors.Is(err, engine.ErrMaxIterations) || errors.Is(err, engine.ErrBudget) {
		t.Errorf("max iterations run: Err() = %v, want ErrMaxIterations only", err)
	}

	h = newHarness(t, answer("done"))
	res = h.complete(h.request("x"))
	if err := res.Err(); err != nil {
		t.Errorf("completed run: Err() = %v, want nil", err)
	}

	req = h.request("x")
	req.Provider = "nope"
	if _, err := h.rt.Complete(context.Background(), req); !errors.Is(err, engine.ErrNoProvider) {
		t.Errorf("unknown provider: got %v, want ErrNoProvider", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, _ = h.rt.Complete(ctx, h.request("x"))
	if err := res.Err(); !errors.Is(err, engine.ErrCancelled) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: Err() = %v, want ErrCancelled wrapping context.Canceled", err)
	}
	h.rt.Close()
	if _, err := h.rt.Complete(context.Background(), h.request("x")); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("closed runtime: got %v, want ErrClosed", err)
	}
}

// TestGenerateErrors: a failed call from Generate matches ErrProvider and
// still unwraps to the adapter's *providers.Error.
func TestGenerateErrors(t *testing.T) {
	h := newHarness(t, scripted.Turn{Error: &scripted.TurnError{Status: 401, Message: "bad key"}})
	_, err := h.rt.Generate(context.Background(), h.request("x"))
	var pe *providers.Error
	if !errors.Is(err, engine.ErrProvider) || !errors.As(err, &pe) || pe.StatusCode != 401 {
		t.Errorf("got %v, want ErrProvider wrapping the 401", err)
	}
}
