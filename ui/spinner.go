package ui

import (
	"fmt"
	"io"
	"sync"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/llmrt/llmrt/engine"
)

// spinFor starts the spinner that follows ev, if any: while the model
// thinks and while a tool runs.
func (p *Progress) spinFor(ev engine.Event) {
	if !p.opts.Live {
		return
	}
	var label string
	switch ev.Type {
	case engine.EventModelStart, engine.EventReasoningDelta:
		label = "thinking"
	case engine.EventToolStart:
		if quietTool(ev.Call.Name) {
			return
		}
		label = joinNonEmpty(ev.Call.Name, KeyArgument(ev.Call.Name, ev.Call.Arguments))
	default:
		return
	}
	p.spin = startSpinner(&p.mu, p.w, p.indentOf(ev)+label, p.dim)
}

// spinner shows that something is under way: a turning mark, what is
// happening, the time it has taken and how to stop it. It owns one line,
// which it clears when stopped, so what is printed next lands where the
// spinner was.
type spinner struct {
	stop chan struct{}
	done chan struct{}
}

// spinEvery is how often the spinner redraws.
const spinEvery = 100 * time.Millisecond

// spinWidth bounds the spinner's line, so it never wraps on a terminal
// of usual width (a wrapped line could not be cleared).
const spinWidth = 78

func startSpinner(mu *sync.Mutex, w io.Writer, label string, dim lipgloss.Style) *spinner {
	s := &spinner{stop: make(chan struct{}), done: make(chan struct{})}
	start := time.Now()
	go func() {
		defer close(s.done)
		t := time.NewTicker(spinEvery)
		defer t.Stop()
		for i := 0; ; i++ {
			tail := fmt.Sprintf("  %s · Ctrl-C to interrupt", Elapsed(time.Since(start)))
			line := SpinnerFrames[i%len(SpinnerFrames)] + " " + cut(label, spinWidth-2-widthOf(tail)) + tail
			mu.Lock()
			fmt.Fprint(w, "\r\x1b[2K"+dim.Render(line))
			mu.Unlock()
			select {
			case <-s.stop:
				mu.Lock()
				fmt.Fprint(w, "\r\x1b[2K")
				mu.Unlock()
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// end stops the spinner and clears its line; it returns once the line is
// clear. A nil spinner is stopped already.
func (s *spinner) end() {
	if s == nil {
		return
	}
	close(s.stop)
	<-s.done
}
