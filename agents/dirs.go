package agents

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Format is the kind of file a directory holds.
type Format string

// The formats of agent files.
const (
	FormatClaude Format = "claude" // .claude/agents/*.md, Claude Code's
	FormatLLMRT  Format = "llmrt"  // .llmrt/agents/*.md, llmrt's own
	FormatCodex  Format = "codex"  // .codex/agents/*.toml, Codex's
)

// Scopes of agent directories.
const (
	ScopeUser    = "user"
	ScopeProject = "project"
)

// Dir is one directory of agent files.
type Dir struct {
	Path   string `json:"path"`
	Scope  string `json:"scope"`
	Format Format `json:"format"`
}

// DirOptions say where to look for agents. Empty fields skip the
// directories that depend on them.
type DirOptions struct {
	// Home is the user's home directory.
	Home string
	// ConfigHome is $XDG_CONFIG_HOME; empty means Home/.config.
	ConfigHome string
	// Project lists the project's directories, the repository root first
	// and the working directory last (config.ProjectDirs).
	Project []string
	// Trusted says the project's agent files may be used: without it only
	// the user's directories are returned.
	Trusted bool
}

// Dirs returns the agent directories, lowest precedence first: the
// user's (~/.codex/agents, ~/.claude/agents, $XDG_CONFIG_HOME/llmrt/agents),
// then for each project directory from the repository root down to the
// working directory its .codex/agents, .claude/agents and .llmrt/agents.
// A later directory's agent replaces an earlier one of the same name, so
// the project wins over the user, a nearer directory over a farther one
// and llmrt's own files over Claude Code's and Codex's at the same level.
func Dirs(o DirOptions) []Dir {
	var dirs []Dir
	add := func(path, scope string, f Format) {
		path = filepath.Clean(path)
		if i := slices.IndexFunc(dirs, func(d Dir) bool { return d.Path == path }); i >= 0 {
			dirs = slices.Delete(dirs, i, i+1) // a home that is the project: keep the later
		}
		dirs = append(dirs, Dir{Path: path, Scope: scope, Format: f})
	}
	config := o.ConfigHome
	if config == "" && o.Home != "" {
		config = filepath.Join(o.Home, ".config")
	}
	if o.Home != "" {
		add(filepath.Join(o.Home, ".codex", "agents"), ScopeUser, FormatCodex)
		add(filepath.Join(o.Home, ".claude", "agents"), ScopeUser, FormatClaude)
	}
	if config != "" {
		add(filepath.Join(config, "llmrt", "agents"), ScopeUser, FormatLLMRT)
	}
	if o.Trusted {
		for _, p := range o.Project {
			add(filepath.Join(p, ".codex", "agents"), ScopeProject, FormatCodex)
			add(filepath.Join(p, ".claude", "agents"), ScopeProject, FormatClaude)
			add(filepath.Join(p, ".llmrt", "agents"), ScopeProject, FormatLLMRT)
		}
	}
	return dirs
}

// ProjectFiles lists the agent files of the project directories, as Dirs
// would find them with Trusted set: what trusting the folder would add.
func ProjectFiles(project []string) []string {
	var out []string
	for _, d := range Dirs(DirOptions{Project: project, Trusted: true}) {
		files, _ := d.files()
		out = append(out, files...)
	}
	return out
}

// files lists the directory's agent files in name order. A directory that
// does not exist has none.
func (d Dir) files() ([]string, error) {
	entries, err := os.ReadDir(d.Path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ext := ".md"
	if d.Format == FormatCodex {
		ext = ".toml"
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ext) || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		out = append(out, filepath.Join(d.Path, e.Name()))
	}
	return out, nil
}
