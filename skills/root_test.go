package skills

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestRoots(t *testing.T) {
	home, proj, extra := "/h", "/p", "/x"
	tests := []struct {
		name string
		opts RootOptions
		want []Root
	}{
		{
			name: "all roots, lowest precedence first",
			opts: RootOptions{Home: home, ConfigHome: "/cfg", Projects: []string{proj}, ProjectTrusted: true, Extra: []string{extra, "/y"}},
			want: []Root{
				{Dir: "/h/.agents/skills", Scope: ScopeUserAgents, Trusted: true},
				{Dir: "/h/.codex/skills", Scope: ScopeUserCodex, Trusted: true},
				{Dir: "/h/.claude/skills", Scope: ScopeUserClaude, Trusted: true},
				{Dir: "/cfg/llmrt/skills", Scope: ScopeUser, Trusted: true},
				{Dir: "/p/.agents/skills", Scope: ScopeProjectAgents, Trusted: true},
				{Dir: "/p/.codex/skills", Scope: ScopeProjectCodex, Trusted: true},
				{Dir: "/p/.claude/skills", Scope: ScopeProjectClaude, Trusted: true},
				{Dir: "/p/.llmrt/skills", Scope: ScopeProject, Trusted: true},
				{Dir: "/x", Scope: ScopeFlag, Trusted: true},
				{Dir: "/y", Scope: ScopeFlag, Trusted: true},
			},
		},
		{
			name: "config home defaults to ~/.config; CODEX_HOME replaces ~/.codex",
			opts: RootOptions{Home: home, CodexHome: "/ch"},
			want: []Root{
				{Dir: "/h/.agents/skills", Scope: ScopeUserAgents, Trusted: true},
				{Dir: "/ch/skills", Scope: ScopeUserCodex, Trusted: true},
				{Dir: "/h/.claude/skills", Scope: ScopeUserClaude, Trusted: true},
				{Dir: "/h/.config/llmrt/skills", Scope: ScopeUser, Trusted: true},
			},
		},
		{
			name: "project folders from the repository root down: the nearer wins, each tool's folders in turn",
			opts: RootOptions{Projects: []string{"/r", "/r/pkg"}},
			want: []Root{
				{Dir: "/r/.agents/skills", Scope: ScopeProjectAgents},
				{Dir: "/r/.codex/skills", Scope: ScopeProjectCodex},
				{Dir: "/r/.claude/skills", Scope: ScopeProjectClaude},
				{Dir: "/r/.llmrt/skills", Scope: ScopeProject},
				{Dir: "/r/pkg/.agents/skills", Scope: ScopeProjectAgents},
				{Dir: "/r/pkg/.codex/skills", Scope: ScopeProjectCodex},
				{Dir: "/r/pkg/.claude/skills", Scope: ScopeProjectClaude},
				{Dir: "/r/pkg/.llmrt/skills", Scope: ScopeProject},
			},
		},
		{
			name: "project in the home directory: the user roots kept once, as project, still trusted",
			opts: RootOptions{Home: home, Projects: []string{home}},
			want: []Root{
				{Dir: "/h/.config/llmrt/skills", Scope: ScopeUser, Trusted: true},
				{Dir: "/h/.agents/skills", Scope: ScopeProjectAgents, Trusted: true},
				{Dir: "/h/.codex/skills", Scope: ScopeProjectCodex, Trusted: true},
				{Dir: "/h/.claude/skills", Scope: ScopeProjectClaude, Trusted: true},
				{Dir: "/h/.llmrt/skills", Scope: ScopeProject},
			},
		},
		{
			name: "a --skills-dir naming a standard root moves it up",
			opts: RootOptions{Projects: []string{proj}, Extra: []string{"/p/.claude/skills/", "/z"}},
			want: []Root{
				{Dir: "/p/.agents/skills", Scope: ScopeProjectAgents},
				{Dir: "/p/.codex/skills", Scope: ScopeProjectCodex},
				{Dir: "/p/.llmrt/skills", Scope: ScopeProject},
				{Dir: "/p/.claude/skills", Scope: ScopeFlag, Trusted: true},
				{Dir: "/z", Scope: ScopeFlag, Trusted: true},
			},
		},
		{name: "nothing known, no roots", opts: RootOptions{}, want: []Root{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.want {
				tt.want[i].Dir = filepath.FromSlash(tt.want[i].Dir)
				tt.want[i].Precedence = i
			}
			if got := Roots(tt.opts); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Roots(%+v):\ngot  %+v\nwant %+v", tt.opts, got, tt.want)
			}
		})
	}
}

