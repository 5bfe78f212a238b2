package ui

import (
	"fmt"
	"os"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
)

// reportItem is a command's report on the transcript.
type reportItem struct {
	r Report
	c cache
}

func (it *reportItem) lines(l *look, width int) []string {
	if out, ok := it.c.get(width, l.gen, 0); ok {
		return out
	}
	return it.c.put(width, l.gen, 0, it.r.draw(l, width))
}

// para wraps text (which may hold styled spans) to the width, after the
// report margin.
func para(text string, width int) []string {
	lines := wrapText(text, max(width-widthOf(margin), 10))
	for i, s := range lines {
		lines[i] = margin + s
	}
	return lines
}

// count formats n with thousands separators: 32,000.
func count(n int) string {
	s := itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// usageOf is how /help shows the command name.
func usageOf(name string) string {
	c, _, _ := commandSet{}.find(name)
	return c.usage()
}

func (n Notice) draw(l *look, width int) []string { return para(string(n), width) }

func (r Lines) draw(l *look, width int) []string {
	var out []string
	for _, s := range r {
		out = append(out, para(s, width)...)
	}
	return out
}

func (r ToolList) draw(l *look, width int) []string {
	p := l.pal
	t := table{cols: []column{{title: "tool"}, {title: "kind"}, {title: "source", optional: true}, {title: "description", style: p.Dim}}}
	for _, tool := range r.Tools {
		t.add(tool.Name, string(tool.Kind), tool.Source, firstSentence(tool.Description))
	}
	out := t.lines(p, width)
	if len(r.Servers) > 0 {
		s := table{cols: []column{{title: "mcp server"}, {title: "state"}}}
		for _, st := range r.Servers {
			style := p.Dim
			switch st.State {
			case "ready":
				style = p.OK
			case "failed":
				style = p.Err
			}
			s.add(st.Name, style.Render(oneLine(st.String())))
		}
		out = append(append(out, ""), s.lines(p, width)...)
	}
	if r.Commands != "" {
		out = append(append(out, ""), para(p.Dim.Render("Commands:")+" "+r.Commands, width)...)
	}
	return out
}

// firstSentence is the first sentence of s, on one line.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i+1]
	}
	return oneLine(s)
}

func (r SkillList) draw(l *look, width int) []string {
	p := l.pal
	if len(r.Skills) == 0 {
		return para("No skills found; "+p.Code.Render("llmrt skills")+" lists where they are looked for.", width)
	}
	t := table{cols: []column{{title: "skill"}, {title: "scope", optional: true}, {title: "description", style: p.Dim}}}
	for _, s := range r.Skills {
		t.add(s.Name, s.Scope, oneLine(s.Description))
	}
	return t.lines(p, width)
}

// sessionRows is the most sessions /sessions lists.
const sessionRows = 15

func (r SessionList) draw(l *look, width int) []string {
	p := l.pal
	switch {
	case len(r.Sessions) == 0 && r.All:
		return para("No saved sessions.", width)
	case len(r.Sessions) == 0:
		return para("No saved sessions in this directory; "+p.Code.Render("/sessions all")+" lists every directory's.", width)
	}
	cols := []column{{title: "id", style: p.Code}, {title: "age"}, {title: "size", right: true, optional: true}, {title: "status"}}
	if r.All {
		cols = append(cols, column{title: "dir", optional: true})
	}
	t := table{cols: append(cols, column{title: "title", style: p.Dim})}
	home, _ := os.UserHomeDir()
	now := r.Now
	if now.IsZero() {
		now = time.Now()
	}
	for _, s := range r.Sessions[:min(len(r.Sessions), sessionRows)] {
		status, size := s.Status, "-"
		if status == "" {
			status = "-"
		}
		if s.Bytes > 0 {
			size = FileSize(s.Bytes)
		}
		row := []string{s.ID, Ago(now.Sub(s.Updated)), size, status}
		if r.All {
			row = append(row, ShortHome(s.Dir, home))
		}
		t.add(append(row, oneLine(s.Title))...)
	}
	out := t.lines(p, width)
	if more := len(r.Sessions) - sessionRows; more > 0 {
		cmd := "llmrt sessions"
		if r.All {
			cmd += " --all"
		}
		out = append(out, para(p.Dim.Render(itoa(more)+" more: ")+p.Code.Render(cmd)+p.Dim.Render(" lists them all."), width)...)
	}
	return append(append(out, ""), para("Open one with "+p.Code.Render("/resume ID")+" (Tab or the menu after /resume completes it).", width)...)
}

func (r UsageReport) draw(l *look, width int) []string {
	p := l.pal
	u := r.Usage
	cache := count(u.CacheReadTokens) + " read from cache"
	if u.CacheWriteTokens > 0 {
		cache += ", " + count(u.CacheWriteTokens) + " written to it"
	}
	t := table{cols: []column{{}, {right: true}, {style: p.Dim}}}
	t.add("input", count(u.InputTokens), cache)
	t.add("output", count(u.OutputTokens), count(u.ReasoningTokens)+" reasoning")
	t.add("total", count(u.Total()), "")
	return append(para("Tokens used in this session:", width), t.lines(p, width)...)
}

// contextPart is one part of a context window: its name, its tokens, and
// the mark and style of its cells on the bar.
type contextPart struct {
	name   string
	tokens int
	mark   string
	style  lipgloss.Style
}

