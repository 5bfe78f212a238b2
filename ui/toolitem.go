package ui

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// toolState is where a tool call stands.
type toolState int

const (
	toolRunning toolState = iota
	toolWaiting           // for the person's permission
	toolOK
	toolFailed
	toolDenied
	toolCancelled
)

// detailLines bounds the arguments and result an expanded call shows.
const detailLines = 30

// tailLines is how many of a command's last output lines show under its
// line, dimmed, while the call is not expanded.
const tailLines = 3

// toolItem is one tool call: a compact line with a spinner while it runs
// and a mark when done, expandable to its arguments and result.
type toolItem struct {
	id, name, args string
	depth          int // nesting under a sub-run or a run_code call
	// parent is the call this one was made under (run_code, spawn_agent);
	// last is the latest line nested under this one, after which the
	// next nested line goes.
	parent  *toolItem
	last    item
	start   time.Time
	state   toolState
	took    time.Duration
	note    string // progress while running; exit status or error after
	allowed string // how the person allowed it, when asked ("allowed once")
	result  string
	open    bool // expanded to its arguments and result (Ctrl+O)
	version int
	c       cache
}

func (t *toolItem) lines(l *look, width int) []string {
	live := t.live()
	if !live {
		if out, ok := t.c.get(width, l.gen, t.version); ok {
			return out
		}
	}
	indent := strings.Repeat("  ", t.depth)
	var mark, meta string
	style := l.pal.Text
	switch t.state {
	case toolRunning:
		mark = l.pal.Accent.Render(SpinnerFrames[l.frame%len(SpinnerFrames)])
		meta = Elapsed(l.now.Sub(t.start))
	case toolWaiting:
		mark = l.pal.Warn.Render("?")
		meta = "waiting for your approval"
	case toolOK:
		mark, meta = l.pal.OK.Render(marks[toolOK]), Took(t.took)
	case toolFailed:
		mark, meta, style = l.pal.Err.Render(marks[toolFailed]), Took(t.took), l.pal.Err
	case toolDenied:
		mark, meta, style = l.pal.Err.Render(marks[toolDenied]), "denied", l.pal.Err
	case toolCancelled:
		mark, meta = l.pal.Dim.Render(marks[toolCancelled]), "cancelled"
	}
	if t.note != "" {
		meta += " · " + t.note
	}
	if t.allowed != "" && t.state != toolWaiting {
		meta = t.allowed + " · " + meta
	}
	tail, more := t.tail()
	if more > 0 && !t.open {
		meta += " · " + itoa(len(tail)+more) + " lines"
	}
	head := indent + mark + " " + style.Render(t.name)
	room := width - ansi.StringWidth(head) - ansi.StringWidth(meta) - 4
	if arg := KeyArgument(t.name, t.args); arg != "" && room > 8 {
		head += "  " + l.pal.Code.Render(cut(arg, room))
	}
	out := []string{cut(head+"  "+l.pal.Dim.Render(meta), width)}
	switch {
	case live:
	case t.open:
		out = append(out, t.details(l, indent+"    ", width)...)
	default:
		for _, s := range tail {
			out = append(out, l.pal.Dim.Render(cut(indent+"    "+s, width)))
		}
	}
	if live {
		return guard(out)
	}
	return t.c.put(width, l.gen, t.version, out)
}

// live reports whether the call has not finished.
func (t *toolItem) live() bool { return t.state == toolRunning || t.state == toolWaiting }

// tail returns the last lines of a finished command's output, which show
// under its line at a glance, and how many lines came before them.
func (t *toolItem) tail() (lines []string, more int) {
	if t.name != "shell_cmd" || t.live() || t.result == "" {
		return nil, 0
	}
	var r struct {
		Output string `json:"output"`
	}
	if json.Unmarshal([]byte(t.result), &r) != nil {
		return nil, 0
	}
	all := strings.Split(strings.TrimRight(r.Output, "\n"), "\n")
	if len(all) == 1 && strings.TrimSpace(all[0]) == "" {
		return nil, 0
	}
	start := max(len(all)-tailLines, 0)
	for _, s := range all[start:] {
		lines = append(lines, strings.ReplaceAll(Sanitize(s), "\t", "    "))
	}
	return lines, start
}

// details draws the call's arguments and result under its line.
func (t *toolItem) details(l *look, indent string, width int) []string {
	var out []string
	add := func(title, body string) {
		out = append(out, l.pal.Dim.Render(indent+title))
		lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
		for i, s := range lines {
			if i == detailLines {
				out = append(out, l.pal.Dim.Render(indent+"  … "+strconv.Itoa(len(lines)-i)+" more lines"))
				break
			}
			out = append(out, l.pal.Dim.Render(cut(indent+"  "+s, width)))
		}
	}
	add("arguments", prettyJSON(t.args))
	if t.result != "" {
		add("result", readableResult(t.result))
	}
	return out
}

// readableResult shows a result as a person reads it: a command's output
// as its lines, other JSON indented, text as it is.
func readableResult(s string) string {
	var shell struct {
		Output *string `json:"output"`
	}
	if json.Unmarshal([]byte(s), &shell) == nil && shell.Output != nil {
		return *shell.Output
	}
	return prettyJSON(s)
}

// prettyJSON indents a JSON document, or returns it as it is.
func prettyJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return s
	}
	return string(b)
}

// toggleCall expands or folds one call (Ctrl+O): an expanded call in
// view folds; else the latest finished call in view expands, or, with
// none in view, the latest of all.
func (m *Model) toggleCall() {
	var pick *toolItem
	for _, it := range m.tr.inView(&m.look, m.width, m.transcriptHeight()) {
		if t, ok := it.(*toolItem); ok && !t.live() {
			if t.open {
				t.open = false
				t.version++
				return
			}
			pick = t
		}
	}
	for i := len(m.tr.items) - 1; pick == nil && i >= 0; i-- {
		if t, ok := m.tr.items[i].(*toolItem); ok && !t.live() {
			pick = t
		}
	}
	if pick != nil {
		pick.open = true
		pick.version++
		m.tr.reveal(&m.look, m.width, m.transcriptHeight(), pick)
	}
}
