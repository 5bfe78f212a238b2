package skills

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/llmrt/llmrt/internal/claudecode"
	"github.com/llmrt/llmrt/internal/frontmatter"
)

// FileName is the name of the file that makes a directory a skill.
const FileName = "SKILL.md"

// MaxFileBytes is the largest SKILL.md accepted. Skill instructions are
// meant to be short; a bigger file is almost certainly not a skill and
// would swamp the model's context if loaded.
const MaxFileBytes = 256 * 1024

// maxNameLen and maxDescriptionLen follow the Agent Skills limits.
const (
	maxNameLen        = 64
	maxDescriptionLen = 1024
)

// validName is what a skill name may look like: it is passed back as the
// skill_id argument of load_skill, so it must be a plain token.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)

// frontMatter is the YAML header of a SKILL.md. Keys other tools define
// (license, model, ...) are accepted and ignored.
type frontMatter struct {
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"`
	Metadata    yaml.Node `yaml:"metadata"`
	// AllowedTools is Claude Code's list of tools the skill may use
	// without asking: a string ("Read, Bash(git status:*)") or a list.
	AllowedTools yaml.Node `yaml:"allowed-tools"`
}

// document is a parsed SKILL.md.
type document struct {
	name, description string
	metadata          map[string]string
	body              string
	// allowedTools are the allowed-tools entries as written; rules the
	// llmrt allow rules they map to.
	allowedTools, rules []string
	// warning is a problem that does not disqualify the skill (metadata
	// of the wrong shape, allowed-tools entries llmrt cannot map).
	warning string
}

// readDocument reads and parses the SKILL.md at path.
func readDocument(path string) (document, error) {
	f, err := os.Open(path)
	if err != nil {
		return document{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return document{}, err
	}
	if len(data) > MaxFileBytes {
		return document{}, fmt.Errorf("file is larger than %d KiB", MaxFileBytes/1024)
	}
	return parseDocument(data)
}

// parseDocument splits a SKILL.md into front matter and body and checks
// the required fields.
func parseDocument(data []byte) (document, error) {
	if !utf8.Valid(data) {
		return document{}, errors.New("file is not valid UTF-8")
	}
	head, body, err := splitFrontMatter(data)
	if err != nil {
		return document{}, err
	}
	var fm frontMatter
	if err := yaml.Unmarshal(head, &fm); err != nil {
		return document{}, fmt.Errorf("front matter (YAML from line 2): %w", err)
	}
	doc := document{
		name:        strings.TrimSpace(fm.Name),
		description: strings.TrimSpace(fm.Description),
		body:        strings.TrimSpace(string(body)),
	}
	switch {
	case doc.name == "":
		return document{}, errors.New("front matter has no name")
	case len(doc.name) > maxNameLen:
		return document{}, fmt.Errorf("name %.20q... is longer than %d characters", doc.name, maxNameLen)
	case !validName.MatchString(doc.name):
		return document{}, fmt.Errorf("name %q may hold only letters, digits, '.', '_', ':' and '-'", doc.name)
	case doc.description == "":
		return document{}, fmt.Errorf("front matter of skill %q has no description", doc.name)
	}
	var warnings []string
	if fm.Metadata.Kind != 0 {
		if err := fm.Metadata.Decode(&doc.metadata); err != nil {
			warnings = append(warnings, fmt.Sprintf("metadata ignored: want a map of strings: %v", err))
			doc.metadata = nil
		}
	}
	if fm.AllowedTools.Kind != 0 {
		entries, err := decodeAllowedTools(&fm.AllowedTools)
		if err != nil {
			warnings = append(warnings, "allowed-tools ignored: "+err.Error())
		}
		var skipped []string
		doc.allowedTools = entries
		doc.rules, skipped = claudecode.AllowRules(entries)
		warnings = append(warnings, skipped...)
	}
	doc.warning = strings.Join(warnings, "; ")
	return doc, nil
}

// decodeAllowedTools reads allowed-tools written as one string of entries
// or as a list of them.
func decodeAllowedTools(n *yaml.Node) ([]string, error) {
	var one string
	if n.Kind == yaml.ScalarNode && n.Decode(&one) == nil {
		return claudecode.Split(one), nil
	}
	var list []string
	if err := n.Decode(&list); err != nil {
		return nil, fmt.Errorf("want a string such as \"Read, Bash(git status:*)\" or a list of such entries: %v", err)
	}
	var out []string
	for _, e := range list {
		out = append(out, claudecode.Split(e)...)
	}
	return out, nil
}

// splitFrontMatter returns the YAML between the opening and closing "---"
// lines and the Markdown after them; a skill must have them.
func splitFrontMatter(data []byte) (head, body []byte, err error) {
	return frontmatter.Split(data)
}
