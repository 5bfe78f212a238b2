package skills

import "path/filepath"

// Scopes of skill roots. At each level (the user's, then each project
// folder's) the shared .agents folder ranks lowest, then Codex's, then
// Claude Code's, and llmrt's own folder highest: a skill put in llmrt's
// folder was meant for llmrt.
const (
	ScopeUserAgents    = "user-agents"    // ~/.agents/skills
	ScopeUserCodex     = "user-codex"     // $CODEX_HOME/skills, ~/.codex/skills
	ScopeUserClaude    = "user-claude"    // ~/.claude/skills
	ScopeUser          = "user"           // $XDG_CONFIG_HOME/llmrt/skills
	ScopeProjectAgents = "project-agents" // <project>/.agents/skills
	ScopeProjectCodex  = "project-codex"  // <project>/.codex/skills
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
	// Trusted says the skills of this root may widen a run's permissions
	// (their allowed-tools). The user's roots and --skills-dir are; a
	// project's only when the project is trusted. A Root built by hand
	// is untrusted unless it says so. Listings leave it out: only a run
	// decides whether its folder is trusted.
	Trusted bool `json:"-"`
}

// RootOptions say where to look for skills. Empty fields skip the roots
// that depend on them.
type RootOptions struct {
	// Home is the user's home directory.
	Home string
	// ConfigHome is $XDG_CONFIG_HOME; empty means Home/.config.
	ConfigHome string
	// CodexHome is $CODEX_HOME; empty means Home/.codex.
	CodexHome string
	// Projects are the project folders of the run, the repository root
	// first and the working directory last; a later one wins over the
	// ones before it.
	Projects []string
	// ProjectTrusted says the project's files may loosen policy, which
	// makes its skill roots Trusted.
	ProjectTrusted bool
	// Extra are the --skills-dir directories, in the order given; each
	// wins over the ones before it.
	Extra []string
}

// Roots returns the skill roots, lowest precedence first: the user's,
// then each project folder's, then Extra. A directory that appears twice
// (a project that is the home directory, a --skills-dir that names a
// standard root) is kept once, at its highest precedence, and trusted if
// either place trusts it.
func Roots(o RootOptions) []Root {
	var dirs []Root
	add := func(dir, scope string, trusted bool) {
		if dir == "" {
			return
		}
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		dirs = append(dirs, Root{Dir: filepath.Clean(dir), Scope: scope, Trusted: trusted})
	}
	config := o.ConfigHome
	if config == "" && o.Home != "" {
		config = filepath.Join(o.Home, ".config")
	}
	codex := o.CodexHome
	if codex == "" && o.Home != "" {
		codex = filepath.Join(o.Home, ".codex")
	}
	if o.Home != "" {
		add(filepath.Join(o.Home, ".agents", "skills"), ScopeUserAgents, true)
	}
	if codex != "" {
		add(filepath.Join(codex, "skills"), ScopeUserCodex, true)
	}
	if o.Home != "" {
		add(filepath.Join(o.Home, ".claude", "skills"), ScopeUserClaude, true)
	}
	if config != "" {
		add(filepath.Join(config, "llmrt", "skills"), ScopeUser, true)
	}
	for _, p := range o.Projects {
		if p == "" {
			continue
		}
		add(filepath.Join(p, ".agents", "skills"), ScopeProjectAgents, o.ProjectTrusted)
		add(filepath.Join(p, ".codex", "skills"), ScopeProjectCodex, o.ProjectTrusted)
		add(filepath.Join(p, ".claude", "skills"), ScopeProjectClaude, o.ProjectTrusted)
		add(filepath.Join(p, ".llmrt", "skills"), ScopeProject, o.ProjectTrusted)
	}
	for _, d := range o.Extra {
		add(d, ScopeFlag, true)
	}
	last := make(map[string]int, len(dirs))
	trusted := make(map[string]bool, len(dirs))
	for i, r := range dirs {
		last[r.Dir] = i
		trusted[r.Dir] = trusted[r.Dir] || r.Trusted
	}
	roots := make([]Root, 0, len(dirs))
	for i, r := range dirs {
		if last[r.Dir] != i {
			continue
		}
		r.Precedence = len(roots)
		r.Trusted = trusted[r.Dir]
		roots = append(roots, r)
	}
	return roots
}
