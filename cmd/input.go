package cmd

import (
	"bytes"
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
	// maxStdin and maxAttachment bound what is read whatever the model:
	// piped stdin, and an image or PDF given with --attach (text counts
	// against the message's limit, inputLimit).
	maxStdin      = 10 << 20
	maxAttachment = 20 << 20
)

// stdinWait bounds how long a run that already has a prompt waits for the
// first byte of a piped stdin. An inherited pipe that nobody writes to
// must not hang the run.
var stdinWait = 3 * time.Second

// buildPrompt assembles the user message from the prompt text, piped stdin
// (attached as context below a prompt, or the prompt itself) and
// attachments, within lim. A missing prompt is an error when required.
// Reading stdin ends when ctx does (a signal), whatever the writer does.
func buildPrompt(ctx context.Context, o *IO, prompt string, attach []string, required bool, lim inputLimit) (engine.Message, error) {
	msg, ok, err := optionalPrompt(ctx, o, prompt, attach, lim)
	if err == nil && !ok && required {
		err = withHint(usageErrorf("no prompt given"), `pass it with -p "...", as arguments, or on stdin (echo "..." | llmrt run)`)
	}
	return msg, err
}

// optionalPrompt is buildPrompt for runs that may continue without one;
// ok is false when there is no prompt. The text of the message (prompt,
// stdin and text attachments together) must fit lim: a larger one is
// refused before anything is sent or saved.
func optionalPrompt(ctx context.Context, o *IO, prompt string, attach []string, lim inputLimit) (engine.Message, bool, error) {
	b := &inputBudget{lim: lim, used: len(prompt)}
	stdin, err := readStdin(ctx, o, strings.TrimSpace(prompt) != "", b)
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
		part, err := attachment(path, path, false, b)
		if err != nil {
			return engine.Message{}, false, err
		}
		msg.Content = append(msg.Content, part)
	}
	return msg, true, nil
}

// readStdin reads piped or redirected stdin, at most what b has room for.
// A terminal is never read. A signal ends the wait at once: nothing has
// run yet, so there is nothing to save or resume.
func readStdin(ctx context.Context, o *IO, havePrompt bool, b *inputBudget) (string, error) {
	if o.InTTY || o.In == nil {
		return "", nil
	}
	if f, ok := o.In.(*os.File); ok && havePrompt && isPipe(f) && !readable(ctx, f, stdinWait) {
		if ctx.Err() != nil {
			return "", stoppedError(context.Cause(ctx), "")
		}
		return "", nil
	}
	room := min(b.room(), maxStdin)
	if f, ok := o.In.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > int64(room) {
			return "", b.refuse("stdin", st.Size(), false, stdinPart(b.lim))
		}
	}
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	// This goroutine ends when stdin ends; when a signal comes first, the
	// process exits without waiting for it.
	go func() {
		data, err := io.ReadAll(io.LimitReader(o.In, int64(room)+1))
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
	if len(data) > room {
		// The rest was not read: how much there is, is not known.
		return "", b.refuse("stdin", int64(room), true, stdinPart(b.lim))
	}
	if !utf8.Valid(data) {
		return "", usageErrorf("stdin is not UTF-8 text; attach binary files with --attach")
	}
	b.used += len(data)
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

// attachment reads a file, given with --attach or mentioned with @ in the
// chat (as shown), as a content part: images and PDFs as media, up to
// maxAttachment, and text as a labelled text part within what b has room
// for. A file too large is refused before it is read.
func attachment(path, shown string, mention bool, b *inputBudget) (providers.Part, error) {
	what := "--attach " + shown
	if mention {
		what = "@" + shown
	}
	f, err := os.Open(path)
	if err != nil {
		return providers.Part{}, usageErrorf("%s: %v", what, errors.Unwrap(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return providers.Part{}, usageErrorf("%s: %v", what, err)
	}
	if st.IsDir() {
		return providers.Part{}, usageErrorf("%s: is a directory", what)
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return providers.Part{}, usageErrorf("%s: %v", what, err)
	}
	mt := http.DetectContentType(head[:n])
	media := mt == "image/png" || mt == "image/jpeg" || mt == "image/gif" || mt == "image/webp" || mt == "application/pdf"
	switch {
	case media && st.Size() > maxAttachment:
		return providers.Part{}, usageErrorf("%s: %s is over the %s limit for images and PDFs", what, byteSize(st.Size()), byteSize(maxAttachment))
	case !media && st.Size() > int64(b.room()):
		return providers.Part{}, b.refuse(what, st.Size(), false, filePart(shown, b.lim, mention))
	}
	data, err := io.ReadAll(io.MultiReader(bytes.NewReader(head[:n]), f))
	if err != nil {
		return providers.Part{}, usageErrorf("%s: %v", what, err)
	}
	name := filepath.Base(path)
	if media {
		t := providers.PartImage
		if mt == "application/pdf" {
			t = providers.PartDocument
		}
		return providers.Part{Type: t, MediaType: mt, Data: data, Name: name}, nil
	}
	if utf8.Valid(data) && !strings.ContainsRune(string(data), 0) {
		if len(data) > b.room() { // it grew since it was looked at
			return providers.Part{}, b.refuse(what, int64(len(data)), false, filePart(shown, b.lim, mention))
		}
		b.used += len(data)
		return providers.TextPart(fmt.Sprintf("<file name=%q>\n%s\n</file>", name, strings.TrimRight(string(data), "\n"))), nil
	}
	return providers.Part{}, usageErrorf("%s: unsupported file type %s; attach PNG, JPEG, GIF, WebP, PDF or text files", what, mt)
}
