package ui

import (
	"strings"
	"testing"
)

// mdBlocks are the kinds of block a model writes, each rendered on its
// own as the chat and llmrt run render them.
var mdBlocks = []string{
	"## Step two: check the token",
	"The handler reads the request, checks the **token** and writes the reply; errors go to the log with the `request id` and a [link](https://example.com/docs).",
	"- parse the header\n- look the session up\n  - nested *item*\n- [x] write the body",
	"```go\nfunc handle(w http.ResponseWriter, r *http.Request) {\n\tid := r.Header.Get(\"X-Id\") // the caller's id\n\tlog.Printf(\"%s %d\", id, 42)\n}\n```",
	"| Name | Value | Note |\n|---|---:|---|\n| alpha | 1 | the first |\n| beta | 22 | the second, a longer note |",
	"> A quoted paragraph with **bold** text and a `code span`, long enough to wrap at eighty columns on the screen.",
}

// BenchmarkMarkdownRender renders one block of each kind at 80 columns
// with a renderer already built: the cost per finished block.
func BenchmarkMarkdownRender(b *testing.B) {
	r := newRenderer(true)
	n := 0
	for _, s := range mdBlocks {
		n += len(s)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range mdBlocks {
			r.render(s, 80)
		}
	}
}

// BenchmarkMarkdownFirstRender builds a renderer and renders one
// paragraph: what the first answer of a process pays.
func BenchmarkMarkdownFirstRender(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		newRenderer(true).render(mdBlocks[1], 80)
	}
}

var _ = strings.Repeat
