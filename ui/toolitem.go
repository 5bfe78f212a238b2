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
	version int
	c       cache
}

func (t *toolItem) lines(l *look, width int) []string {
	live := t.state == toolRunning || t.state == toolWaiting
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
	head := indent + mark + " " + style.Render(t.name)
	room := width - ansi.StringWidth(head) - ansi.StringWidth(meta) - 4
	if arg := KeyArgument(t.name, t.args); arg != "" && room > 8 {
		head += "  " + l.pal.Code.Render(cut(arg, room))
	}
	out := []string{cut(head+"  "+l.pal.Dim.Render(meta), width)}
	if l.showDetails && !live {
		out = append(out, t.details(l, indent+"    ", width)...)
	}
	if live {
		return guard(out)
	}
	return t.c.put(width, l.gen, t.version, out)
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
