package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/llmrt/llmrt/engine"
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
