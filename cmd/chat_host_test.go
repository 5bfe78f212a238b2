package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// screenStub stands in for the chat screen: it answers every question and
// permission request the same way and counts them.
type screenStub struct {
	mu      sync.Mutex
	answer  tools.Answer
	permit  ui.PermitResult
	permits int
}

func (s *screenStub) Ask(context.Context, tools.AskInput) (tools.Answer, error) { return s.answer, nil }

func (s *screenStub) Permit(context.Context, engine.PermissionRequest) (ui.PermitResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.permits++
	return s.permit, nil
}

// chatTurn runs one turn of c with screen, collecting its events.
func chatTurn(t *testing.T, c *chatHost, screen ui.Prompter, prompt string) []engine.Event {
	t.Helper()
	var mu sync.Mutex
	var evs []engine.Event
	sink := func(ev engine.Event) { mu.Lock(); evs = append(evs, ev); mu.Unlock() }
	if err := c.Turn(context.Background(), ui.Turn{Prompt: prompt, Events: sink, Prompts: screen}); err != nil {
		t.Fatalf("turn %q: %v", prompt, err)
	}
	return evs
}

func newTestChat(t *testing.T, script string) (*chatHost, *bytes.Buffer) {
	t.Helper()
	h, errb := testHost(t, script, "sk-chat-secret")
	c, err := newChatHost(h, nil, &Factory{}, errb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.close)
	return c, errb
}

const twoTurnScript = `{"turns":[
 {"tool_calls":[{"name":"write_file","arguments":{"path":"out/a.txt","content":"a"}}],"usage":{"input_tokens":100,"output_tokens":10}},
 {"tool_calls":[{"name":"final_answer","arguments":{"answer":"wrote a"}}],"usage":{"input_tokens":120,"output_tokens":10}},
 {"tool_calls":[{"name":"write_file","arguments":{"path":"out/b.txt","content":"b"}}],"usage":{"input_tokens":200,"output_tokens":10}},
 {"tool_calls":[{"name":"final_answer","arguments":{"answer":"wrote b"}}],"usage":{"input_tokens":220,"output_tokens":10}}]}`

// TestChatTurnsShareTheSessionAndRules: two turns are one conversation
// in one session; "allow always" in the first turn covers the second, and
// "in this project" saves the rule.
func TestChatTurnsShareTheSessionAndRules(t *testing.T) {
	c, _ := newTestChat(t, twoTurnScript)
	screen := &screenStub{permit: ui.PermitResult{Decision: engine.Decision{Action: engine.AllowAlways, Rule: "write_file(path=out/**)"}, Project: true}}
	chatTurn(t, c, screen, "write a")
	chatTurn(t, c, screen, "now write b")
	if screen.permits != 1 {
		t.Errorf("asked %d times; allow always should cover the second turn", screen.permits)
	}
	for _, f := range []string{"out/a.txt", "out/b.txt"} {
		if _, err := os.Stat(filepath.Join(c.h.s.workDir, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	cfg, _ := os.ReadFile(filepath.Join(c.h.s.workDir, ".llmrt", "config.json"))
	if !strings.Contains(string(cfg), "write_file(path=out/**)") {
		t.Errorf("the project rule should be saved: %s", cfg)
	}
	if got := c.conv.Usage(); got.InputTokens != 100+120+200+220 {
		t.Errorf("session usage %+v, want the four calls summed", got)
	}
	id := c.sessionID()
	sess, err := c.h.store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	var prompts []string
	for _, m := range sess.Messages {
		if m.Role == engine.RoleUser {
			prompts = append(prompts, m.Text())
		}
	}
	if strings.Join(prompts, "|") != "write a|now write b" {
		t.Errorf("session prompts %q", prompts)
	}
	if files, _ := filepath.Glob(filepath.Join(c.h.store.Dir, "*.jsonl")); len(files) != 1 {
		t.Errorf("%d session files, want one for the whole chat", len(files))
	}
}

// TestChatMentionsAttachFiles: @path attaches a workspace file; a mention
// of something that is not a file stays text.
func TestChatMentionsAttachFiles(t *testing.T) {
	c, _ := newTestChat(t, twoTurnScript)
	msg, err := c.userMessage(context.Background(), "look at @notes.txt and @nowhere, and mail @alice")
	if err != nil || len(msg.Content) != 2 || !strings.Contains(msg.Content[1].Text, `<file name="notes.txt">`) {
		t.Fatalf("want the prompt and notes.txt attached, got %+v", msg.Content)
	}
	if files := c.Files(context.Background(), "no"); len(files) != 1 || files[0] != "notes.txt" {
		t.Fatalf("Files(no) = %q", files)
	}
}

// TestClearEndsSessionRules: /clear starts a new session and ends the
// rules allowed always in the old one, saying which; the next write is
// asked about again.
func TestClearEndsSessionRules(t *testing.T) {
	c, _ := newTestChat(t, twoTurnScript)
	screen := &screenStub{permit: ui.PermitResult{Decision: engine.Decision{Action: engine.AllowAlways, Rule: "write_file(path=out/**)"}}}
	chatTurn(t, c, screen, "write a")
	r, err := c.clearCommand(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := r.Report.(ui.Notice); !ok || !strings.Contains(string(n), "So is the rule allowed always in it: write_file(path=out/**).") {
		t.Errorf("/clear said %#v, want the cleared rule named", r.Report)
	}
	chatTurn(t, c, screen, "now write b")
	if screen.permits != 2 {
		t.Errorf("asked %d times; after /clear the second write should be asked about", screen.permits)
	}
}

// TestMentionMenuRanks: the @ menu puts names starting with what was
// typed first, then paths with a segment that does, then the rest; it
// offers hidden files only when what was typed names one.
func TestMentionMenuRanks(t *testing.T) {
	files := []string{".env.example", ".github/", ".github/ci.yml", "cmd/", "cmd/main.go", "docs/config.md", "internal/config/", "internal/config/load.go", "reconfigure.go", "config.go"}
	for _, c := range []struct{ query, want string }{
		{"config", "config.go docs/config.md internal/config/ internal/config/load.go reconfigure.go"},
		{"ci", ""},
		{".gi", ".github/ .github/ci.yml"},
		{".github/c", ".github/ci.yml"},
		{"main", "cmd/main.go"},
	} {
		if got := strings.Join(rankFiles(files, c.query, 50), " "); got != c.want {
			t.Errorf("%q: got %q, want %q", c.query, got, c.want)
		}
	}
}

// TestChatMentionsADirectory: @dir attaches a listing of what it holds.
func TestChatMentionsADirectory(t *testing.T) {
	c, _ := newTestChat(t, twoTurnScript)
	for _, f := range []string{"src/a.go", "src/b.go", "src/deep/c.go", "src/deep/deeper/d.go"} {
		p := filepath.Join(c.h.s.workDir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package x\n"), 0o644)
	}
	msg, err := c.userMessage(context.Background(), "what is in @src/ ?")
	if err != nil || len(msg.Content) != 2 {
		t.Fatalf("want the prompt and a listing, got %+v, %v", msg.Content, err)
	}
	l := msg.Content[1].Text
	for _, want := range []string{"Directory src/", "src/a.go\n", "src/deep/\n", "src/deep/c.go\n"} {
		if !strings.Contains(l, want) {
			t.Errorf("the listing lacks %q:\n%s", want, l)
		}
	}
	if strings.Contains(l, "d.go") {
		t.Errorf("the listing goes two levels deep only:\n%s", l)
	}
}
