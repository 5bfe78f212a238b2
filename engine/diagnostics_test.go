package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// TestDiagnosticJSON: the JSON of a diagnostic keeps its fields and adds
// level and kind, so consumers of Result.Diagnostics that read source and
// message read them as before.
func TestDiagnosticJSON(t *testing.T) {
	b, err := json.Marshal(engine.Diagnostic{Level: engine.DiagnosticError, Kind: engine.DiagSourceStart, Source: "mcp server x", Message: "did not start"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"source":"mcp server x","message":"did not start","level":"error","kind":"source_start"}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	b, _ = json.Marshal(engine.Diagnostic{Source: "config", Message: "m"})
	if want := `{"source":"config","message":"m"}`; string(b) != want {
		t.Errorf("without level and kind: got %s, want %s", b, want)
	}
}

// TestStrictDiagnostics: a strict run (Request.Strict, or
// Config.Defaults.Strict) with diagnostics is an invalid_request error
// before the first model call, carrying the diagnostics promoted to
// errors; Generate, Complete and Stream alike. Without diagnostics, or not
// strict, the run goes on.
func TestStrictDiagnostics(t *testing.T) {
	failing := &fakeSource{startErr: errors.New("exec: npx: not found")}
	hostDiag := engine.Diagnostic{Source: "config.json", Message: `unknown key "colour"`}
	check := func(t *testing.T, err error, h *harness) {
		t.Helper()
		var de *engine.DiagnosticsError
		if !errors.Is(err, engine.ErrInvalidRequest) || !errors.As(err, &de) {
			t.Fatalf("got %v, want an invalid_request error holding a *DiagnosticsError", err)
		}
		if len(de.Diagnostics) != 2 || de.Diagnostics[0].Kind != engine.DiagRequest || de.Diagnostics[1].Kind != engine.DiagSourceStart {
			t.Errorf("diagnostics: got %+v, want the request's and the source's", de.Diagnostics)
		}
		for _, d := range de.Diagnostics {
			if d.Level != engine.DiagnosticError {
				t.Errorf("%+v: level %q, want error", d, d.Level)
			}
		}
		if !strings.Contains(err.Error(), "did not start") {
			t.Errorf("message %q should name the diagnostics", err)
		}
		if n := h.rec.calls(); n != 0 {
			t.Errorf("model calls: got %d, want none", n)
		}
	}
	t.Run("request", func(t *testing.T) {
		h := newSourceHarness(t, []engine.ToolSource{failing}, answer("never"))
		req := h.request("go")
		req.Strict, req.Diagnostics = true, []engine.Diagnostic{hostDiag}
		_, err := h.rt.Complete(context.Background(), req)
		check(t, err, h)
		_, err = h.rt.Generate(context.Background(), req)
		check(t, err, h)
		var last engine.Event
		for ev := range h.rt.Stream(context.Background(), req) {
			last = ev
		}
		if last.Type != engine.EventFailed || last.Result.Error.Code != engine.CodeInvalidRequest || len(last.Result.Diagnostics) != 2 {
			t.Errorf("Stream: got %s %+v, want failed/invalid_request with the 2 diagnostics", last.Type, last.Result)
		}
		check(t, last.Result.Err(), h)
	})
	t.Run("runtime default", func(t *testing.T) {
		sp := scripted.New()
		sp.Register("test", &scripted.Script{Turns: []scripted.Turn{answer("never")}})
		rec := &recorder{p: sp}
		rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": rec},
			Sources: []engine.ToolSource{failing}, Defaults: engine.Defaults{Strict: true}})
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close()
		h := &harness{t: t, rt: rt, rec: rec, dir: t.TempDir()}
		req := h.request("go")
		req.Diagnostics = []engine.Diagnostic{hostDiag}
		_, err = rt.Complete(context.Background(), req)
		check(t, err, h)
	})
	t.Run("strict without diagnostics runs", func(t *testing.T) {
		h := newHarness(t, answer("ok"))
		req := h.request("go")
		req.Strict = true
		if res := h.complete(req); res.Status != engine.StatusCompleted {
			t.Errorf("got %s, want completed", res.Status)
		}
	})
	t.Run("not strict runs and reports", func(t *testing.T) {
		h := newSourceHarness(t, []engine.ToolSource{failing}, answer("ok"))
		res := h.complete(h.request("go"))
		if res.Status != engine.StatusCompleted || len(res.Diagnostics) != 1 || res.Diagnostics[0].Level != engine.DiagnosticError {
			t.Errorf("got %s %+v, want completed with the source's error-level diagnostic", res.Status, res.Diagnostics)
		}
	})
}

// warnChunk is a provider that prefixes every reply with a warning, as an
// adapter ignoring web search does.
type warnChunk struct{ providers.Provider }

func (w warnChunk) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	emit(providers.Chunk{Type: providers.ChunkWarning, Warning: providers.Warning{Code: "web_search_ignored", Message: "no search here"}})
	return w.Provider.Stream(ctx, req, emit)
}

// TestReporter: Config.Reporter hears every warning of the runtime's runs
// as it happens, with the run's id, without an event consumer: the
// provider's, the permission policy's and diagnostics shown as warnings;
// Generate's with no run id.
func TestReporter(t *testing.T) {
	var mu sync.Mutex
	var heard []string
	report := engine.ReporterFunc(func(runID string, w engine.Warning) {
		mu.Lock()
		heard = append(heard, runID+" "+w.Code)
		mu.Unlock()
	})
	sp := scripted.New()
	sp.Register("m", &scripted.Script{Turns: []scripted.Turn{call("write_file", `{"path":"a","content":"b"}`), answer("refused"), say("hello")}})
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"s": warnChunk{sp}}, Reporter: report,
		Sources: []engine.ToolSource{&fakeSource{startErr: errors.New("boom")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	req := engine.Request{Provider: "s", Model: "m", WorkDir: t.TempDir(), BuiltIns: []string{"write_file"},
		Permission: engine.Permission{Mode: engine.ModeAsk}, Messages: []engine.Message{engine.UserMessage("write")}}
	res, err := rt.Complete(context.Background(), req)
	if err != nil || res.Status != engine.StatusCompleted {
		t.Fatalf("got %v %s", err, res.Status)
	}
	req.Messages = res.Messages
	if _, err := rt.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	want := []string{
		res.RunID + " " + engine.WarningDiagnostic,
		res.RunID + " web_search_ignored",
		res.RunID + " permission_denied",
		" web_search_ignored",
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(heard, "\n") != strings.Join(want, "\n") {
		t.Errorf("heard:\n%s\nwant:\n%s", strings.Join(heard, "\n"), strings.Join(want, "\n"))
	}
}
