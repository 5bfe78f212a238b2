package commands

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/llmrt/llmrt/internal/claudecode"
	"github.com/llmrt/llmrt/internal/frontmatter"
	"github.com/llmrt/llmrt/tools"
)

// Scopes of command roots, lowest precedence first.
const (
	ScopeUserClaude    = "user-claude"    // ~/.claude/commands
	ScopeUser          = "user"           // $XDG_CONFIG_HOME/llmrt/commands
	ScopeProjectClaude = "project-claude" // <project>/.claude/commands
	ScopeProject       = "project"        // <project>/.llmrt/commands
)

const (
	// MaxFileBytes bounds a command file: a prompt, not a data set.
	MaxFileBytes = 256 << 10
	// maxFiles and maxDepth bound the walk of one root.
	maxFiles = 500
	maxDepth = 4
)

// Root is a directory of command files.
type Root struct {
	Dir   string `json:"dir"`
	Scope string `json:"scope"`
}

// RootOptions say where to look for commands.
type RootOptions struct {
	// Home is the user's home directory; ConfigHome is $XDG_CONFIG_HOME
	// (empty: Home/.config).
	Home, ConfigHome string
	// ProjectDirs are the project's directories, the repository root
	// first and the working directory last (config.ProjectDirs).
	ProjectDirs []string
	// Trusted says the project's files apply: without it only the
	// user's commands load.
	Trusted bool
}

// Roots returns the command roots, lowest precedence first: the user's
// (Claude Code's, then llmrt's own), then for each project directory,
// root first, its .claude/commands and its .llmrt/commands. A later root
// wins a name.
func Roots(o RootOptions) []Root {
	var roots []Root
	if o.Home != "" {
		roots = append(roots, Root{Dir: filepath.Join(o.Home, ".claude", "commands"), Scope: ScopeUserClaude})
	}
	config := o.ConfigHome
	if config == "" && o.Home != "" {
		config = filepath.Join(o.Home, ".config")
	}
	if config != "" {
		roots = append(roots, Root{Dir: filepath.Join(config, "llmrt", "commands"), Scope: ScopeUser})
	}
	if o.Trusted {
		roots = append(roots, ProjectRoots(o.ProjectDirs)...)
	}
	return roots
}

// ProjectRoots are the project's command roots alone, lowest precedence
// first: what an untrusted folder would add.
func ProjectRoots(dirs []string) []Root {
	var roots []Root
	for _, d := range dirs {
		roots = append(roots,
			Root{Dir: filepath.Join(d, ".claude", "commands"), Scope: ScopeProjectClaude},
			Root{Dir: filepath.Join(d, ".llmrt", "commands"), Scope: ScopeProject})
	}
	return roots
}

// Command is one custom slash command.
type Command struct {
	// Name is the command without its slash; a subfolder adds a
	// namespace before a colon (frontend:component).
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	ArgumentHint string   `json:"argument_hint,omitempty"`
	AllowedTools []string `json:"allowed_tools,omitempty"`
	Model        string   `json:"model,omitempty"`
	// Path is the file; Scope the kind of root it was found in.
	Path  string `json:"path"`
	Scope string `json:"scope"`
	// Body is the prompt, before expansion.
	Body string `json:"-"`
	// Shadowed are the files of the same name this one wins over.
	Shadowed []string `json:"shadowed,omitempty"`
}

// Catalogue is the commands found in a set of roots.
type Catalogue struct {
	cmds  []Command // by name
	diags []tools.Diagnostic
}

// Commands lists the commands, by name.
func (c *Catalogue) Commands() []Command {
	if c == nil {
		return nil
	}
	return c.cmds
}

// Diagnostics are the files that were skipped, and why.
func (c *Catalogue) Diagnostics() []tools.Diagnostic { return c.diags }

// Names lists the commands' names.
func (c *Catalogue) Names() []string {
	if c == nil {
		return nil
	}
	out := make([]string, len(c.cmds))
	for i, cmd := range c.cmds {
		out[i] = cmd.Name
	}
	return out
}

