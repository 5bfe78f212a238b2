package rpc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Stream is the transport over a stdio server's pipes: one message per
// line each way.
type Stream struct {
	r      io.Reader
	w      io.WriteCloser
	closer func() error
	max    int // the longest line read; longer ones are skipped

	// wmu holds the right to write, one message at a time; it is a
	// channel so that a sender can give up waiting for it.
	wmu       chan struct{}
	broken    error
	closeOnce sync.Once
	closeErr  error
}

// NewStream returns a transport reading messages from r and writing them
// to w. Close closes w, then calls closer (when not nil), which ends the
// process behind the pipes. When w has write deadlines (an *os.File pipe)
// a send gives up when its context ends, even if the server has stopped
// reading; the stream is then broken, as part of a message may have gone.
func NewStream(r io.Reader, w io.WriteCloser, closer func() error) *Stream {
	return &Stream{r: r, w: w, closer: closer, max: MaxMessage, wmu: make(chan struct{}, 1)}
}

// deadliner is a writer whose writes can be cut short.
type deadliner interface {
	SetWriteDeadline(t time.Time) error
}

// Start implements Transport: a goroutine reads lines until the reader
// ends, then tells rc the connection is lost.
func (s *Stream) Start(_ context.Context, rc Receiver) error {
	go func() {
		err := ReadLines(s.r, s.max, func(line []byte) { rc.Receive(line) })
		if err == nil {
			err = errors.New("the server closed its output")
		}
		rc.Lost(err)
	}()
	return nil
}

// Send implements Transport; writes of concurrent calls never interleave.
func (s *Stream) Send(ctx context.Context, msg []byte, _ string) error {
	buf := make([]byte, 0, len(msg)+1)
	buf = append(append(buf, msg...), '\n')
	select {
	case s.wmu <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.wmu }()
	if s.broken != nil {
		return s.broken
	}
	if err := ctx.Err(); err != nil {
		return err // given up before a byte went: the stream is whole
	}
	if d, ok := s.w.(deadliner); ok {
		// The cut is made only while this write runs: a late one would
		// fail the next message.
		var mu sync.Mutex
		writing := true
		stop := context.AfterFunc(ctx, func() {
			mu.Lock()
			defer mu.Unlock()
			if writing {
				_ = d.SetWriteDeadline(time.Now())
			}
		})
		defer func() {
			mu.Lock()
			writing = false
			mu.Unlock()
			if !stop() {
				_ = d.SetWriteDeadline(time.Time{})
			}
		}()
	}
	if n, err := s.w.Write(buf); err != nil {
		if ctx.Err() != nil {
			if n == 0 {
				return ctx.Err() // cut before a byte went: the stream is whole
			}
			s.broken = fmt.Errorf("%w: an earlier message was cut short (the server stopped reading)", ErrClosed)
			return ctx.Err()
		}
		return fmt.Errorf("%w: write to the server: %w", ErrClosed, err)
	}
	return nil
}

// Close implements Transport.
func (s *Stream) Close() error {
	s.closeOnce.Do(func() {
		s.closeErr = s.w.Close()
		if s.closer != nil {
			if err := s.closer(); err != nil && s.closeErr == nil {
				s.closeErr = err
			}
		}
	})
	return s.closeErr
}

// ReadLines calls fn with each non-blank line of r, without its line end,
// until r ends (nil at EOF). A line longer than max is skipped whole,
// without being held in memory. fn must not keep the slice.
func ReadLines(r io.Reader, max int, fn func(line []byte)) error {
	lr := newLineReader(r, max)
	for {
		line, tooLong, err := lr.next()
		if line = bytes.TrimSpace(line); len(line) > 0 && !tooLong {
			fn(line)
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// lineReader reads lines of at most max bytes.
type lineReader struct {
	br   *bufio.Reader
	max  int
	long []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, min(64<<10, max)), max: max}
}

// next returns the next line without its "\n" or "\r\n"; a line longer
// than max bytes without them comes back empty with tooLong set. The slice is valid until the
// next call. At the end of r the last line (possibly empty) comes with
// io.EOF.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	if cap(l.long) > 1<<20 {
		l.long = nil // a big line's buffer is not kept for the small ones
	}
	l.long = l.long[:0]
	for {
		chunk, err := l.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if !tooLong {
				if len(l.long)+len(chunk) > l.max+2 {
					tooLong, l.long = true, nil
				} else {
					l.long = append(l.long, chunk...)
				}
			}
			continue
		}
		if tooLong {
			return nil, true, err
		}
		line := chunk
		if len(l.long) > 0 {
			l.long = append(l.long, chunk...)
			line = l.long
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > l.max {
			return nil, true, err
		}
		return line, false, err
	}
}
