package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// recording is the scripted provider, keeping the system prompt and the
// tool list of every request it gets.
type recording struct {
	*scripted.Provider
	mu       sync.Mutex
	prefixes []string
}

func (r *recording) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	var system []string
	for _, m := range req.Messages {
		if m.Role != providers.RoleSystem {
			break
		}
		system = append(system, m.Text())
	}
	tools, _ := json.Marshal(req.Tools)
	r.mu.Lock()
	r.prefixes = append(r.prefixes, strings.Join(system, "\n")+"\n--- tools\n"+string(tools))
	r.mu.Unlock()
	return r.Provider.Stream(ctx, req, emit)
}

// TestTurnsKeepTheRequestPrefix: over the turns of one conversation,
// every model call sends the same system prompt, environment included,
// and the same tool list, so the provider's prompt cache holds across
// turns, not only within one.
func TestTurnsKeepTheRequestPrefix(t *testing.T) {
	s, err := scripted.Parse([]byte(twoWrites), "test")
	if err != nil {
		t.Fatal(err)
	}
	p := &recording{Provider: scripted.New()}
	p.Register("m", s)
	rt, err := engine.New(engine.Config{Adapters: []providers.Provider{p}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	work := t.TempDir()
	env := engine.Environment{Date: "2026-03-04", OS: "linux", Arch: "amd64", Shell: "bash", WorkDir: work}
	c, err := host.Open(host.Options{Store: &session.Store{Dir: t.TempDir()}, System: "be brief", Describe: func() session.Meta { return session.Meta{Provider: "scripted", Model: "m"} }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, text := range []string{"write a", "now write b"} {
		req := engine.Request{Provider: "scripted", Model: "m", WorkDir: work, BuiltIns: engine.AllBuiltIns(),
			Permission: engine.Permission{Mode: engine.ModeAuto}, Environment: &env}
		out, err := c.Turn(context.Background(), host.Turn{Runtime: rt, Request: req, Prompt: prompt(text)})
		if err != nil || out.Status != engine.StatusCompleted {
			t.Fatalf("turn %q: %v %s", text, err, out.Status)
		}
	}
	if len(p.prefixes) != 4 {
		t.Fatalf("%d model calls, want 4", len(p.prefixes))
	}
	for _, want := range []string{"be brief", "- Working directory: " + work, `"name":"write_file"`} {
		if !strings.Contains(p.prefixes[0], want) {
			t.Errorf("the first call's prefix lacks %q:\n%s", want, p.prefixes[0])
		}
	}
	for i, got := range p.prefixes[1:] {
		if got != p.prefixes[0] {
			t.Errorf("call %d: the system prompt or tool list changed:\n%s\nwas:\n%s", i+2, got, p.prefixes[0])
		}
	}
}
