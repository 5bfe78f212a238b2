package agents

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/llmrt/llmrt/internal/frontmatter"
	"github.com/llmrt/llmrt/tools"
)

// MaxFileSize caps an agent file; a larger one is refused with a
// diagnostic, so a stray log file cannot become a system prompt.
const MaxFileSize = 256 << 10

// Agent is one agent definition, its tools and model already in llmrt's
// terms.
type Agent struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Instructions are the agent's system prompt: the file's body (or
	// Codex's developer_instructions).
	Instructions string `json:"instructions"`
	// Tools are llmrt tool names; nil means every tool of the run that
	// starts the agent.
	Tools []string `json:"tools"`
	// Provider is the provider the agent runs on; empty means the
	// parent's. Only llmrt's own files name one.
	Provider string `json:"provider,omitempty"`
	// Model is the model; empty means the parent's.
	Model  string `json:"model,omitempty"`
	Scope  string `json:"scope"`
	Format Format `json:"format"`
	Path   string `json:"path"`
}

// LoadOptions say how to read the files.
type LoadOptions struct {
	// Provider is the provider the host runs on, for Claude Code's model
	// aliases: sonnet, opus and haiku name Anthropic models, which only
	// mean something on anthropic; elsewhere the agent inherits the model.
	Provider string
}

// Load reads the agents of dirs (lowest precedence first, as Dirs returns
// them); a later directory's agent replaces an earlier one of the same
// name. The list is sorted by name. Files that cannot be used, and tools
// or fields that do not carry over, are diagnostics naming the file.
func Load(dirs []Dir, o LoadOptions) ([]Agent, []tools.Diagnostic) {
	byName := map[string]Agent{}
	var diags []tools.Diagnostic
	for _, d := range dirs {
		files, err := d.files()
		if err != nil {
			diags = append(diags, tools.Diagnostic{Source: d.Path, Message: fmt.Sprintf("agent directory not read: %v", err)})
			continue
		}
		for _, f := range files {
			a, notes, err := parseFile(f, d, o)
			for _, n := range notes {
				diags = append(diags, tools.Diagnostic{Source: f, Message: n})
			}
			if err != nil {
				diags = append(diags, tools.Diagnostic{Source: f, Message: "agent ignored: " + err.Error()})
				continue
			}
			byName[a.Name] = a
		}
	}
	out := make([]Agent, 0, len(byName))
	for _, a := range byName {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b Agent) int { return strings.Compare(a.Name, b.Name) })
	return out, diags
}

// header is the front matter of Claude Code's and llmrt's files. Tools
// may be a comma-separated string or a YAML list.
type header struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Tools       any    `yaml:"tools"`
	Model       string `yaml:"model"`
	Provider    string `yaml:"provider"`
}

// codexFile is a Codex custom agent.
type codexFile struct {
	Name                  string `toml:"name"`
	Description           string `toml:"description"`
	DeveloperInstructions string `toml:"developer_instructions"`
	Model                 string `toml:"model"`
}

// parseFile reads one agent file; notes are what did not carry over.
func parseFile(path string, d Dir, o LoadOptions) (a Agent, notes []string, err error) {
	data, err := readCapped(path)
	if err != nil {
		return a, nil, err
	}
	a = Agent{Scope: d.Scope, Format: d.Format, Path: path}
	if d.Format == FormatCodex {
		var c codexFile
		if _, err := toml.Decode(string(data), &c); err != nil {
			return a, nil, fmt.Errorf("TOML: %v", err)
		}
		a.Name, a.Description, a.Instructions, a.Model = c.Name, c.Description, c.DeveloperInstructions, c.Model
		return a, nil, check(a, path)
	}
	var h header
	body, err := frontmatter.Parse(data, &h)
	if err != nil {
		return a, nil, err
	}
	a.Name, a.Description, a.Provider = strings.TrimSpace(h.Name), strings.TrimSpace(h.Description), strings.TrimSpace(h.Provider)
	a.Instructions = strings.TrimSpace(string(body))
	names, err := toolList(h.Tools)
	if err != nil {
		return a, nil, err
	}
	if d.Format == FormatClaude {
		if a.Provider != "" {
			notes = append(notes, "provider is llmrt's own field; in .claude/agents it is ignored (move the file to .llmrt/agents to use it)")
			a.Provider = ""
		}
		var dropped []string
		a.Tools, dropped = MapTools(names)
		if len(dropped) > 0 {
			notes = append(notes, fmt.Sprintf("tools without an llmrt equivalent are left out: %s", strings.Join(dropped, ", ")))
		}
		a.Model = MapModel(strings.TrimSpace(h.Model), o.Provider)
	} else {
		a.Tools = names
		a.Model = strings.TrimSpace(h.Model)
		if a.Model == "inherit" {
			a.Model = ""
		}
	}
	return a, notes, check(a, path)
}

// check refuses a definition the model could not choose.
func check(a Agent, path string) error {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	switch {
	case a.Name == "":
		return fmt.Errorf("no name: add name: %s to the front matter", base)
	case strings.ContainsAny(a.Name, " \t\n,"):
		return fmt.Errorf("name %q has spaces or commas: use lower-case letters and hyphens, e.g. %s", a.Name, base)
	case a.Description == "":
		return fmt.Errorf("agent %q has no description: add one saying when to use it", a.Name)
	}
	return nil
}

// readCapped reads a regular file of at most MaxFileSize bytes holding
// UTF-8 text.
func readCapped(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("%d bytes is more than the %d KiB an agent file may hold", st.Size(), MaxFileSize>>10)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("more than the %d KiB an agent file may hold", MaxFileSize>>10)
	}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, fmt.Errorf("not UTF-8 text: save it as UTF-8")
	}
	return data, nil
}

// toolList reads the tools field: absent (nil: all tools), a
// comma-separated string, or a list of strings.
func toolList(v any) ([]string, error) {
	var raw []string
	switch t := v.(type) {
	case nil:
		return nil, nil
	case string:
		raw = strings.Split(t, ",")
	case []any:
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("tools: %v is not a tool name; write tools: Read, Grep or a list of names", e)
			}
			raw = append(raw, s)
		}
	default:
		return nil, fmt.Errorf("tools: want a comma-separated list of tool names, got %v", v)
	}
	out := []string{}
	for _, s := range raw {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, nil
}
