package ui

import (
	"runtime"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

// heapAfter is the live heap once build has run and the garbage is
// collected; build's result stays alive until the heap is measured.
func heapAfter(build func() any) uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	kept := build()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(kept)
	if ms.HeapAlloc < before {
		return 0
	}
	return ms.HeapAlloc - before
}

// chatWith is a chat screen that streamed replies answers of size bytes
// each, in 4-byte deltas with a frame every 500 of them, as a long
// session does. Its Markdown renderer is built first, so what it costs
// counts as the model's own.
func chatWith(tb testing.TB, replies, size int) *Model {
	m := benchModel(tb, 0)
	m.look.md.render("warm **up**", 80)
	text := answerText(size)
	for range replies {
		m.busy = true
		m.apply(engine.Event{Type: engine.EventRunStart, RunID: "r"})
		m.apply(engine.Event{Type: engine.EventModelStart, RunID: "r"})
		for i, d := range tokensOf(text) {
			m.apply(engine.Event{Type: engine.EventAnswerDelta, RunID: "r", Delta: d})
			if i%500 == 0 {
				m.View()
			}
		}
		m.apply(engine.Event{Type: engine.EventAssistantMessage, RunID: "r"})
		m.apply(engine.Event{Type: engine.EventCompleted, RunID: "r", Result: &engine.Result{Status: engine.StatusCompleted, Output: "done"}})
		m.View()
	}
	return m
}

// TestChatMemoryBounded: after four long answers the chat holds no more
// than twice their text (beyond what the empty chat holds), not every
// line it ever drew.
func TestChatMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 1.6 MB through the chat")
	}
	const replies, size = 4, 400_000
	base := heapAfter(func() any { return chatWith(t, 0, size) })
	held := heapAfter(func() any { return chatWith(t, replies, size) })
	text := uint64(replies * size)
	grew := int64(held) - int64(base)
	t.Logf("empty chat %d bytes; after %d answers of %d bytes: %d bytes more (%.2f× the text)", base, replies, size, grew, float64(grew)/float64(text))
	if grew > int64(2*text) {
		t.Errorf("the chat holds %d bytes more after %d answers of %d bytes (%.2f× the text), want at most %d (2×)", grew, replies, size, float64(grew)/float64(text), 2*text)
	}
}

// TestScrollThroughReleasedAnswers: paging from the end of long answers
// to the top and back shows, at every step and at two widths, exactly
// the lines the answers have drawn whole, though those off screen let go
// of their lines.
func TestScrollThroughReleasedAnswers(t *testing.T) {
	m := benchModel(t, 0)
	// Two finished answers and one still streaming.
	answer := func(i int) *textItem {
		ti := &textItem{}
		for _, d := range tokensOf(answerText(30_000 + 7*i)) {
			ti.add(d)
		}
		if i < 2 {
			ti.finish()
		}
		return ti
	}
	var texts []*textItem
	for i := range 3 {
		m.tr.add(&userItem{text: "question " + itoa(i)})
		texts = append(texts, answer(i))
		m.tr.add(texts[i])
		if i < 2 {
			m.tr.add(&footerItem{text: "gpt-5"})
		}
	}
	for _, width := range []int{120, 80} {
		m.Update(resize(width, 30))
		want := wholeTranscript(m, answer)
		th := m.transcriptHeight()
		m.scroll(1 << 30)
		check := func(step string) {
			t.Helper()
			from := max(len(want)-th, 0)
			if !m.tr.follow {
				from = m.tr.top
			}
			got := strings.Split(m.render(), "\n")[:th]
			for i, g := range got {
				if w := at(want, from+i); g != w {
					t.Fatalf("width %d, %s: line %d (of the transcript %d) is %q, want %q", width, step, i, from+i, plain(g), plain(w))
				}
			}
		}
		check("at the end")
		for step := 0; !(m.tr.top == 0 && !m.tr.follow); step++ {
			m.key(keyNamed(t, "pgup"))
			check("page up " + itoa(step))
		}
		if texts[2].drawn != nil {
			t.Errorf("width %d: the last answer, off screen at the top, keeps %d drawn lines", width, len(texts[2].drawn))
		}
		for step := 0; !m.tr.follow; step++ {
			m.key(keyNamed(t, "pgdown"))
			check("page down " + itoa(step))
		}
		if texts[0].drawn != nil {
			t.Errorf("width %d: the first answer, off screen at the end, keeps %d drawn lines", width, len(texts[0].drawn))
		}
	}
}

// wholeTranscript is every line of m's transcript, its answers replaced
// by copies made anew (answer(i) makes the i-th) and drawn whole.
func wholeTranscript(m *Model, answer func(i int) *textItem) []string {
	ref := newTranscript()
	k := 0
	for _, it := range m.tr.items {
		if _, ok := it.(*textItem); ok {
			it = answer(k)
			k++
		}
		ref.add(it)
	}
	return ref.window(&m.look, m.width, 0, ref.total(&m.look, m.width))
}

// TestStreamedAnswerKeepsItsLines: while a long answer streams, each
// frame shows the lines the answer so far has when drawn whole, though
// the answer keeps only the lines near the screen.
func TestStreamedAnswerKeepsItsLines(t *testing.T) {
	m := benchModel(t, 0)
	toks := tokensOf(answerText(24_000))
	th := m.transcriptHeight()
	for i, d := range toks {
		m.apply(engine.Event{Type: engine.EventAnswerDelta, RunID: "r", Delta: d})
		got := strings.Split(m.render(), "\n")[:th]
		if i%500 != 0 && i != len(toks)-1 {
			continue
		}
		want := wholeTranscript(m, func(int) *textItem {
			ti := &textItem{}
			for _, d := range toks[:i+1] {
				ti.add(d)
			}
			return ti
		})
		want = want[max(len(want)-th, 0):]
		for len(want) < th {
			want = append(want, "") // a short transcript starts at the top
		}
		for j, g := range got {
			if w := at(want, j); g != w {
				t.Fatalf("after %d deltas, line %d is %q, want %q", i+1, j, plain(g), plain(w))
			}
		}
	}
	for _, it := range m.tr.items {
		if ti, ok := it.(*textItem); ok && len(ti.drawn) > 10*th {
			t.Errorf("the streaming answer keeps %d drawn lines, want about a few screens (%d lines each)", len(ti.drawn), th)
		}
	}
}
