package ui

import (
	"sort"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// markdownParser returns the Markdown parser (GFM and definition lists),
// built on first use: a process that renders no Markdown never builds
// it. It holds no state between parses.
var markdownParser = sync.OnceValue(func() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList)).Parser()
})

// literal rewrites Markdown so that the renderer shows every character of
// its text. A Markdown renderer drops what the parser takes for HTML (a
// Vec<String>'s "<String>", a<b and c>d, <details>) and decodes entities,
// in code spans too (&amp; shows as &). So outside code blocks, which
// show the source as it is, every < and & is written as its entity: the
// parser sees no HTML and no entity of the model's, and the renderer
// decodes each back to the character the model wrote (see decodeText). A backslash escaping one of them
// (\<) goes, as Markdown would drop it, except inside code spans, where
// Markdown keeps backslashes. Autolinks (<https://…>) show as written,
// and a link's address, which is printed from the source, is left
// alone.
func literal(src string) string {
	if !strings.ContainsAny(src, "<&") {
		return src
	}
	spans := codeRanges(src)
	var b strings.Builder
	b.Grow(len(src) + 16)
	for i := 0; i < len(src); i++ {
		r, in := rangeAt(spans, i)
		if in && r.verbatim {
			b.WriteString(src[i:r.end])
			i = r.end - 1
			continue
		}
		switch c := src[i]; {
		case c == '<':
			b.WriteString("&lt;")
		case c == '&':
			b.WriteString("&amp;")
		case c == '\\' && !in && i+1 < len(src):
			switch src[i+1] {
			case '\\':
				b.WriteString(`\\`)
				i++
			case '<', '&':
				// The escape's character follows as an entity.
			default:
				b.WriteByte(c)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// codeRange is a stretch of Markdown source that is code: a code block's
// lines or a link's address, which show verbatim, or a code
// span's text, which it decodes.
type codeRange struct {
	start, end int
	verbatim   bool
}

// codeRanges returns the code of src, and its links' addresses, in
// order.
func codeRanges(src string) []codeRange {
	source := []byte(src)
	doc := markdownParser().Parse(text.NewReader(source))
	var out []codeRange
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				out = append(out, codeRange{start: seg.Start, end: seg.Stop, verbatim: true})
			}
			return ast.WalkSkipChildren, nil
		case ast.KindAutoLink:
			// A link's address is printed as it is in the source.
			// Label is a slice of source: where it starts is told by
			// how much of source's capacity it has left.
			if l, ok := n.(*ast.AutoLink); ok {
				label := l.Label(source)
				start := cap(source) - cap(label)
				if start >= 0 && start+len(label) <= len(source) && string(source[start:start+len(label)]) == string(label) {
					out = append(out, codeRange{start: start, end: start + len(label), verbatim: true})
				}
			}
			return ast.WalkSkipChildren, nil
		case ast.KindCodeSpan:
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					out = append(out, codeRange{start: t.Segment.Start, end: t.Segment.Stop})
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// rangeAt returns the range holding byte i, if any. Ranges are few and
// sorted; a binary search keeps long code blocks cheap.
func rangeAt(rs []codeRange, i int) (codeRange, bool) {
	k := sort.Search(len(rs), func(k int) bool { return rs[k].end > i })
	if k < len(rs) && rs[k].start <= i {
		return rs[k], true
	}
	return codeRange{}, false
}
