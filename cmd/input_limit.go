package cmd

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/llmrt/llmrt/engine"
)

// inputLimit is how much text one message from the person may carry
// (prompt, piped stdin, --attach and @mentioned files together): half of
// the model's context window at four bytes a token, the engine's own
// estimate, so the system prompt, the tools, the conversation and the
// answer keep the other half. More would be compacted away at once, or
// refused by the provider after a long upload.
type inputLimit struct {
	model  string
	window int  // tokens
	known  bool // the window is the model's or the configured one, not a guess
}

// limitFor is the limit for model, whose window is configured (the
// context_window key; 0: none) or looked up in the engine's table.
func limitFor(model string, configured int) inputLimit {
	if configured > 0 {
		return inputLimit{model: model, window: configured, known: true}
	}
	w, ok := engine.ContextWindow(model)
	if !ok {
		w = engine.DefaultContextWindow
	}
	return inputLimit{model: model, window: w, known: ok}
}

// inputLimit is the limit of the model the host runs now.
func (h *cmdHost) inputLimit() inputLimit { return limitFor(h.s.model, h.s.contextWindow) }

func (l inputLimit) bytes() int { return l.window * 2 }

// inputBudget is what is left of a limit while a message is put together.
type inputBudget struct {
	lim  inputLimit
	used int
}

func (b *inputBudget) room() int { return max(b.lim.bytes()-b.used, 0) }

// refuse is the usage error for an input of size bytes (more than the
// limit, size unknown, when more is set) that does not fit; part says how
// to pass a part of it instead.
func (b *inputBudget) refuse(what string, size int64, more bool, part string) error {
	limit := byteSize(int64(b.lim.bytes()))
	var msg string
	switch {
	case more:
		msg = fmt.Sprintf("%s is larger than the %s", what, limit)
	case b.used > 0 && size <= int64(b.lim.bytes()):
		msg = fmt.Sprintf("%s (%s) would make the message %s, over the %s", what, byteSize(size), byteSize(int64(b.used)+size), limit)
	default:
		msg = fmt.Sprintf("%s is %s, over the %s", what, byteSize(size), limit)
	}
	window := "its " + thousands(b.lim.window) + "-token context window"
	if !b.lim.known {
		window = "the " + thousands(b.lim.window) + "-token context window assumed for a model llmrt does not know; set context_window if it is larger"
	}
	msg += fmt.Sprintf(" one message may carry for %s (half of %s); nothing was sent", b.lim.model, window)
	return &exitError{code: exitUsage, err: &tooLargeError{msg}, hint: part}
}

// tooLargeError is an input refused for its size.
type tooLargeError struct{ msg string }

func (e *tooLargeError) Error() string { return e.msg }

// withHintText is err with its hint on a line below, for a screen that
// shows errors as they are.
func withHintText(err error) error {
	var ee *exitError
	if errors.As(err, &ee) && ee.hint != "" {
		return fmt.Errorf("%w\n%s", err, ee.hint)
	}
	return err
}

// stdinPart says how to pass part of a piped input.
func stdinPart(l inputLimit) string {
	return fmt.Sprintf("pass a part (head -c %d FILE | llmrt run ...), or name the file in the prompt and let the model read what it needs with read_file (offset/limit)", l.bytes()/2)
}

// filePart says how to pass part of a file: in the words of the chat for
// an @mention, of the command line for --attach.
func filePart(path string, l inputLimit, mention bool) string {
	if mention {
		return fmt.Sprintf("name the file without @ and the model reads what it needs with read_file, or mention a part: head -c %d %s > part.txt, then @part.txt", l.bytes()/2, path)
	}
	return fmt.Sprintf("name the file in the prompt without --attach and let the model read what it needs with read_file (offset/limit), or attach a part: head -c %d %s > part.txt", l.bytes()/2, path)
}

// byteSize formats n bytes for a person: 812 bytes, 64 KB, 18.0 MB.
func byteSize(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " bytes"
	case n < 1_000_000:
		return strconv.FormatInt(n/1000, 10) + " KB"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
}

// thousands formats n with thousands separators: 272,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
