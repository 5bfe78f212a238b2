package skills

import (
	"context"
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

// seal builds what Tools and Instructions return.
func (c *Catalogue) seal() {
	if len(c.skills) == 0 {
		return
	}
	c.tools = []tools.Tool{c.loadTool()}
	c.text = c.catalogueText()
}

func (c *Catalogue) catalogueText() string {
	var b strings.Builder
	b.WriteString("# Skills\n\n")
	b.WriteString("Skills are folders of instructions, scripts and resources for particular tasks. ")
	b.WriteString("When a task matches a skill below, call " + LoadToolName + " with its name before you start, ")
	b.WriteString("then follow the instructions it returns; read the skill's other files with read_file ")
	b.WriteString("only when the instructions call for them.\n\n")
	for _, s := range c.skills {
		b.WriteString("- ")
		b.WriteString(s.Name)
		b.WriteString(": ")
		b.WriteString(oneLine(s.Description, maxDescriptionLen))
		b.WriteString("\n")
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
