package cmd

import (
	"fmt"
	"sync"
	"time"
)

// spinner shows on stderr that something is under way: a turning mark,
// what is happening, the time it has taken and how to stop it. It owns
// one line, which it clears when stopped, so what is printed next lands
// where the spinner was.
type spinner struct {
	mu   *sync.Mutex // shared with whatever else writes to the terminal
	w    func(string)
	stop chan struct{}
	done chan struct{}
}

var spinFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// spinEvery is how often the spinner redraws.
const spinEvery = 100 * time.Millisecond

func startSpinner(mu *sync.Mutex, write func(string), label string, dim bool) *spinner {
	s := &spinner{mu: mu, w: write, stop: make(chan struct{}), done: make(chan struct{})}
	start := time.Now()
	go func() {
		defer close(s.done)
		t := time.NewTicker(spinEvery)
		defer t.Stop()
		for i := 0; ; i++ {
			line := fmt.Sprintf("%s %s %s · Ctrl-C to interrupt", spinFrames[i%len(spinFrames)], label, elapsed(time.Since(start)))
			if dim {
				line = "\x1b[2m" + line + "\x1b[0m"
			}
			s.mu.Lock()
			s.w("\r\x1b[2K" + line)
			s.mu.Unlock()
			select {
			case <-s.stop:
				s.mu.Lock()
				s.w("\r\x1b[2K")
				s.mu.Unlock()
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

func elapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
