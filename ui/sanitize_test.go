package ui

import (
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

// hostile holds one of each kind of sequence an answer could carry to
// take over a terminal, between words that must stay.
const hostile = "Title\x1b]0;PWNED\x07 clip\x1b]52;c;cHduZWQ=\x1b\\ link " +
	"\x1b]8;;http://evil.example/\x07click here\x1b]8;;\x07 red\x1b[31mRED\x1b[0m " +
	"clear\x1b[2J\x1b[H dcs\x1bP1$qm\x1b\\ bell\x07 back\bX cr\rY c1\u009b31mZ\u009d0;T\u009c end"

const hostileVisible = "Title clip link click here redRED clear dcs bell backX crY c1Z end"

func TestSanitize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text\nwith a\ttab", "plain text\nwith a\ttab"},
		{"héllo wörld — ✓ 日本", "héllo wörld — ✓ 日本"},
		{hostile, hostileVisible},
		{"a\r\nb", "a\nb"},
		{"keep \x1b[1mbold\x1b[m?", "keep bold?"},
		{"\x1b7saved\x1b8 \x1bc reset \x1b(B charset", "saved  reset  charset"},
		{"osc st \x1b]2;t\x1b\\after", "osc st after"},
		{"unterminated \x1b]0;title\nnext line", "unterminated \nnext line"},
		{"csi cut \x1b[12\nnext", "csi cut \nnext"},
		{"can \x1b]0;x\x18 after", "can  after"},
		{"esc then esc \x1b\x1b[2Jx", "esc then esc x"},
		{"string then esc \x1b]0;x\x1b[31mred", "string then esc red"},
		{"del\x7f nul\x00 vt\x0b ff\x0c", "del nul vt ff"},
		{"bad utf8 \xff\xfe end", "bad utf8 \uFFFD\uFFFD end"},
		{"cut rune \xe2\x9c", "cut rune \uFFFD\uFFFD"},
		{"nel\u0085 ind\u0084 ok", "nel ind ok"},
		{"csi then text \x1b[3é", "csi then text é"},
		{"", ""},
	} {
		if got := Sanitize(c.in); got != c.want {
			t.Errorf("Sanitize(%q):\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestSanitizerSplitAnywhere: however the stream is cut into pieces, the
// joined output is what Sanitize makes of the whole, and no piece carries
// a control byte.
func TestSanitizerSplitAnywhere(t *testing.T) {
	inputs := []string{hostile, "✓ ok \x1b]0;title\x07 ✓", "日本\u009b2J語", "a\x1b", "\x1b]52;c;" + strings.Repeat("QUFB", 50) + "\x07b"}
	for _, in := range inputs {
		want := Sanitize(in)
		for cut := 0; cut <= len(in); cut++ {
			for cut2 := cut; cut2 <= len(in); cut2 += 3 {
				var s Sanitizer
				pieces := []string{s.String(in[:cut]), s.String(in[cut:cut2]), s.String(in[cut2:])}
				for _, p := range pieces {
					if bad := controlIn(p); bad >= 0 {
						t.Fatalf("%q cut at %d,%d: piece %q holds control %#x", in, cut, cut2, p, bad)
					}
				}
				if got := strings.Join(pieces, ""); got != want {
					t.Fatalf("%q cut at %d,%d:\n got %q\nwant %q", in, cut, cut2, got, want)
				}
			}
		}
	}
}

// TestSanitizerEscAtTheEndOfADelta is the case the issue names: ESC ends
// one delta and "]0;title" BEL starts the next.
func TestSanitizerEscAtTheEndOfADelta(t *testing.T) {
	var s Sanitizer
	got := s.String("before\x1b") + s.String("]0;title\x07after")
	if got != "beforeafter" {
		t.Errorf("got %q, want %q", got, "beforeafter")
	}
	s.Reset()
	if got := s.String("\x1b"); got != "" {
		t.Errorf("a lone ESC: got %q", got)
	}
	s.Reset()
	if got := s.String("]0;plain"); got != "]0;plain" {
		t.Errorf("after Reset the text is plain again: got %q", got)
	}
}

func TestSanitizerHoldsASplitCharacter(t *testing.T) {
	var s Sanitizer
	check := "✓" // e2 9c 93
	got := s.String("a"+check[:1]) + s.String(check[1:2]) + s.String(check[2:]+"b")
	if got != "a✓b" {
		t.Errorf("got %q, want %q", got, "a✓b")
	}
}

func TestSanitizeReturnsCleanTextAsIs(t *testing.T) {
	in := strings.Repeat("plain ✓ text\n", 100)
	if n := testing.AllocsPerRun(100, func() { Sanitize(in) }); n != 0 {
		t.Errorf("clean text: %v allocations, want 0", n)
	}
	var s Sanitizer
	if n := testing.AllocsPerRun(100, func() { s.String(in) }); n != 0 {
		t.Errorf("clean piece: %v allocations, want 0", n)
	}
}

func TestKeepStyle(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\x1b[38;5;252mtext\x1b[m \x1b[1;4mb\x1b[0m", "\x1b[38;5;252mtext\x1b[m \x1b[1;4mb\x1b[0m"},
		{"\x1b[38:2::1:2:3mtc\x1b[m", "\x1b[38:2::1:2:3mtc\x1b[m"},
		{"\x1b]8;id=1;http://x\x07link\x1b]8;;\x07", "link"},
		{"\x1b[2Jclear\x1b[?25lhide\x1b[>4;1m", "clearhide"},
		{"\x1b]0;t\x07\x1b[31mred\x07", "\x1b[31mred"},
		{"\u009b31mc1", "c1"},
		{"\x1b[3\x011m", ""},
	} {
		if got := keepStyle(c.in); got != c.want {
			t.Errorf("keepStyle(%q):\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// controlIn returns the first control byte of s other than newline and
// tab (C1 controls included), or -1.
func controlIn(s string) int {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0 {
			return int(r)
		}
	}
	return -1
}

// BenchmarkSanitizerDelta: the cost of cleaning one streamed delta of
// about a token, the hot path of every answer.
func BenchmarkSanitizerDelta(b *testing.B) {
	deltas := tokensOf(answerText(64 << 10))
	var s Sanitizer
	b.SetBytes(4)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.String(deltas[i%len(deltas)])
	}
}

// BenchmarkSanitizerDeltaHostile: deltas of a text full of sequences.
func BenchmarkSanitizerDeltaHostile(b *testing.B) {
	deltas := tokensOf(strings.Repeat(hostile, 200))
	var s Sanitizer
	b.SetBytes(4)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.String(deltas[i%len(deltas)])
	}
}

// BenchmarkSanitizeResult: a 32 KiB tool result with nothing to remove.
func BenchmarkSanitizeResult(b *testing.B) {
	text := answerText(32 << 10)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Sanitize(text)
	}
}

// BenchmarkKeepStyle: the guard over one rendered Markdown block.
func BenchmarkKeepStyle(b *testing.B) {
	out := newRenderer(true).render(answerText(600), 100)
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		keepStyle(out)
	}
}

// BenchmarkCleanerDelta: what the chat and Progress pay per streamed
// delta before drawing it: the event copied, its stream found, its text
// checked.
func BenchmarkCleanerDelta(b *testing.B) {
	deltas := tokensOf(answerText(64 << 10))
	var c cleaner
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.event(engine.Event{Type: engine.EventAnswerDelta, RunID: "run_1", Delta: deltas[i%len(deltas)]})
	}
}
