package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/policy"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/skills"
)

// TestLoadSkillIsABuiltIn: load_skill is a built-in name like the others.
// A request may select it (AllBuiltIns names it); it is offered when the
// runtime has skills and the selection allows it: by default (nil
// BuiltIns) or by name. A narrow selection without it leaves it out, and
// selecting it without skills is no error.
func TestLoadSkillIsABuiltIn(t *testing.T) {
	if !slices.Contains(engine.AllBuiltIns(), engine.LoadSkillTool) {
		t.Errorf("AllBuiltIns() = %v, want load_skill among them", engine.AllBuiltIns())
	}
	root := t.TempDir()
	skill := filepath.Join(root, "pdf", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(skill), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(skill, []byte("---\nname: pdf\ndescription: Read PDF files.\n---\nUse pdftotext.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cat := skills.Discover([]skills.Root{{Dir: root, Scope: skills.ScopeFlag}})
	if cat.Len() != 1 {
		t.Fatalf("skills found: %d (%v)", cat.Len(), cat.Diagnostics())
	}
	withSkills, err := engine.New(engine.Config{Adapters: []engine.Provider{scripted.New()}, Sources: []engine.ToolSource{cat}})
	if err != nil {
		t.Fatal(err)
	}
	defer withSkills.Close()
	without, err := engine.New(engine.Config{Adapters: []engine.Provider{scripted.New()}})
	if err != nil {
		t.Fatal(err)
	}
	defer without.Close()
	cases := []struct {
		name     string
		rt       *engine.Runtime
		builtins []string
		offered  bool
	}{
		{"default selection", withSkills, nil, true},
		{"every built-in", withSkills, engine.AllBuiltIns(), true},
		{"named", withSkills, []string{"read_file", "load_skill"}, true},
		{"left out of a narrow selection", withSkills, []string{"read_file"}, false},
		{"no built-ins", withSkills, []string{}, false},
		{"named without skills", without, []string{"load_skill"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			infos, err := tc.rt.ResolveTools(context.Background(), engine.Request{BuiltIns: tc.builtins, WorkDir: t.TempDir()})
			if err != nil {
				t.Fatalf("ResolveTools: %v", err)
			}
			got := slices.ContainsFunc(infos, func(i engine.ToolInfo) bool { return i.Name == engine.LoadSkillTool })
			if got != tc.offered {
				t.Errorf("BuiltIns %v: load_skill offered %v, want %v", tc.builtins, got, tc.offered)
			}
		})
	}
	// Through a run: the model loads the skill of a narrow selection.
	sp := scripted.New()
	sp.Register("m", &scripted.Script{Turns: []scripted.Turn{call("load_skill", `{"skill_id":"pdf"}`), answer("ok")}})
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"s": sp}, Sources: []engine.ToolSource{cat}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	res, err := rt.Complete(context.Background(), engine.Request{Provider: "s", Model: "m", WorkDir: t.TempDir(),
		BuiltIns: []string{"load_skill"}, Messages: []engine.Message{engine.UserMessage("read the pdf")}})
	if err != nil || res.Status != engine.StatusCompleted {
		t.Fatalf("got %v %s %+v", err, res.Status, res.Error)
	}
	if got := toolResults(res.Messages); len(got) < 1 || got[0][:len("load_skill:false:")] != "load_skill:false:" {
		t.Errorf("results: %q, want load_skill to have run", got)
	}
}

// TestLoadedSkillAllowsItsTools: in ask mode, a skill's allowed-tools
// (Claude Code's "Bash(git status:*)") let git status run without asking
// once the model has loaded the skill, and only then; rm -rf still asks,
// a deny rule still wins, and a skill of an untrusted root grants
// nothing.
func TestLoadedSkillAllowsItsTools(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		trusted bool
		deny    string
		asked   []string // the commands put to the person, in order
		denied  []string // the commands refused by a rule
	}{
		{name: "trusted", trusted: true, asked: []string{"git status --short", "rm -rf x"}},
		{name: "untrusted root", trusted: false, asked: []string{"git status --short", "git status", "rm -rf x"}},
		{name: "deny wins", trusted: true, deny: "shell_cmd(command=git status)", asked: []string{"git status --short", "rm -rf x"}, denied: []string{"git status"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			skill := filepath.Join(root, "git", "SKILL.md")
			if err := os.MkdirAll(filepath.Dir(skill), 0o755); err != nil {
				t.Fatal(err)
			}
			md := "---\nname: git\ndescription: Inspect the repository.\nallowed-tools: Read, Bash(git status:*)\n---\nRun git status.\n"
			if err := os.WriteFile(skill, []byte(md), 0o644); err != nil {
				t.Fatal(err)
			}
			cat := skills.Discover([]skills.Root{{Dir: root, Scope: skills.ScopeProjectClaude, Trusted: tc.trusted}})
			sp := scripted.New()
			sp.Register("m", &scripted.Script{Turns: []scripted.Turn{
				call("shell_cmd", `{"command":"git status --short"}`),
				call("load_skill", `{"skill_id":"git"}`),
				call("shell_cmd", `{"command":"git status"}`),
				call("shell_cmd", `{"command":"rm -rf x"}`),
				answer("done"),
			}})
			rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"s": sp}, Sources: []engine.ToolSource{cat}})
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			var mu sync.Mutex
			var asked []string
			perm := engine.Permission{Mode: engine.ModeAsk, Approver: engine.ApproverFunc(func(_ context.Context, req engine.PermissionRequest) (engine.Decision, error) {
				var args struct{ Command string }
				_ = json.Unmarshal([]byte(req.Arguments), &args)
				mu.Lock()
				asked = append(asked, args.Command)
				mu.Unlock()
				return engine.Decision{Action: engine.Deny}, nil
			})}
			if tc.deny != "" {
				r, err := policy.ParseRule(policy.Deny, tc.deny)
				if err != nil {
					t.Fatal(err)
				}
				perm.Rules = []engine.Rule{r}
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, err := rt.Complete(ctx, engine.Request{Provider: "s", Model: "m", WorkDir: t.TempDir(), Permission: perm, BuiltIns: []string{"shell_cmd", "load_skill"},
				Messages: []engine.Message{engine.UserMessage("check the repo")}})
			if err != nil || res.Status != engine.StatusCompleted {
				t.Fatalf("got %v %s %+v", err, res.Status, res.Error)
			}
			if !slices.Equal(asked, tc.asked) {
				t.Errorf("asked about %q, want %q", asked, tc.asked)
			}
			results := toolResults(res.Messages)
			if len(results) < 4 {
				t.Fatalf("tool results: got %q, want four", results)
			}
			second := results[2] // git status after load_skill
			switch {
			case len(tc.denied) > 0:
				if !strings.Contains(second, "permission denied: the rule deny") {
					t.Errorf("git status under a deny rule: got %q, want it refused by the rule", second)
				}
			case tc.trusted:
				if strings.Contains(second, "permission denied") {
					t.Errorf("git status after load_skill: got %q, want it run", second)
				}
			default:
				if !strings.Contains(second, "declined") {
					t.Errorf("git status with an untrusted skill: got %q, want it declined by the person", second)
				}
			}
			loaded := res.Messages[slices.IndexFunc(res.Messages, func(m engine.Message) bool { return m.ToolName == "load_skill" })].Text()
			wantPerm := "granted: "
			if !tc.trusted {
				wantPerm = "not granted: this project's folder is not trusted"
			}
			if !strings.Contains(loaded, `"shell_cmd(command=git status *)"`) || !strings.Contains(loaded, wantPerm) {
				t.Errorf("load_skill result should name the rule and say %q: %s", wantPerm, loaded)
			}
		})
	}
}
