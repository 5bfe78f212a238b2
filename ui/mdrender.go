package ui

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// mdTheme holds the SGR parameters ("38;5;252;1") Markdown is drawn with.
type mdTheme struct {
	text, h1, heading, code, link, url, image, imageURL, rule, term string
	syntax                                                          [codeClasses]string
}

// mdThemeFor returns the theme for a dark or a light background. The
// colours are the ones glamour's dark and light styles used, so answers
// look as they did.
func mdThemeFor(dark bool) mdTheme {
	if dark {
		return mdTheme{
			text: "38;5;252", h1: "38;5;228;48;5;63;1", heading: "38;5;39;1", code: "38;5;203;48;5;236",
			link: "38;5;35;1", url: "38;5;30;4", image: "38;5;243", imageURL: "38;5;212;4", rule: "38;5;240", term: "38;5;252;1",
			syntax: [codeClasses]string{
				codePlain: "38;5;251", codeComment: "38;5;244", codeKeyword: "38;5;39", codeString: "38;5;173",
				codeNumber: "38;5;85", codeAdded: "38;5;42", codeRemoved: "38;5;203",
			},
		}
	}
	return mdTheme{
		text: "38;5;234", h1: "38;5;228;48;5;63;1", heading: "38;5;27;1", code: "38;5;203;48;5;254",
		link: "38;5;29;1", url: "38;5;36;4", image: "38;5;243", imageURL: "38;5;205;4", rule: "38;5;249", term: "38;5;234;1",
		syntax: [codeClasses]string{
			codePlain: "38;5;236", codeComment: "38;5;245", codeKeyword: "38;5;26", codeString: "38;5;130",
			codeNumber: "38;5;28", codeAdded: "38;5;28", codeRemoved: "38;5;160",
		},
	}
}

// mdLayout lays out the Markdown of one parsed block as lines of styled
// text, unwrapped (see wrapRendered), without the left margin.
type mdLayout struct {
	theme *mdTheme
	langs map[string]*codeLang
	src   []byte
	// width is the room a table gets: tables are sized to it, where
	// other lines are wrapped afterwards.
	width int
}

// blocks lays out the block children of n, a blank line between each
// when spaced.
func (l *mdLayout) blocks(n ast.Node, spaced bool) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := l.block(c)
		if len(lines) == 0 {
			continue
		}
		if spaced && len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// block lays out one block node.
func (l *mdLayout) block(n ast.Node) []string {
	switch n := n.(type) {
	case *ast.Heading:
		if n.Level == 1 {
			return l.inlineLines(n, l.theme.h1, " ", " ")
		}
		return l.inlineLines(n, l.theme.heading, strings.Repeat("#", n.Level)+" ", "")
	case *ast.Paragraph, *ast.TextBlock:
		return l.inlineLines(n, l.theme.text, "", "")
	case *ast.ThematicBreak:
		return []string{sgr(l.theme.rule, strings.Repeat("─", min(max(l.width, 8), 40)))}
	case *ast.FencedCodeBlock:
		var lang *codeLang
		if n.Info != nil {
			lang = langFor(l.langs, string(n.Info.Segment.Value(l.src)))
		}
		return l.code(n, lang)
	case *ast.CodeBlock:
		return l.code(n, nil)
	case *ast.Blockquote:
		lines := l.blocks(n, true)
		for i, s := range lines {
			lines[i] = sgr(l.theme.text, "│ ") + s
		}
		return lines
	case *ast.List:
		return l.list(n)
	case *ast.HTMLBlock:
		// Not reached for the model's text, which literal escapes; shown
		// as written if it is.
		var out []string
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			out = append(out, sgr(l.theme.text, strings.TrimRight(string(seg.Value(l.src)), "\n")))
		}
		return out
	case *east.Table:
		return l.table(n)
	case *east.DefinitionList:
		return l.blocks(n, false)
	case *east.DefinitionTerm:
		return l.inlineLines(n, l.theme.term, "", "")
	case *east.DefinitionDescription:
		lines := l.blocks(n, false)
		for i, s := range lines {
			if s != "" {
				lines[i] = "    " + s
			}
		}
		return lines
	}
	if n.Type() == ast.TypeBlock && n.HasChildren() {
		return l.blocks(n, true)
	}
	return nil
}

// code lays out a code block's lines, two cells in, coloured as lang.
func (l *mdLayout) code(n ast.Node, lang *codeLang) []string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(l.src))
	}
	src := strings.TrimSuffix(b.String(), "\n")
	out := highlight(lang, src, &l.theme.syntax)
	for i, s := range out {
		if s != "" {
			out[i] = "  " + s
		}
	}
	return out
}

// list lays out a list: a bullet, a number or a task's box before each
// item, the item's further lines under its text.
func (l *mdLayout) list(n *ast.List) []string {
	var out []string
	num := n.Start
	if num == 0 {
		num = 1
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		marker := "• "
		if n.IsOrdered() {
			marker = strconv.Itoa(num) + ". "
			num++
		}
		if task(c) {
			marker = "" // the item's box is its marker
		}
		lines := l.blocks(c, !n.IsTight)
		if len(lines) == 0 {
			lines = []string{""}
		}
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		hang := strings.Repeat(" ", ansi.StringWidth(marker))
		for i, s := range lines {
			switch {
			case i == 0:
				s = sgr(l.theme.text, marker) + s
			case s != "":
				s = hang + s
			}
			out = append(out, s)
		}
	}
	return out
}

