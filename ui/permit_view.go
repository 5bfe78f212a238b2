package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// View draws the prompt in width×height cells (height <= 0: as tall as it
// needs): the title, the call, the choices and the keys. The call is
// shown whole; when it is taller than the room left it scrolls with PgUp
// and PgDn and says how many lines are above and below. Once the form is
// done only the summary line is drawn.
func (f *PermitForm) View(width, height int) string {
	if width <= 0 {
		width = 80
	}
	if f.done {
		return strings.Join(f.p.summaryLines([]string{f.Summary()}), "\n")
	}
	title, kind := "Allow "+f.req.Tool+"?", f.req.Kind.Describe()
	head := []string{f.p.Accent.Render(title) + f.p.Dim.Render(" · "+kind)}
	if ansi.StringWidth(title+" · "+kind) > width {
		head = append(wrapStyled(title, width, f.p.Accent), wrapStyled(kind, width, f.p.Dim)...)
	}
	body := f.bodyLines(width - 2)
	for i, l := range body {
		body[i] = "  " + l
	}
	below, avail := f.below(width, height, len(head), false)
	if avail > 0 && len(body) > avail {
		below, avail = f.below(width, height, len(head), true)
	}
	lines := append(head, "")
	lines = append(lines, f.scrollBody(body, avail)...)
	lines = append(lines, "")
	return strings.Join(append(lines, below...), "\n")
}

// below draws what goes under the call (the choices, the reason editor,
// the keys) and returns the lines left for the call; scroll says the call
// scrolls, for the keys line.
func (f *PermitForm) below(width, height, head int, scroll bool) ([]string, int) {
	lines := flatten(f.p.pickLines(f.choices(width), f.cursor, width))
	if f.reason {
		lines = append(lines, "", "  "+f.p.Text.Render("Why? (optional; the model sees this)"))
		lines = append(lines, f.p.inputLines(f.input, width)...)
	}
	lines = append(lines, "")
	lines = append(lines, wrapStyled(f.keysHelp(scroll), width, f.p.Dim)...)
	avail := 0
	if height > 0 {
		avail = max(height-len(lines)-head-2, 3)
	}
	return lines, avail
}

// scrollBody shows the lines of body that fit in avail lines from the
// scroll position, with a line above and below saying how many more there
// are, and remembers the page size for PgUp and PgDn.
func (f *PermitForm) scrollBody(body []string, avail int) []string {
	if avail <= 0 || len(body) <= avail {
		f.drawn.page, f.drawn.max = 0, 0
		return body
	}
	// At either end one hint line is enough; in between there are two.
	f.drawn.page, f.drawn.max = max(avail-2, 1), len(body)-(avail-1)
	from := min(f.scroll, f.drawn.max)
	to := min(from+avail-1, len(body))
	if from > 0 && to < len(body) {
		to--
	}
	var out []string
	if from > 0 {
		out = append(out, f.p.Dim.Render(fmt.Sprintf("  ↑ %d more lines (PgUp)", from)))
	}
	out = append(out, body[from:to]...)
	if to < len(body) {
		out = append(out, f.p.Dim.Render(fmt.Sprintf("  ↓ %d more lines (PgDn)", len(body)-to)))
	}
	return out
}

// choices describes the choices for pickLines, for a list width cells
// wide. The rule "allow always" adds is shown on one line (see ruleLine),
// so however many lines a command has the choices keep their height; a
// rule that is the whole command, which is on screen above them, is
// named as such when it would not fit.
func (f *PermitForm) choices(width int) []pickItem {
	session, project := "Allow always in this session: ", " (saved to "+ProjectConfig+")"
	room := 2*(width-5) - widthOf(session+project) // two lines of the list
	rule := ruleLine(f.rule(), room)
	if cmd := f.command(); cmd != "" && f.rule() == "shell_cmd(command="+cmd+")" && rule != ruleLine(f.rule(), 1<<30) {
		rule = "this exact command"
	}
	return []pickItem{
		{label: "Allow once"},
		{label: session + rule},
		{label: "Allow always in this project: " + rule + project},
		{label: "Deny…"},
		{label: "Cancel the run"},
	}
}

