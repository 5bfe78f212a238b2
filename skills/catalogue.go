package skills

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/llmrt/llmrt/tools"
)

// Catalogue is the set of skills a run can use. It is immutable once
// built by Discover and safe for concurrent use.
//
// It serves the engine as a tool source: Tools, Instructions and
// Diagnostics match the engine's ToolSource, Instructor and Diagnoser
// interfaces structurally (the engine imports this package, not the
// other way round).
type Catalogue struct {
	skills []Skill // sorted by name, one per name
	diags  []tools.Diagnostic
	// tools and text are built once: the engine polls its sources before
	// every model call and rebuilds a run's tool surface only when a
	// source returns a different slice or different instructions.
	tools []tools.Tool
	text  string
}

// Skills returns the skills, sorted by name.
func (c *Catalogue) Skills() []Skill { return c.skills }

// Len returns the number of skills.
func (c *Catalogue) Len() int { return len(c.skills) }

// Lookup returns the skill called name.
func (c *Catalogue) Lookup(name string) (Skill, bool) {
	for _, s := range c.skills {
		if s.Name == name {
			return s, true
		}
	}
	return Skill{}, false
}

// Names returns the skill names, sorted.
func (c *Catalogue) Names() []string {
	names := make([]string, len(c.skills))
	for i, s := range c.skills {
		names[i] = s.Name
	}
	return names
}

// Diagnostics returns the problems found while discovering skills: files
// that do not parse, duplicate names within a root, unreadable roots.
func (c *Catalogue) Diagnostics() []tools.Diagnostic { return c.diags }

// Tools returns the load_skill tool, or nothing when there are no skills.
func (c *Catalogue) Tools(context.Context) ([]tools.Tool, error) { return c.tools, nil }

// Instructions returns the catalogue text for the managed system prompt:
// each skill's name and description. It is empty when there are no skills.
func (c *Catalogue) Instructions() string { return c.text }

// The catalogue in the system prompt is bounded, so a machine with
// thousands of skills does not put megabytes into every request: at most
// MaxCatalogueSkills entries and MaxCatalogueBytes of them. Skills from
// the most specific roots go in first (the highest Root.Precedence:
// --skills-dir, then the project's, then the user's), by name within a
// root; the rest are left out of the prompt, named in a diagnostic, and
// still listed by `llmrt skills` and loaded by load_skill.
const (
	// MaxCatalogueSkills is the most skills the catalogue lists.
	MaxCatalogueSkills = 100
	// MaxCatalogueBytes is the most bytes its entries take.
	MaxCatalogueBytes = 16 << 10
)

// seal builds what Tools and Instructions return, and the diagnostic
// naming the skills the catalogue leaves out.
func (c *Catalogue) seal() {
	if len(c.skills) == 0 {
		return
	}
	c.tools = []tools.Tool{c.loadTool()}
	listed, left := c.budget()
	c.text = c.catalogueText(listed, len(left))
	if len(left) > 0 {
		c.diags = append(c.diags, leftOut(len(listed), left))
	}
}

// budget splits the skills into those the catalogue lists (by name) and
// those it leaves out (most specific root first).
func (c *Catalogue) budget() (listed, left []Skill) {
	order := slices.Clone(c.skills)
	slices.SortStableFunc(order, func(a, b Skill) int { return cmp.Compare(b.Root.Precedence, a.Root.Precedence) })
	used := 0
	for i, s := range order {
		n := len(entry(s))
		if len(listed) == MaxCatalogueSkills || used+n > MaxCatalogueBytes {
			left = order[i:]
			break
		}
		listed = append(listed, s)
		used += n
	}
	slices.SortFunc(listed, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	return listed, left
}

// leftOut is the diagnostic naming the skills left out of the catalogue:
// how many from each root, and the first few names.
func leftOut(listed int, left []Skill) tools.Diagnostic {
	var roots []string
	perRoot := map[string]int{}
	for _, s := range left {
		if perRoot[s.Root.Dir] == 0 {
			roots = append(roots, s.Root.Dir)
		}
		perRoot[s.Root.Dir]++
	}
	var from []string
	for _, r := range roots {
		from = append(from, fmt.Sprintf("%d from %s", perRoot[r], r))
	}
	names := make([]string, 0, 5)
	for _, s := range left[:min(len(left), 5)] {
		names = append(names, s.Name)
	}
	if len(left) > len(names) {
		names = append(names, "…")
	}
	return tools.Diagnostic{Source: "skills", Message: fmt.Sprintf(
		"the system prompt lists %d of %d skills (at most %d, %d KB): %d left out (%s: %s); load_skill still loads them by name and `llmrt skills` lists them all",
		listed, listed+len(left), MaxCatalogueSkills, MaxCatalogueBytes>>10, len(left), strings.Join(from, ", "), strings.Join(names, ", "))}
}

// entry is a skill's line in the catalogue.
func entry(s Skill) string {
	return "- " + s.Name + ": " + oneLine(s.Description, maxDescriptionLen) + "\n"
}

func (c *Catalogue) catalogueText(listed []Skill, left int) string {
	var b strings.Builder
	b.WriteString("# Skills\n\n")
	b.WriteString("Skills are folders of instructions, scripts and resources for particular tasks. ")
	b.WriteString("When a task matches a skill below, call " + LoadToolName + " with its name before you start, ")
	b.WriteString("then follow the instructions it returns; read the skill's other files with read_file ")
	b.WriteString("only when the instructions call for them.\n\n")
	for _, s := range listed {
		b.WriteString(entry(s))
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n%d more skills are installed but not listed here; when the user names one, %s loads it by name.\n", left, LoadToolName)
	}
	return b.String()
}

// oneLine folds whitespace runs (newlines included) into single spaces
// and cuts s to at most max bytes on a rune boundary.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
