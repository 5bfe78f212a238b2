package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/llmrt/llmrt/engine"
)

// ProjectConfig is where a rule allowed "always in this project" is saved,
// relative to the working directory; the prompt names it.
const ProjectConfig = ".llmrt/config.json"

// PermitResult is a person's answer to a permission prompt.
type PermitResult struct {
	// Decision goes to the engine. A rule allowed for the session or the
	// project has Action AllowAlways and the rule in Rule.
	Decision engine.Decision
	// Project asks the host to save Decision.Rule to the project config
	// (ProjectConfig), so later runs allow such calls too.
	Project bool
}

// The choices of a permission prompt, in the order they are listed.
const (
	permitOnce = iota
	permitSession
	permitProject
	permitDeny
	permitCancel
	permitChoices
)

// PermitForm asks whether one tool call may run: it shows the call whole
// (a shell command wrapped, a write's diff, other arguments as JSON) and
// the choices allow once, allow always in the session or the project,
// deny with an optional reason, and cancel the run. Like AskForm it is a
// plain value driven by Update and drawn by View, with no IO.
type PermitForm struct {
	req   engine.PermissionRequest
	args  string // the call's arguments as the model sent them
	allow string // the rule "allow always" adds
	p     Palette

	cursor int
	reason bool // the deny reason is being typed
	input  textinput.Model
	scroll int // first line of the call's body on screen

	// drawn is the body geometry of the last View, so PgUp and PgDn page
	// by what was on screen and stop at its end.
	drawn struct{ page, max int }

	result PermitResult
	done   bool
}

// NewPermitForm returns the prompt for req drawn with the styles of p.
func NewPermitForm(req engine.PermissionRequest, p Palette) *PermitForm {
	allow := req.Tool
	if req.Suggested != "" {
		allow = req.Suggested
	}
	// The request quotes the model's call: it is shown cleaned, while the
	// rule "allow always" adds is the engine's own. The call's arguments
	// are kept as they came too: the body shows them with every control
	// character made visible rather than removed (see visibleCommand).
	return &PermitForm{req: *cleanPermission(&req), args: req.Arguments, allow: allow, p: p, input: newTextInput()}
}

// Done reports whether the person has decided.
func (f *PermitForm) Done() bool { return f.done }

// Result returns the decision; it is Cancel until the form is done.
func (f *PermitForm) Result() PermitResult {
	if !f.done {
		return PermitResult{Decision: engine.Decision{Action: engine.Cancel}}
	}
	return f.result
}

// Cancel ends the prompt with the Cancel decision, as Ctrl-C does; a host
// calls it when the run ends while the prompt is open.
func (f *PermitForm) Cancel() { f.decide(permitCancel, "") }

// summaryRule is the most cells of a rule a summary line shows.
const summaryRule = 160

// Summary is one line saying what was decided, e.g. "✔ shell_cmd: allowed
// once" or "✗ write_file: denied ("not there")"; "" until the form is
// done.
func (f *PermitForm) Summary() string {
	if !f.done {
		return ""
	}
	d, tool := f.result.Decision, f.req.Tool
	switch {
	case d.Action == engine.AllowOnce:
		return "✔ " + tool + ": allowed once"
	case d.Action == engine.AllowAlways && f.result.Project:
		return "✔ " + tool + ": allowed always in this project: " + ruleLine(d.Rule, summaryRule)
	case d.Action == engine.AllowAlways:
		return "✔ " + tool + ": allowed always in this session: " + ruleLine(d.Rule, summaryRule)
	case d.Action == engine.Deny && d.Reason != "":
		return fmt.Sprintf("✗ %s: denied (%q)", tool, d.Reason)
	case d.Action == engine.Deny:
		return "✗ " + tool + ": denied"
	}
	return "✗ " + tool + ": run cancelled"
}

// Update handles a key press or a paste and returns a command for the
// reason editor, if any.
func (f *PermitForm) Update(msg tea.Msg) tea.Cmd {
	if f.done {
		return nil
	}
	if paste, ok := msg.(tea.PasteMsg); ok && f.reason {
		var cmd tea.Cmd
		f.input, cmd = f.input.Update(paste)
		return cmd
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	key := k.String()
	switch key {
	case "ctrl+c":
		f.Cancel()
		return nil
	case "pgdown":
		f.scrollBy(1)
		return nil
	case "pgup":
		f.scrollBy(-1)
		return nil
	}
	if f.reason {
		switch key {
		case "esc":
			f.reason = false
		case "enter":
			f.decide(permitDeny, strings.TrimSpace(f.input.Value()))
		default:
			var cmd tea.Cmd
			f.input, cmd = f.input.Update(k)
			return cmd
		}
		return nil
	}
	switch key {
	case "up", "k", "shift+tab":
		f.cursor = max(f.cursor-1, 0)
	case "down", "j", "tab":
		f.cursor = min(f.cursor+1, permitChoices-1)
	case "home", "g":
		f.cursor = 0
	case "end", "G":
		f.cursor = permitChoices - 1
	case "esc":
		f.decide(permitDeny, "")
	case "enter":
		f.choose(f.cursor)
	default:
		if n := digit(key); n >= 1 && n <= permitChoices {
			f.cursor = n - 1
			f.choose(f.cursor)
		}
	}
	return nil
}

// scrollBy moves the call's body by pages.
func (f *PermitForm) scrollBy(pages int) {
	page := f.drawn.page
	if page <= 0 {
		page = 10
	}
	f.scroll = max(f.scroll+pages*page, 0)
	if f.drawn.page > 0 {
		f.scroll = min(f.scroll, f.drawn.max)
	}
}

// choose acts on a choice: Deny opens the reason editor, the others
// decide.
func (f *PermitForm) choose(c int) {
	if c == permitDeny {
		f.reason = true
		return
	}
	f.decide(c, "")
}

func (f *PermitForm) decide(c int, reason string) {
	var d engine.Decision
	switch c {
	case permitOnce:
		d.Action = engine.AllowOnce
	case permitSession, permitProject:
		d = engine.Decision{Action: engine.AllowAlways, Rule: f.rule()}
	case permitDeny:
		d = engine.Decision{Action: engine.Deny, Reason: reason}
	default:
		d.Action = engine.Cancel
	}
	f.result = PermitResult{Decision: d, Project: c == permitProject}
	f.done = true
}

// rule is the rule "allow always" adds: the engine's suggestion, or the
// tool's name when there is none.
func (f *PermitForm) rule() string { return f.allow }