// keysHelp is the line of keys for what is showing.
func (f *PermitForm) keysHelp(scroll bool) string {
	pages := ""
	if scroll {
		pages = " · pgup/pgdn scroll"
	}
	if f.reason {
		return "enter deny · esc back to the choices" + pages + " · ctrl+c cancel"
	}
	return "↑↓ move · enter or 1-5 choose" + pages + " · esc deny · ctrl+c cancel"
}

// bodyLines renders the call: a shell command as "$ command args" (and
// the directory it runs in), a write or an edit as its diff, anything
// else as indented JSON; wrapped to width, never cut. Commands and JSON
// are drawn from the arguments as the model sent them, every control
// character made visible.
func (f *PermitForm) bodyLines(width int) []string {
	var args map[string]any
	_ = json.Unmarshal([]byte(f.args), &args)
	switch cmd, _ := args["command"].(string); {
	case f.req.Tool == "shell_cmd" && cmd != "":
		return f.commandLines(cmd, args, width)
	case (f.req.Tool == "write_file" || f.req.Tool == "edit_file") && strings.TrimSpace(f.req.Preview) != "":
		return f.p.diffLines(f.req.Preview, width)
	}
	var b bytes.Buffer
	text := f.args
	if json.Indent(&b, []byte(f.args), "", "  ") == nil {
		text = b.String()
	}
	var out []string
	for _, l := range strings.Split(visibleCommand(text), "\n") {
		for _, w := range strings.Split(ansi.Hardwrap(l, max(width, 10), true), "\n") {
			out = append(out, f.codeLine(w))
		}
	}
	return out
}

// command is the shell command of the call, if it is a shell_cmd call.
func (f *PermitForm) command() string {
	if f.req.Tool != "shell_cmd" {
		return ""
	}
	var args struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal([]byte(f.args), &args)
	return args.Command
}

// commandLines renders a shell_cmd call: "$ " and the command with its
// arguments (quoted where they hold spaces), then "(in directory)". Every
// line of the command is drawn, except that a run of blank lines is one
// line that counts them.
func (f *PermitForm) commandLines(cmd string, args map[string]any, width int) []string {
	line := cmd
	if extra, ok := args["args"].([]any); ok {
		for _, a := range extra {
			s := fmt.Sprint(a)
			if s == "" || strings.ContainsAny(s, " \t\n'\"") {
				s = fmt.Sprintf("%q", s)
			}
			line += " " + s
		}
	}
	var out []string
	for i, l := range commandShape(line) {
		lead := "  "
		if i == 0 {
			lead = "$ "
		}
		if l.blanks > 0 {
			out = append(out, f.p.Dim.Render(lead+blankRun(l.blanks)))
			continue
		}
		for j, w := range wrapLines(l.text, width-2) {
			if j > 0 {
				lead = "  "
			}
			out = append(out, f.p.Dim.Render(lead)+f.codeLine(w))
		}
	}
	if dir, _ := args["directory"].(string); dir != "" {
		out = append(out, wrapStyled("(in "+visibleCommand(dir)+")", width, f.p.Dim)...)
	}
	return out
}

// codeLine styles one line of visibleCommand's output: the stand-ins for
// control characters in the Warn style, so they are not read as text,
// the rest as code.
func (f *PermitForm) codeLine(s string) string {
	var b strings.Builder
	start, warn, bracket := 0, false, false
	for i, r := range s {
		w := bracket || r == '⟨' || r >= 0x2400 && r <= 0x243f
		bracket = (bracket || r == '⟨') && r != '⟩'
		if w != warn && i > start {
			b.WriteString(f.codeStyle(warn).Render(s[start:i]))
			start = i
		}
		warn = w
	}
	if start < len(s) {
		b.WriteString(f.codeStyle(warn).Render(s[start:]))
	}
	return b.String()
}

func (f *PermitForm) codeStyle(standIn bool) lipgloss.Style {
	if standIn {
		return f.p.Warn
	}
	return f.p.Code
}
