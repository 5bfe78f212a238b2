package skills

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"syscall"

	"github.com/llmrt/llmrt/tools"
)

// Skill is one discovered skill.
type Skill struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Metadata    map[string]string `json:"metadata,omitempty"`
	// AllowedTools are the entries of the skill's allowed-tools, as
	// written; AllowRules the llmrt allow rules they map to, which a run
	// adds once the model loads the skill (when its root is Trusted).
	AllowedTools []string `json:"allowed_tools,omitempty"`
	AllowRules   []string `json:"allow_rules,omitempty"`
	// Path is the SKILL.md file; Dir the skill's directory, which
	// load_skill makes readable.
	Path string `json:"path"`
	Dir  string `json:"dir"`
	// Root is the root the skill was found under.
	Root Root `json:"root"`
	// Shadowed are skills of the same name from roots of lower
	// precedence, which this one replaces.
	Shadowed []Shadowed `json:"shadowed,omitempty"`
}

// Shadowed is a skill replaced by one of the same name from a root of
// higher precedence.
type Shadowed struct {
	Path string `json:"path"`
	Root Root   `json:"root"`
}

// Discover finds the skills under roots. Where two roots hold a skill of
// the same name, the one from the root of higher Precedence wins; between
// roots of equal precedence the later one in roots does, so the roots of
// Roots, lowest precedence first, need no ranking. A root that does not
// exist is skipped silently: most runs have no skills, and looking costs
// one failed directory read per root. Every other problem is a diagnostic
// naming the file.
func Discover(roots []Root) *Catalogue {
	c := &Catalogue{}
	byName := make(map[string]int)
	roots = slices.Clone(roots)
	slices.SortStableFunc(roots, func(a, b Root) int { return cmp.Compare(a.Precedence, b.Precedence) })
	for _, root := range roots {
		found, diags := scanRoot(root)
		c.diags = append(c.diags, diags...)
		for _, s := range found {
			i, dup := byName[s.Name]
			if !dup {
				byName[s.Name] = len(c.skills)
				c.skills = append(c.skills, s)
				continue
			}
			old := c.skills[i]
			s.Shadowed = append(old.Shadowed, Shadowed{Path: old.Path, Root: old.Root})
			c.skills[i] = s
		}
	}
	sort.Slice(c.skills, func(i, j int) bool { return c.skills[i].Name < c.skills[j].Name })
	c.seal()
	return c
}

// scanRoot reads the skills directly below one root, in directory order.
func scanRoot(root Root) ([]Skill, []tools.Diagnostic) {
	entries, err := os.ReadDir(root.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []tools.Diagnostic{{Source: root.Dir, Message: fmt.Sprintf("skill root not read: %v", err)}}
	}
	var (
		found []Skill
		diags []tools.Diagnostic
		seen  = make(map[string]string)
	)
	for _, e := range entries {
		if !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
			continue // a stray file next to the skills
		}
		s, err := readSkill(root, filepath.Join(root.Dir, e.Name()))
		switch {
		case errors.Is(err, errNotSkill):
			continue
		case err != nil:
			diags = append(diags, tools.Diagnostic{Source: s.Path, Message: "skill ignored: " + err.Error()})
			continue
		}
		if first, dup := seen[s.Name]; dup {
			diags = append(diags, tools.Diagnostic{Source: s.Path, Message: fmt.Sprintf("skill ignored: %s in the same directory already defines %q", first, s.Name)})
			continue
		}
		seen[s.Name] = s.Path
		if s.warning != "" {
			diags = append(diags, tools.Diagnostic{Source: s.Path, Message: s.warning})
		}
		found = append(found, s.Skill)
	}
	return found, diags
}

// errNotSkill marks a directory without a SKILL.md.
var errNotSkill = errors.New("not a skill")

// parsedSkill is a skill with the warning its file raised, if any.
type parsedSkill struct {
	Skill
	warning string
}

// readSkill reads the skill in dir. The returned Path is set even on
// error, so diagnostics can name the file.
func readSkill(root Root, dir string) (parsedSkill, error) {
	path := filepath.Join(dir, FileName)
	s := parsedSkill{Skill: Skill{Path: path, Dir: dir, Root: root}}
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return s, errNotSkill // no SKILL.md, or a symlink to a file
	}
	if err != nil {
		return s, err
	}
	if !info.Mode().IsRegular() {
		return s, errors.New("not a regular file")
	}
	doc, err := readDocument(path)
	if err != nil {
		return s, err
	}
	s.Name, s.Description, s.Metadata, s.warning = doc.name, doc.description, doc.metadata, doc.warning
	s.AllowedTools, s.AllowRules = doc.allowedTools, doc.rules
	return s, nil
}
