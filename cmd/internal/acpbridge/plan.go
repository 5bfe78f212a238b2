package acpbridge

import (
	"strings"

	acp "github.com/coder/acp-go-sdk"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// PlanEntries returns the steps of a plan written in Markdown, for the
// client's plan view: the items of its top-level lists, in order, as plain
// text (markup gone; what a nested list says folded into its item). Each
// is pending, of medium priority: a plan in prose ranks nothing. A plan
// with no list has no entries.
func PlanEntries(markdown string) []acp.PlanEntry {
	src := []byte(markdown)
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	var entries []acp.PlanEntry
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if n.Kind() != ast.KindList {
			continue
		}
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			var b strings.Builder
			plainText(&b, item, src)
			if s := strings.Join(strings.Fields(b.String()), " "); s != "" {
				entries = append(entries, acp.PlanEntry{Content: s, Priority: acp.PlanEntryPriorityMedium, Status: acp.PlanEntryStatusPending})
			}
		}
	}
	return entries
}

// plainText writes the text of n and everything under it: the words of
// text and code, HTML as the characters it was written with, a line
// break or a new block as a space.
func plainText(b *strings.Builder, n ast.Node, src []byte) {
	switch n := n.(type) {
	case *ast.Text:
		b.Write(n.Segment.Value(src))
		if n.SoftLineBreak() || n.HardLineBreak() {
			b.WriteByte(' ')
		}
		return
	case *ast.String:
		b.Write(n.Value)
		return
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			s := n.Segments.At(i)
			b.Write(s.Value(src))
		}
		return
	case *ast.AutoLink:
		b.Write(n.URL(src))
		return
	}
	if n.Type() == ast.TypeBlock {
		b.WriteByte(' ')
		if lines := n.Lines(); n.Kind() == ast.KindHTMLBlock || n.Kind() == ast.KindCodeBlock || n.Kind() == ast.KindFencedCodeBlock {
			for i := 0; i < lines.Len(); i++ {
				s := lines.At(i)
				b.Write(s.Value(src))
			}
			return
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		plainText(b, c, src)
	}
}