func TestRootsMakesRelativeDirsAbsolute(t *testing.T) {
	got := Roots(RootOptions{Extra: []string{"rel/skills"}})
	if len(got) != 1 || !filepath.IsAbs(got[0].Dir) {
		t.Fatalf("Roots with a relative --skills-dir: got %+v, want one absolute root", got)
	}
}

// TestDiscoverAcrossToolsAndFolders: a skill of one name in every kind of
// root resolves as the precedence says: project over user, llmrt's own
// folder over Claude Code's and Codex's at the same level, a nearer
// project folder over the repository root's, --skills-dir over all.
func TestDiscoverAcrossToolsAndFolders(t *testing.T) {
	base := t.TempDir()
	home, repo := filepath.Join(base, "home"), filepath.Join(base, "repo")
	sub := filepath.Join(repo, "pkg", "x")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	put := func(dir, name, from string) {
		writeSkill(t, dir, name, skillMD(name, "from "+from, ""), nil)
	}
	put(filepath.Join(home, ".codex", "skills"), "codex-user", "codex user")
	put(filepath.Join(home, ".agents", "skills"), "agents-user", "agents user")
	put(filepath.Join(repo, ".agents", "skills"), "agents-repo", "agents repo")
	put(filepath.Join(repo, ".codex", "skills"), "codex-repo", "codex repo")
	// "user" is in every user root: llmrt's own wins.
	for _, d := range []string{".agents/skills", ".codex/skills", ".claude/skills", ".config/llmrt/skills"} {
		put(filepath.Join(home, filepath.FromSlash(d)), "user", d)
	}
	// "level" is in the user's llmrt root and the repository's Codex
	// root: the project wins.
	put(filepath.Join(home, ".config", "llmrt", "skills"), "level", "user llmrt")
	put(filepath.Join(repo, ".codex", "skills"), "level", "repo codex")
	// "near" is in the repository root's llmrt folder and the working
	// directory's Claude folder: the nearer folder wins.
	put(filepath.Join(repo, ".llmrt", "skills"), "near", "repo llmrt")
	put(filepath.Join(sub, ".claude", "skills"), "near", "sub claude")
	// "same" is in one folder's Claude and llmrt roots: llmrt's wins.
	put(filepath.Join(repo, ".claude", "skills"), "same", "repo claude")
	put(filepath.Join(repo, ".llmrt", "skills"), "same", "repo llmrt")
	flag := filepath.Join(base, "flag")
	put(flag, "near", "flag")

	c := Discover(Roots(RootOptions{Home: home, Projects: []string{repo, filepath.Join(repo, "pkg"), sub}}))
	if d := c.Diagnostics(); len(d) != 0 {
		t.Fatalf("diagnostics: got %+v, want none", d)
	}
	want := map[string]string{
		"codex-user": "from codex user", "agents-user": "from agents user",
		"agents-repo": "from agents repo", "codex-repo": "from codex repo",
		"user": "from .config/llmrt/skills", "level": "from repo codex",
		"near": "from sub claude", "same": "from repo llmrt",
	}
	for name, desc := range want {
		s, ok := c.Lookup(name)
		if !ok {
			t.Errorf("%s: not found among %v", name, c.Names())
			continue
		}
		if s.Description != desc {
			t.Errorf("%s: got the skill %q (%s), want %q", name, s.Description, s.Path, desc)
		}
	}
	c = Discover(Roots(RootOptions{Home: home, Projects: []string{repo, sub}, Extra: []string{flag}}))
	if s, _ := c.Lookup("near"); s.Description != "from flag" {
		t.Errorf("near with --skills-dir: got %q, want the --skills-dir skill", s.Description)
	}
}
