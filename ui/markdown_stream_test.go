package ui

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// streamSamples are answers as models write them: long paragraphs with
// code spans, bold text across a line break, links, a list and a fence.
var streamSamples = []string{
	"The build fails because the **linker cannot find the symbol** that `go:linkname` points at; the package it names was renamed in the last release, so every binary that still refers to the old path stops at link time with an undefined reference. Rename the directive or pin the older release.\n",
	"First paragraph, long enough to wrap several times at eighty columns so that its first lines are written before it ends, with a [link to the docs](https://example.com/docs) in the middle of it and a `Vec<String>` at the end.\n\nSecond paragraph, also long enough to wrap at least twice at the width the test uses, which is sixty or eighty columns depending on the case.\n\n- an item\n- another item\n\n```go\nfunc main() {}\n```\n\nA last short line.",
	"Words words words words words words words words words words words words words words words words words *emphasis that spans a line break somewhere in the middle of all these words* and more words words words words words words words words words words.",
}

// TestMarkdownStreamsLongParagraphs: streamed a word at a time, a long
// paragraph's first lines are written before it ends, and the output in
// the end shows what the whole text written at once shows.
func TestMarkdownStreamsLongParagraphs(t *testing.T) {
	for _, width := range []int{60, 80} {
		for i, text := range streamSamples {
			var whole bytes.Buffer
			w := NewMarkdownWriter(&whole, width)
			w.Write([]byte(text))
			w.Flush()

			var streamed bytes.Buffer
			s := NewMarkdownWriter(&streamed, width)
			early := false
			words := strings.SplitAfter(text, " ")
			for j, word := range words {
				s.Write([]byte(word))
				if j == len(words)/2 && streamed.Len() > 0 {
					early = true
				}
			}
			s.Flush()
			// The same text, lines and colours; the lines written early
			// may end with an empty styled span the whole render drops.
			if ansi.Strip(streamed.String()) != ansi.Strip(whole.String()) {
				t.Errorf("width %d, sample %d: streamed output differs:\n%q\nwant\n%q", width, i, streamed.String(), whole.String())
			}
			if !early {
				t.Errorf("width %d, sample %d: nothing was written halfway into a long paragraph", width, i)
			}
		}
	}
}

// TestMarkdownBeforeOutput: BeforeOutput is called once, before the first
// byte.
func TestMarkdownBeforeOutput(t *testing.T) {
	var out bytes.Buffer
	calls := 0
	w := NewMarkdownWriter(&out, 80)
	w.BeforeOutput = func() {
		if out.Len() != 0 {
			t.Errorf("called after output")
		}
		calls++
	}
	w.Write([]byte("short"))
	if calls != 0 {
		t.Errorf("called before anything was written")
	}
	w.Write([]byte(" text.\n\nMore.\n\n"))
	w.Flush()
	if calls != 1 {
		t.Errorf("called %d times, want once", calls)
	}
}

// BenchmarkMarkdownStream streams a long answer to a MarkdownWriter in
// model-sized pieces (a few bytes each): the cost of writing a paragraph
// line by line as it arrives.
func BenchmarkMarkdownStream(b *testing.B) {
	text := strings.Repeat(streamSamples[0]+"\n", 8)
	var pieces []string
	for i := 0; i < len(text); i += 6 {
		pieces = append(pieces, text[i:min(i+6, len(text))])
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		w := NewMarkdownWriter(io.Discard, 80)
		for _, p := range pieces {
			w.Write([]byte(p))
		}
		w.Flush()
	}
}