func (r ContextReport) draw(l *look, width int) []string {
	p := l.pal
	c := r.Parts
	window := max(c.Window, 1)
	pct := func(n int) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(window)) }
	out := para(fmt.Sprintf("Context window of %s: %s tokens, about %s (%s) in use.",
		p.Code.Render(r.Model), count(c.Window), count(c.Total), pct(c.Total)), width)
	parts := []contextPart{
		{"system prompt", c.System, "█", p.Accent},
		{"instructions and skills", c.Instructions, "▓", p.Warn},
		{"tool definitions", c.Tools, "▒", p.Code},
		{"conversation", c.Conversation, "░", p.User},
		{"free", max(c.Window-c.Total, 0), "·", p.Dim},
	}
	out = append(append(out, ""), margin+r.bar(p, parts, min(max(width-widthOf(margin), 10), 72)))
	t := table{cols: []column{{}, {right: true}, {right: true}}}
	for _, part := range parts {
		t.add(part.style.Render(part.mark)+" "+part.name, count(part.tokens), pct(part.tokens))
	}
	out = append(append(out, ""), t.lines(p, width)...)
	if len(r.Files) > 0 {
		files := make([]string, len(r.Files))
		for i, f := range r.Files {
			files[i] = p.Code.Render(f.Path) + " (" + count(f.Bytes) + " bytes)"
		}
		out = append(append(out, ""), para("Instruction files read: "+strings.Join(files, ", ")+".", width)...)
	}
	if r.CompactAt > 0 {
		out = append(append(out, ""), para(fmt.Sprintf("At %.0f%% of the window (%s) the conversation is compacted; %s does it now.",
			100*r.CompactAt, p.Warn.Render("│"), p.Code.Render(usageOf("compact"))), width)...)
	}
	return out
}

// bar draws the window as one line of n cells, each part as many cells
// as its share (a part that is there at all gets one), the free part
// last, and the point where the conversation is compacted marked.
func (r ContextReport) bar(p Palette, parts []contextPart, n int) string {
	window := max(r.Parts.Window, 1)
	cells := make([]string, 0, n)
	for _, part := range parts[:len(parts)-1] {
		k := part.tokens * n / window
		if part.tokens > 0 {
			k = max(k, 1)
		}
		for range min(k, n-len(cells)) {
			cells = append(cells, part.style.Render(part.mark))
		}
	}
	used, free := len(cells), parts[len(parts)-1]
	for len(cells) < n {
		cells = append(cells, free.style.Render(free.mark))
	}
	if at := int(r.CompactAt * float64(n)); r.CompactAt > 0 && at >= used && at < n {
		cells[at] = p.Warn.Render("│")
	}
	return strings.Join(cells, "")
}

func (r ModelReport) draw(l *look, width int) []string {
	p := l.pal
	model := p.Code.Render(r.Provider + "/" + r.Model)
	if r.Switched {
		return para("Now using "+model+".", width)
	}
	return para("Model: "+model+". Switch with "+p.Code.Render(usageOf("model"))+"; providers: "+strings.Join(r.Providers, ", ")+".", width)
}

func (r PermissionReport) draw(l *look, width int) []string {
	p := l.pal
	if r.Changed && r.Mode == planMode {
		return para("Permission mode is now "+p.Code.Render(r.Mode)+": the model reads, changes nothing and answers with a plan for you to approve.", width)
	}
	if r.Changed {
		return para("Permission mode is now "+p.Code.Render(r.Mode)+".", width)
	}
	return para("Permission mode: "+p.Code.Render(r.Mode)+". Change it with "+p.Code.Render(usageOf("permission"))+".", width)
}

func (r Resumed) draw(l *look, width int) []string {
	p := l.pal
	text := "Resumed session " + p.Code.Render(r.ID) + "."
	if r.RanOn != "" {
		text += " It ran on " + p.Code.Render(r.RanOn) + "; this chat goes on with " + p.Code.Render(r.Now) +
			" (" + p.Code.Render("/model") + " switches)."
	}
	if r.RanIn != "" {
		text += " It ran in " + p.Code.Render(r.RanIn) + "; this chat works in " + p.Code.Render(r.Here) +
			", so its tools act there (" + p.Code.Render("llmrt chat --resume "+r.ID+" --cwd "+r.RanIn) + " goes on where it ran)."
	}
	return para(text, width)
}

func (r Compacted) draw(l *look, width int) []string {
	p := l.pal
	mark := "── compacted on request "
	out := []string{p.Border.Render(mark + strings.Repeat("─", max(width-widthOf(mark), 0)))}
	return append(out, para(p.Dim.Render(fmt.Sprintf("The conversation went from about %s to %s tokens: the model goes on from a summary of what is above this line.",
		count(r.Before), count(r.After))), width)...)
}

// help is what /help shows: the keys and the commands that can run here.
type help struct{ cmds []Command }

func (h help) draw(l *look, width int) []string {
	p := l.pal
	keyT := table{cols: []column{{style: p.Code}, {}}, wrap: true}
	cmdT := table{cols: []column{{style: p.Code}, {}}, wrap: true}
	for _, k := range keys {
		keyT.add(k[0], k[1])
		cmdT.cols[0].min = max(cmdT.cols[0].min, widthOf(k[0]))
	}
	for _, c := range h.cmds {
		cmdT.add(c.usage(), c.Desc)
		keyT.cols[0].min = max(keyT.cols[0].min, widthOf(c.usage()))
	}
	out := append([]string{margin + p.Accent.Render("Keys")}, keyT.lines(p, width)...)
	out = append(append(out, "", margin+p.Accent.Render("Commands")), cmdT.lines(p, width)...)
	return append(append(out, ""), para("Mention a file with "+p.Code.Render("@path")+" to attach it to the prompt.", width)...)
}
