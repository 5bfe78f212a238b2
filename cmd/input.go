package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
)

const (
	maxStdin      = 10 << 20
	maxAttachment = 20 << 20
)

// stdinWait bounds how long a run that already has a prompt waits for the
// first byte of a piped stdin. An inherited pipe that nobody writes to
// must not hang the run.
var stdinWait = 3 * time.Second

// buildPrompt assembles the user message from the prompt text, piped stdin
// (attached as context below a prompt, or the prompt itself) and
// attachments. A missing prompt is an error when required. Reading stdin
// ends when ctx does (a signal), whatever the writer does.
func buildPrompt(ctx context.Context, o *IO, prompt string, attach []string, required bool) (engine.Message, error) {
	msg, ok, err := optionalPrompt(ctx, o, prompt, attach)
	if err == nil && !ok && required {
		err = withHint(usageErrorf("no prompt given"), `pass it with -p "...", as arguments, or on stdin (echo "..." | llmrt run)`)
	}
	return msg, err
}

// optionalPrompt is buildPrompt for runs that may continue without one;
// ok is false when there is no prompt.
func optionalPrompt(ctx context.Context, o *IO, prompt string, attach []string) (engine.Message, bool, error) {
	stdin, err := readStdin(ctx, o, strings.TrimSpace(prompt) != "")
	if err != nil {
		return engine.Message{}, false, err
	}
	text := strings.TrimSpace(prompt)
	switch {
	case text == "" && strings.TrimSpace(stdin) == "":
		if len(attach) > 0 {
			return engine.Message{}, false, usageErrorf("--attach needs a prompt that says what to do with the files")
		}
		return engine.Message{}, false, nil
	case text == "":
		text = strings.TrimSpace(stdin)
	case strings.TrimSpace(stdin) != "":
		text += "\n\n<stdin>\n" + strings.TrimRight(stdin, "\n") + "\n</stdin>"
	}
	msg := providers.TextMessage(providers.RoleUser, text)
	for _, path := range attach {
		part, err := attachment(path)
		if err != nil {
			return engine.Message{}, false, err
		}
		msg.Content = append(msg.Content, part)
	}
	return msg, true, nil
}

// readStdin reads piped or redirected stdin. A terminal is never read. A
// signal ends the wait at once: nothing has run yet, so there is nothing
// to save or resume.
func readStdin(ctx context.Context, o *IO, havePrompt bool) (string, error) {
	if o.InTTY || o.In == nil {
		return "", nil
	}
	if f, ok := o.In.(*os.File); ok && havePrompt && isPipe(f) && !readable(ctx, f, stdinWait) {
		if ctx.Err() != nil {
			return "", stoppedError(context.Cause(ctx), "")
		}
		return "", nil
	}
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	// This goroutine ends when stdin ends; when a signal comes first, the
	// process exits without waiting for it.
	go func() {
		data, err := io.ReadAll(io.LimitReader(o.In, maxStdin+1))
		done <- read{data, err}
	}()
	var data []byte
	select {
	case r := <-done:
		if r.err != nil {
			return "", fmt.Errorf("read stdin: %w", r.err)
		}
		data = r.data
	case <-ctx.Done():
		return "", stoppedError(context.Cause(ctx), "")
	}
	if len(data) > maxStdin {
		return "", usageErrorf("stdin is larger than %d MB; pass a smaller input or a file with --attach", maxStdin>>20)
	}
	if !utf8.Valid(data) {
		return "", usageErrorf("stdin is not UTF-8 text; attach binary files with --attach")
	}
	return string(data), nil
}

func isPipe(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0
}

// readable waits up to d for data or end-of-file on f, or until ctx ends.
func readable(ctx context.Context, f *os.File, d time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(f.Fd()), Events: unix.POLLIN | unix.POLLHUP}}
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left < 0 || ctx.Err() != nil {
			return false
		}
		// Wake at least every 100 ms to see whether ctx ended.
		n, err := unix.Poll(fds, int(min(left, 100*time.Millisecond).Milliseconds())+1)
		if err == nil && n == 0 {
			continue
		}
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err == nil && n > 0
	}
}

// attachment reads a file given with --attach as a content part: images
// and PDFs as media, text as a labelled text part.
func attachment(path string) (providers.Part, error) {
	st, err := os.Stat(path)
	if err != nil {
		return providers.Part{}, usageErrorf("--attach %s: %v", path, errors.Unwrap(err))
	}
	if st.IsDir() {
		return providers.Part{}, usageErrorf("--attach %s: is a directory", path)
	}
	if st.Size() > maxAttachment {
		return providers.Part{}, usageErrorf("--attach %s: %d MB is over the %d MB limit", path, st.Size()>>20, maxAttachment>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return providers.Part{}, usageErrorf("--attach %s: %v", path, err)
	}
	name := filepath.Base(path)
	mt := http.DetectContentType(data)
	switch mt {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return providers.Part{Type: providers.PartImage, MediaType: mt, Data: data, Name: name}, nil
	case "application/pdf":
		return providers.Part{Type: providers.PartDocument, MediaType: mt, Data: data, Name: name}, nil
	}
	if utf8.Valid(data) && !strings.ContainsRune(string(data), 0) {
		return providers.TextPart(fmt.Sprintf("<file name=%q>\n%s\n</file>", name, strings.TrimRight(string(data), "\n"))), nil
	}
	return providers.Part{}, usageErrorf("--attach %s: unsupported file type %s; attach PNG, JPEG, GIF, WebP, PDF or text files", path, mt)
}
