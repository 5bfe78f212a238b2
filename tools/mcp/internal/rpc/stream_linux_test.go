package rpc

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestServerNotReadingDoesNotHoldACall: a server that stops reading its
// input cannot hold a call past its context, however much is sent, and
// the stream is then broken for later calls (part of a message went).
func TestServerNotReadingDoesNotHoldACall(t *testing.T) {
	pr, pw, err := os.Pipe() // nobody reads pr
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	cr, sw := io.Pipe()
	defer sw.Close()
	c := NewClient(NewStream(cr, pw, nil), Options{})
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, "x", strings.Repeat("a", 4<<20), nil) }()
	// The context ends only once the message is on its way: the pipe
	// holds part of it and the write waits for a reader.
	waitPipeHolds(t, pr)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want Canceled", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call was held by a server that does not read")
	}
	later, stop := context.WithTimeout(context.Background(), 30*time.Second)
	defer stop()
	if err := c.Call(later, "y", nil, nil); !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "cut short") {
		t.Fatalf("a later call: got %v, want ErrClosed saying a message was cut short", err)
	}
}

// waitPipeHolds waits until some bytes sit unread in the pipe r.
func waitPipeHolds(t *testing.T, r *os.File) {
	t.Helper()
	for range 3000 {
		n, err := unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("nothing was written to the pipe in 30 s")
}