// task reports whether a list item starts with a task's box.
func task(item ast.Node) bool {
	first := item.FirstChild()
	if first == nil {
		return false
	}
	_, ok := first.FirstChild().(*east.TaskCheckBox)
	return ok
}

// inlineLines lays out the inline content of n in style base, each line
// between before and after (a heading's "## "); a hard line break starts
// a new line.
func (l *mdLayout) inlineLines(n ast.Node, base, before, after string) []string {
	w := inlineWriter{layout: l, style: []string{base}}
	if before != "" {
		w.text(before)
	}
	w.children(n)
	if after != "" {
		w.text(after)
	}
	return append(w.lines, w.cur.String())
}

// sgr returns s drawn with the SGR parameters p.
func sgr(p, s string) string {
	if s == "" {
		return ""
	}
	return "\x1b[" + p + "m" + s + "\x1b[m"
}

// inlineWriter writes inline Markdown as styled text.
type inlineWriter struct {
	layout *mdLayout
	style  []string // the SGR parameters in effect, outermost first
	lines  []string
	cur    strings.Builder
}

// text writes s in the style in effect.
func (w *inlineWriter) text(s string) {
	if s == "" {
		return
	}
	w.cur.WriteString("\x1b[")
	for i, p := range w.style {
		if i > 0 {
			w.cur.WriteByte(';')
		}
		w.cur.WriteString(p)
	}
	w.cur.WriteByte('m')
	w.cur.WriteString(s)
	w.cur.WriteString("\x1b[m")
}

func (w *inlineWriter) push(p string) { w.style = append(w.style, p) }
func (w *inlineWriter) pop()          { w.style = w.style[:len(w.style)-1] }

func (w *inlineWriter) newline() {
	w.lines = append(w.lines, w.cur.String())
	w.cur.Reset()
}

func (w *inlineWriter) children(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.inline(c)
	}
}

// inline writes one inline node and what it holds.
func (w *inlineWriter) inline(n ast.Node) {
	src := w.layout.src
	th := w.layout.theme
	switch n := n.(type) {
	case *ast.Text:
		v := n.Segment.Value(src)
		if !n.IsRaw() {
			v = decodeText(v)
		}
		w.text(string(v))
		switch {
		case n.HardLineBreak():
			w.newline()
		case n.SoftLineBreak():
			w.text(" ")
		}
	case *ast.String:
		v := n.Value
		if !n.IsRaw() {
			v = decodeText(v)
		}
		w.text(string(v))
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch t := c.(type) {
			case *ast.Text:
				b.Write(t.Segment.Value(src))
			case *ast.String:
				b.Write(t.Value)
			}
		}
		// literal wrote the code's < and & as entities.
		code := string(util.ResolveEntityNames(util.ResolveNumericReferences([]byte(b.String()))))
		w.push(th.code)
		w.text("\u00a0" + code + "\u00a0")
		w.pop()
	case *ast.Emphasis:
		if n.Level >= 2 {
			w.push("1")
		} else {
			w.push("3")
		}
		w.children(n)
		w.pop()
	case *east.Strikethrough:
		w.push("9")
		w.children(n)
		w.pop()
	case *ast.Link:
		w.push(th.link)
		w.children(n)
		w.pop()
		dest := string(n.Destination)
		if dest != "" && dest != string(textOf(n, src)) {
			w.text(" ")
			w.push(th.url)
			w.text(dest)
			w.pop()
		}
	case *ast.Image:
		w.push(th.image)
		w.text("Image: " + string(decodeText(textOf(n, src))) + " →")
		w.pop()
		if len(n.Destination) > 0 {
			w.text(" ")
			w.push(th.imageURL)
			w.text(string(n.Destination))
			w.pop()
		}
	case *ast.AutoLink:
		w.push(th.url)
		w.text(string(n.Label(src)))
		w.pop()
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			w.text(string(seg.Value(src)))
		}
	case *east.TaskCheckBox:
		if n.IsChecked {
			w.text("[✓] ")
		} else {
			w.text("[ ] ")
		}
	default:
		w.children(n)
	}
}

// textOf returns the plain text of an inline node's children.
func textOf(n ast.Node, src []byte) []byte {
	var b []byte
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			b = append(b, t.Segment.Value(src)...)
		case *ast.String:
			b = append(b, t.Value...)
		default:
			b = append(b, textOf(c, src)...)
		}
	}
	return b
}

// decodeText resolves a text's backslash escapes and entities, as an
// HTML renderer would: literal wrote every < and & of the model's as an
// entity, so this gives back exactly what the model wrote.
func decodeText(v []byte) []byte {
	if !bytes.ContainsAny(v, `\&`) {
		return v
	}
	return util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
}

// layout parses Markdown and lays it out; width is the room tables get.
func (r *renderer) layout(src string, width int) string {
	source := []byte(src)
	doc := markdownParser().Parse(text.NewReader(source))
	if r.langs == nil {
		r.langs = map[string]*codeLang{}
	}
	l := mdLayout{theme: &r.theme, langs: r.langs, src: source, width: width}
	lines := l.blocks(doc, true)
	for i, s := range lines {
		if s != "" {
			lines[i] = margin + s
		}
	}
	return strings.Join(lines, "\n")
}
