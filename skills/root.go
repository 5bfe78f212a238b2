package skills

import "path/filepath"

// Scopes of skill roots, lowest precedence first.
const (
	ScopeUser          = "user"           // $XDG_CONFIG_HOME/llmrt/skills
	ScopeUserClaude    = "user-claude"    // ~/.claude/skills
	ScopeProjectClaude = "project-claude" // <project>/.claude/skills
	ScopeProject       = "project"        // <project>/.llmrt/skills
	ScopeFlag          = "flag"           // --skills-dir
)

// Root is one directory whose subdirectories are skills.
type Root struct {
	Dir   string `json:"dir"`
	Scope string `json:"scope"`
	// Precedence ranks roots for Discover: a skill from a root with a
	// higher precedence replaces one of the same name from a lower one.
	// Roots numbers its roots 0, 1, 2, ... in the order it returns them.
	Precedence int `json:"precedence"`
}

// RootOptions say where to look for skills. Empty fields skip the roots
// that depend on them.
type RootOptions struct {
	// Home is the user's home directory.
	Home string
	// ConfigHome is $XDG_CONFIG_HOME; empty means Home/.config.
	ConfigHome string
	// Project is the project directory (the run's working directory).
	Project string
	// Extra are the --skills-dir directories, in the order given; each
	// wins over the ones before it.
	Extra []string
}

// Roots returns the skill roots, lowest precedence first. A directory that
// appears twice (a project that is the home directory, a --skills-dir that
// names a standard root) is kept once, at its highest precedence.
func Roots(o RootOptions) []Root {
	var dirs []Root
	add := func(dir, scope string) {
		if dir == "" {
			return
		}
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		dirs = append(dirs, Root{Dir: filepath.Clean(dir), Scope: scope})
	}
	config := o.ConfigHome
	if config == "" && o.Home != "" {
		config = filepath.Join(o.Home, ".config")
	}
	if config != "" {
		add(filepath.Join(config, "llmrt", "skills"), ScopeUser)
	}
	if o.Home != "" {
		add(filepath.Join(o.Home, ".claude", "skills"), ScopeUserClaude)
	}
	if o.Project != "" {
		add(filepath.Join(o.Project, ".claude", "skills"), ScopeProjectClaude)
		add(filepath.Join(o.Project, ".llmrt", "skills"), ScopeProject)
	}
	for _, d := range o.Extra {
		add(d, ScopeFlag)
	}
	last := make(map[string]int, len(dirs))
	for i, r := range dirs {
		last[r.Dir] = i
	}
	roots := make([]Root, 0, len(dirs))
	for i, r := range dirs {
		if last[r.Dir] != i {
			continue
		}
		r.Precedence = len(roots)
		roots = append(roots, r)
	}
	return roots
}
