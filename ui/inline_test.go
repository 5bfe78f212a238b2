package ui

import (
	"bytes"
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
)

// lockedBuffer is an output the program writes to while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// inlineTerm is a Terminal whose input the test types into. The pipe stays
// open, as a terminal does, until the test ends.
func inlineTerm(t *testing.T) (Terminal, *io.PipeWriter, *lockedBuffer) {
	t.Helper()
	r, w := io.Pipe()
	t.Cleanup(func() { w.Close() })
	out := &lockedBuffer{}
	return Terminal{In: r, Out: out, Palette: mono}, w, out
}

// typeAfter writes input once the form is on the screen (its first frame
// names want), so keys are not read before the program is ready.
func typeAfter(t *testing.T, out *lockedBuffer, w io.Writer, want, input string) {
	t.Helper()
	go func() {
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(out.String(), want) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		io.WriteString(w, input)
	}()
}

// TestInlineAsk: keys read from In answer the question; the program's
// output ends with the summary line and not the list.
func TestInlineAsk(t *testing.T) {
	term, w, out := inlineTerm(t)
	typeAfter(t, out, w, "Which language", "\x1b[B\r") // down, enter
	a, err := term.Ask(context.Background(), singleInput())
	if err != nil {
		t.Fatal(err)
	}
	if want := ans(sel("lang", "fr")); !reflect.DeepEqual(a, want) {
		t.Errorf("got %+v, want %+v", a, want)
	}
	s := out.String()
	if end := strings.LastIndex(s, "✔ Language: French"); end < 0 || strings.Contains(s[end:], "German") {
		t.Errorf("the last frame should be the summary, without the list; output %q", s)
	}
}

// TestInlineCancel: Ctrl-C at a question, and "Cancel the run" at a
// permission prompt, return the one cancel error, naming the prompt.
func TestInlineCancel(t *testing.T) {
	term, w, out := inlineTerm(t)
	typeAfter(t, out, w, "Which language", "\x03")
	_, err := term.Ask(context.Background(), singleInput())
	if want := "cancelled at a question"; !isCancel(err, want) {
		t.Errorf("Ctrl-C at a question: got %v, want %q", err, want)
	}
	term, w, out = inlineTerm(t)
	typeAfter(t, out, w, "Allow shell_cmd", "5")
	r, err := term.Permit(context.Background(), shellRequest("ls"))
	if want := "cancelled at the permission prompt"; !isCancel(err, want) || r.Decision.Action != engine.Cancel {
		t.Errorf("Cancel the run: got %+v, %v, want Cancel and %q", r, err, want)
	}
}

// isCancel reports whether err is the cancel error with message want, and
// is seen as a cancellation by errors.Is.
func isCancel(err error, want string) bool {
	var stop *engine.CancelError
	return errors.As(err, &stop) && err.Error() == want &&
		errors.Is(err, engine.ErrCancelled) && errors.Is(err, context.Canceled)
}

// TestInlinePermit: a choice made with a number key comes back whole.
func TestInlinePermit(t *testing.T) {
	term, w, out := inlineTerm(t)
	typeAfter(t, out, w, "Allow shell_cmd", "3")
	r, err := term.Permit(context.Background(), shellRequest("ls"))
	want := PermitResult{Decision: engine.Decision{Action: engine.AllowAlways, Rule: "shell_cmd(command=find *)"}, Project: true}
	if err != nil || !reflect.DeepEqual(r, want) {
		t.Errorf("got %+v, %v, want %+v", r, err, want)
	}
	if !strings.Contains(out.String(), "✔ shell_cmd: allowed always in this project") {
		t.Errorf("the summary should be drawn, output %q", out.String())
	}
}

// TestInlineContextEnds: a context that ends while the form is open ends
// it with the context's error, and the form is drawn as cancelled.
func TestInlineContextEnds(t *testing.T) {
	term, _, out := inlineTerm(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("stopped by the test")
	go func() {
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(out.String(), "Which language") && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		cancel(stop)
	}()
	_, err := term.Ask(ctx, singleInput())
	if !errors.Is(err, stop) {
		t.Errorf("got %v, want the context's cause", err)
	}
	if !strings.Contains(out.String(), "✗ Cancelled") {
		t.Errorf("the form should end drawn as cancelled, output %q", out.String())
	}
}
