package skills

import (
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
			opts: RootOptions{Home: home, ConfigHome: "/cfg", Project: proj, Extra: []string{extra, "/y"}},
			want: []Root{
				{Dir: "/cfg/llmrt/skills", Scope: ScopeUser},
				{Dir: "/h/.claude/skills", Scope: ScopeUserClaude},
				{Dir: "/p/.claude/skills", Scope: ScopeProjectClaude},
				{Dir: "/p/.llmrt/skills", Scope: ScopeProject},
				{Dir: "/x", Scope: ScopeFlag},
				{Dir: "/y", Scope: ScopeFlag},
			},
		},
		{
			name: "config home defaults to ~/.config",
			opts: RootOptions{Home: home},
			want: []Root{
				{Dir: "/h/.config/llmrt/skills", Scope: ScopeUser},
				{Dir: "/h/.claude/skills", Scope: ScopeUserClaude},
			},
		},
		{
			name: "project in the home directory: ~/.claude/skills kept once, as project",
			opts: RootOptions{Home: home, Project: home},
			want: []Root{
				{Dir: "/h/.config/llmrt/skills", Scope: ScopeUser},
				{Dir: "/h/.claude/skills", Scope: ScopeProjectClaude},
				{Dir: "/h/.llmrt/skills", Scope: ScopeProject},
			},
		},
		{
			name: "a --skills-dir naming a standard root moves it up",
			opts: RootOptions{Project: proj, Extra: []string{"/p/.claude/skills/", "/z"}},
			want: []Root{
				{Dir: "/p/.llmrt/skills", Scope: ScopeProject},
				{Dir: "/p/.claude/skills", Scope: ScopeFlag},
				{Dir: "/z", Scope: ScopeFlag},
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