// Lookup finds a command by name. A name without a namespace also finds
// the one namespaced command it ends, when no other command ends with it
// (Claude Code invokes frontend/component.md as /component).
func (c *Catalogue) Lookup(name string) (Command, bool) {
	if c == nil {
		return Command{}, false
	}
	var found []Command
	for _, cmd := range c.cmds {
		if cmd.Name == name {
			return cmd, true
		}
		if !strings.Contains(name, ":") && strings.HasSuffix(cmd.Name, ":"+name) {
			found = append(found, cmd)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return Command{}, false
}

// segment is what one part of a command's name may hold.
var segment = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// Discover reads the commands of roots, lowest precedence first. builtIn
// reports the names of the chat's own commands: a file named like one is
// skipped with a diagnostic, since a built-in cannot be shadowed. A file
// that cannot be read or parsed is a diagnostic, never an error.
func Discover(roots []Root, builtIn func(string) bool) *Catalogue {
	c := &Catalogue{}
	byName := map[string]int{}
	for _, r := range roots {
		for _, p := range scan(r.Dir, &c.diags) {
			cmd, err := read(r, p)
			if err != nil {
				c.diags = append(c.diags, tools.Diagnostic{Source: p, Message: err.Error()})
				continue
			}
			if builtIn != nil && builtIn(cmd.Name) {
				c.diags = append(c.diags, tools.Diagnostic{Source: p, Message: fmt.Sprintf("/%s is a built-in command and cannot be replaced; rename the file", cmd.Name)})
				continue
			}
			if i, ok := byName[cmd.Name]; ok {
				old := c.cmds[i]
				cmd.Shadowed = append(append(old.Shadowed, old.Path), cmd.Shadowed...)
				c.cmds[i] = cmd
				continue
			}
			byName[cmd.Name] = len(c.cmds)
			c.cmds = append(c.cmds, cmd)
		}
	}
	slices.SortFunc(c.cmds, func(a, b Command) int { return strings.Compare(a.Name, b.Name) })
	return c
}

var errEnough = errors.New("enough command files")

// scan lists the Markdown files below dir, in lexical order, skipping
// hidden directories; a missing dir has none.
func scan(dir string, diags *[]tools.Diagnostic) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && p == dir:
			return fs.SkipAll
		case err != nil:
			return nil // an unreadable corner is left out
		case d.IsDir() && p != dir && (strings.HasPrefix(d.Name(), ".") || strings.Count(p[len(dir):], string(filepath.Separator)) > maxDepth):
			return fs.SkipDir
		case d.IsDir() || !strings.HasSuffix(d.Name(), ".md"):
			return nil
		case len(out) == maxFiles:
			return errEnough
		}
		out = append(out, p)
		return nil
	})
	if errors.Is(err, errEnough) {
		*diags = append(*diags, tools.Diagnostic{Source: dir, Message: fmt.Sprintf("more than %d command files; the rest are not read", maxFiles)})
	}
	return out
}

// frontMatter is the header Claude Code reads from a command file.
type frontMatter struct {
	Description  string `yaml:"description"`
	ArgumentHint any    `yaml:"argument-hint"`
	AllowedTools any    `yaml:"allowed-tools"`
	Model        string `yaml:"model"`
}

// read parses the command file at p of root r.
func read(r Root, p string) (Command, error) {
	rel, err := filepath.Rel(r.Dir, p)
	if err != nil {
		return Command{}, err
	}
	parts := strings.Split(filepath.ToSlash(strings.TrimSuffix(rel, ".md")), "/")
	for _, s := range parts {
		if !segment.MatchString(s) {
			return Command{}, fmt.Errorf("%q cannot be a command name: use letters, digits, '-', '_' and '.' in file and folder names", strings.Join(parts, ":"))
		}
	}
	data, err := readCapped(p)
	if err != nil {
		return Command{}, err
	}
	var fm frontMatter
	body, err := frontmatter.Parse(data, &fm)
	if err != nil {
		return Command{}, err
	}
	cmd := Command{Name: strings.Join(parts, ":"), Description: oneLine(fm.Description), Model: strings.TrimSpace(fm.Model),
		Path: p, Scope: r.Scope, Body: strings.TrimSpace(string(body))}
	if cmd.ArgumentHint, err = hint(fm.ArgumentHint); err != nil {
		return Command{}, err
	}
	if cmd.AllowedTools, err = toolList(fm.AllowedTools); err != nil {
		return Command{}, err
	}
	if cmd.Description == "" {
		first, _, _ := strings.Cut(cmd.Body, "\n")
		cmd.Description = oneLine(strings.TrimLeft(first, "# "))
	}
	return cmd, nil
}

// readCapped reads a command file of at most MaxFileBytes of UTF-8.
func readCapped(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	switch {
	case err != nil:
		return nil, err
	case len(data) > MaxFileBytes:
		return nil, fmt.Errorf("larger than %d KiB; a command is a prompt, keep it shorter", MaxFileBytes>>10)
	case !utf8.Valid(data):
		return nil, errors.New("not UTF-8 text; save the file as UTF-8")
	}
	return data, nil
}

// hint reads argument-hint, which YAML may have parsed as a list
// ([file] [mode]).
func hint(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return oneLine(v), nil
	case []any:
		var parts []string
		for _, p := range v {
			parts = append(parts, "["+fmt.Sprint(p)+"]")
		}
		return strings.Join(parts, " "), nil
	}
	return "", fmt.Errorf("argument-hint: want text such as <file> [mode], got %v", v)
}

// toolList reads allowed-tools: a comma-separated string or a list.
func toolList(v any) ([]string, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		return claudecode.Split(v), nil
	case []any:
		var out []string
		for _, t := range v {
			s, ok := t.(string)
			if !ok {
				return nil, fmt.Errorf("allowed-tools: %v is not a tool name; write e.g. Read, Bash(git status:*)", t)
			}
			out = append(out, claudecode.Split(s)...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("allowed-tools: want a list or a comma-separated string such as Read, Bash(git status:*), got %v", v)
}

// oneLine makes s one line of at most 120 characters.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}
