package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/llmrt/llmrt/engine"
)

// answerText is realistic Markdown: paragraphs, lists and code fences,
// repeated to the size asked for.
func answerText(bytes int) string {
	unit := "## Step\n\nThe handler reads the request, checks the **token** and writes the reply; errors go to the log with the request id.\n\n" +
		"- parse the header\n- look the session up\n- write the body\n\n```go\nfunc handle(w http.ResponseWriter, r *http.Request) {\n\tid := r.Header.Get(\"X-Id\")\n\tlog.Printf(\"%s\", id)\n}\n```\n\n"
	return strings.Repeat(unit, bytes/len(unit)+1)[:bytes]
}

// benchModel is a chat screen at 120x40 with a running turn, fed events
// directly as the queue would deliver them.
func benchModel(tb testing.TB, history int) *Model {
	m := New(context.Background(), Options{Host: &fakeHost{}, Palette: NewPalette(true, true), Dark: true, Status: Status{Provider: "openai", Model: "gpt-5"}})
	m.Update(resize(120, 40))
	for i := range history {
		m.tr.add(&userItem{text: "question " + itoa(i)})
		t := &textItem{}
		t.add(answerText(600))
		t.finish()
		m.tr.add(t)
	}
	m.render() // history drawn once, as it would have been when it arrived
	m.busy, m.since = true, time.Now()
	m.apply(engine.Event{Type: engine.EventRunStart, RunID: "r"})
	m.apply(engine.Event{Type: engine.EventModelStart, RunID: "r"})
	return m
}

// feed sends n deltas of text through update and view, as a stream does
// when every delta gets a frame (the worst case: Bubble Tea draws at most
// 60 frames a second).
func feed(m *Model, text []string) {
	for _, d := range text {
		m.apply(engine.Event{Type: engine.EventAnswerDelta, RunID: "r", Delta: d})
		m.View() // the frame as the program gets it
	}
}

// tokensOf cuts text into about-a-token pieces of 4 bytes.
func tokensOf(s string) []string {
	out := make([]string, 0, len(s)/4+1)
	for i := 0; i < len(s); i += 4 {
		out = append(out, s[i:min(i+4, len(s))])
	}
	return out
}

// BenchmarkDeltaAtStart and BenchmarkDeltaAtEnd: a delta's cost at the
// start of a 100,000-token answer and at its end.
func BenchmarkDeltaAtStart(b *testing.B) {
	toks := tokensOf(answerText(400_000))
	m := benchModel(b, 0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		feed(m, toks[i%1000:i%1000+1])
	}
}

func BenchmarkDeltaAtEnd(b *testing.B) {
	toks := tokensOf(answerText(400_000))
	m := benchModel(b, 0)
	feed(m, toks[:len(toks)-1000])
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		feed(m, toks[len(toks)-1000+i%1000:len(toks)-1000+i%1000+1])
	}
}

// BenchmarkDeltaEmptyTranscript and BenchmarkDeltaAfter500Messages: a
// delta's cost with nothing above it and with 500 messages above it.
func BenchmarkDeltaEmptyTranscript(b *testing.B) {
	toks := tokensOf(answerText(40_000))
	m := benchModel(b, 0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		feed(m, toks[i%len(toks):i%len(toks)+1])
	}
}

func BenchmarkDeltaAfter500Messages(b *testing.B) {
	toks := tokensOf(answerText(40_000))
	m := benchModel(b, 250) // 250 questions and 250 answers
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		feed(m, toks[i%len(toks):i%len(toks)+1])
	}
}

// BenchmarkWholeAnswer streams a whole 100,000-token answer, one frame
// per delta, and reports the cost per delta over all of it.
func BenchmarkWholeAnswer(b *testing.B) {
	toks := tokensOf(answerText(400_000))
	for i := 0; i < b.N; i++ {
		m := benchModel(b, 0)
		feed(m, toks)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(toks)), "ns/delta")
}

// BenchmarkScroll pages up through four answers of 100,000 bytes to the
// top and back down, a frame per page: the cost of a page once the
// transcript was drawn at the width.
func BenchmarkScroll(b *testing.B) {
	m := benchModel(b, 0)
	for i := range 4 {
		m.tr.add(&userItem{text: "question " + itoa(i)})
		t := &textItem{}
		t.add(answerText(100_000))
		t.finish()
		m.tr.add(t)
	}
	m.scroll(-1 << 30) // every answer drawn at the width once
	m.render()
	m.scroll(1 << 30)
	m.render()
	up := true
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		switch {
		case up && m.tr.top == 0 && !m.tr.follow:
			up = false
		case !up && m.tr.follow:
			up = true
		}
		if up {
			m.key(tea.KeyPressMsg{Code: tea.KeyPgUp})
		} else {
			m.key(tea.KeyPressMsg{Code: tea.KeyPgDown})
		}
		m.View()
	}
}
