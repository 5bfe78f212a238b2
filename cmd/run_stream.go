package cmd

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// The --input-format values of llmrt run.
const (
	inputText       = "text"
	inputStreamJSON = "stream-json"
)

// checkInputFormat refuses what --input-format stream-json cannot serve,
// before any work: its prompts, answers and approvals all come from stdin,
// and its answers are the stream-json events.
func (opts *runOptions) checkInputFormat() error {
	switch opts.inputFormat {
	case "", inputText:
		return nil
	case inputStreamJSON:
	default:
		return usageErrorf("--input-format %q: use text or stream-json", opts.inputFormat)
	}
	switch {
	case opts.output != "stream-json":
		return withHint(usageErrorf("--input-format stream-json needs -o stream-json: the events it writes are the conversation's output"), "add -o stream-json")
	case opts.prompt != "" || len(opts.args) > 0:
		return usageErrorf(`--input-format stream-json reads the prompts from stdin, one JSON line each ({"type":"user","message":{"role":"user","content":"..."}}); drop -p and the prompt arguments`)
	case len(opts.attach) > 0:
		return usageErrorf("--input-format stream-json takes images as content blocks of the user messages on stdin; drop --attach")
	case len(opts.answers) > 0 || opts.answersJSON != "":
		return usageErrorf(`--input-format stream-json takes answers as lines on stdin ({"type":"answer","id":CALL_ID,"answers":{...}}); drop --answer and --answers`)
	}
	return nil
}

// maxInputLine bounds one line of --input-format stream-json: a message
// with a few images fits.
const maxInputLine = 32 << 20

// inputLine is one line of --input-format stream-json: a user message in
// Claude Code's shape, the answer to a question, or the decision on a
// permission request, the last two naming the call of their event.
type inputLine struct {
	Type    string `json:"type"`
	Message *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	ID       string                     `json:"id"`
	Answers  map[string]json.RawMessage `json:"answers"`
	Other    map[string]string          `json:"other"`
	Skipped  bool                       `json:"skipped"`
	Decision string                     `json:"decision"`
	Rule     string                     `json:"rule"`
	Reason   string                     `json:"reason"`
}

// inputError is the stream-json line that reports a line of input llmrt
// could not use; the conversation goes on.
type inputError struct {
	Type  string    `json:"type"`
	Time  time.Time `json:"time"`
	Line  int       `json:"line"`
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// converse runs `llmrt run --input-format stream-json`: one conversation,
// one turn per user message read from stdin, until stdin ends and the
// turns it asked for are done. Questions and permission requests wait for
// the lines that answer them. The exit code is the last turn's.
func (opts *runOptions) converse(ctx context.Context, h *cmdHost, sess *session.Session, base host.Turn, so *streamOutput) error {
	if sess != nil && len(sess.Pending) > 0 {
		return usageErrorf("session %s is waiting for answers; answer them first with llmrt run --resume %s --answer QUESTION=OPTION", sess.Meta.ID, sess.Meta.ID)
	}
	conv, err := h.conversation(sess)
	if err != nil {
		return err
	}
	defer conv.Close()
	so.sessionID = conv.ID
	h.wireHooks(conv.ID)
	if h.checkpoints != nil {
		h.checkpoints.wire(conv.ID, conv.Messages)
	}
	defer h.endHooks("other")

	waits := &replies{perms: map[string]waitingPermission{}, asks: map[string]chan<- engine.QuestionReply{}}
	queue := &prompts{wake: make(chan struct{}, 1)}
	in := &inputReader{out: so, waits: waits, queue: queue, conv: conv}
	// The reader ends at the end of stdin; a conversation stopped by a
	// signal leaves it blocked in a read, which the process's exit ends.
	go in.read(h.io.In)

	base.Approver, base.Asker = nil, nil
	base.Request.Permission.ReplyViaEvents = true
	base.Request.AskViaEvents = true
	events := base.Events
	base.Events = func(ev engine.Event) {
		waits.see(ev) // before the line that asks is written
		events(ev)
	}
	var last *host.Outcome
	for {
		msg, ok := queue.next(ctx)
		if !ok {
			break
		}
		t := base
		t.Prompt = &msg
		if err := h.promptHooks(ctx, &t, ""); err != nil {
			var blocked errPromptBlocked
			if !errors.As(err, &blocked) {
				return err
			}
			so.line(newInputError(0, "prompt_blocked", blocked.Error()))
			continue
		}
		tctx, stop := context.WithCancelCause(ctx)
		waits.turn(stop)
		res, err := conv.Turn(tctx, t)
		stop(nil)
		if err != nil {
			return err
		}
		last = &res
		if ctx.Err() != nil {
			break
		}
	}
	if last == nil {
		return nil
	}
	return resultError(h.s, last.Result, last.Cause, conv.Resumable())
}

func newInputError(line int, code, msg string) inputError {
	e := inputError{Type: "error", Time: time.Now(), Line: line}
	e.Error.Code, e.Error.Message = code, msg
	return e
}

// inputReader reads the lines of stdin and hands each where it goes.
type inputReader struct {
	out   *streamOutput
	waits *replies
	queue *prompts
	conv  *host.Conversation
}

// read reads stdin to its end, one line at a time, then ends the queue
// and answers whatever still waits: nobody will.
func (r *inputReader) read(in io.Reader) {
	defer r.queue.end()
	defer r.waits.close()
	br := bufio.NewReaderSize(in, 64<<10)
	for n := 1; ; n++ {
		line, tooLong, err := readLine(br, maxInputLine)
		switch {
		case tooLong:
			r.fail(n, "line %d is over %d MiB", n, maxInputLine>>20)
		case strings.TrimSpace(string(line)) != "":
			r.handle(n, line)
		}
		if err != nil {
			return
		}
	}
}

// readLine reads one line without its newline, at most limit bytes of
// it; the rest of a longer line is skipped and tooLong set.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return []byte(strings.TrimRight(string(line), "\r\n")), tooLong, err
	}
}

func (r *inputReader) fail(n int, format string, args ...any) {
	r.out.line(newInputError(n, "invalid_input", fmt.Sprintf(format, args...)))
}

// handle acts on one line of input.
func (r *inputReader) handle(n int, raw []byte) {
	var in inputLine
	if err := json.Unmarshal(raw, &in); err != nil {
		r.fail(n, "line %d is not a JSON object: %v", n, err)
		return
	}
	switch in.Type {
	case "user":
		msg, err := userMessage(in)
		if err != nil {
			r.fail(n, "line %d: %v", n, err)
			return
		}
		r.queue.push(msg)
	case "answer":
		a := tools.Answer{Selected: map[string][]string{}, Other: map[string]string{}, Skipped: in.Skipped}
		if err := selectAnswers(a.Selected, in.Answers); err != nil {
			r.fail(n, "line %d: %v", n, err)
			return
		}
		for q, text := range in.Other {
			a.Other[q] = text
		}
		if !r.waits.answer(in.ID, a) {
			r.fail(n, "line %d: no question waits for an answer with id %q (give the call id of its question event)", n, clipText(in.ID, 80))
		}
	case "permission":
		action := engine.DecisionAction(in.Decision)
		if action != engine.AllowOnce && action != engine.AllowAlways && action != engine.Deny {
			r.fail(n, "line %d: decision %q: use allow_once, allow_always or deny", n, clipText(in.Decision, 40))
			return
		}
		d := engine.Decision{Action: action, Reason: in.Reason, Rule: in.Rule}
		suggested, ok := r.waits.permission(in.ID, d)
		if !ok {
			r.fail(n, "line %d: no permission request waits for a decision with id %q (give the call id of its permission_request event)", n, clipText(in.ID, 80))
			return
		}
		if action == engine.AllowAlways {
			// Later turns of the conversation keep the rule, as a
			// person's "always" at the terminal does.
			rule := in.Rule
			if rule == "" {
				rule = suggested
			}
			r.conv.Allow(rule)
		}
	case "":
		r.fail(n, `line %d has no "type": use user, answer or permission`, n)
	default:
		r.fail(n, "line %d: unknown type %q: use user, answer or permission", n, clipText(in.Type, 40))
	}
}

// userMessage reads the message of a user line: its content a string or
// a list of text and base64 image blocks, as Claude Code writes them.
func userMessage(in inputLine) (engine.Message, error) {
	if in.Message == nil || len(in.Message.Content) == 0 {
		return engine.Message{}, errors.New(`a user line needs a message: {"type":"user","message":{"role":"user","content":"..."}}`)
	}
	if r := in.Message.Role; r != "" && r != "user" {
		return engine.Message{}, fmt.Errorf("message role %q: a user line holds the user's message (role user)", clipText(r, 40))
	}
	var text string
	if json.Unmarshal(in.Message.Content, &text) == nil {
		if strings.TrimSpace(text) == "" {
			return engine.Message{}, errors.New("the message is empty")
		}
		return providers.TextMessage(providers.RoleUser, text), nil
	}
	var blocks []struct {
		Type   string `json:"type"`
		Text   string `json:"text"`
		Source *struct {
			Type      string `json:"type"`
			MediaType string `json:"media_type"`
			Data      string `json:"data"`
		} `json:"source"`
	}
	if err := json.Unmarshal(in.Message.Content, &blocks); err != nil {
		return engine.Message{}, errors.New("message content must be a string or a list of content blocks")
	}
	msg := engine.Message{Role: providers.RoleUser}
	for i, b := range blocks {
		switch b.Type {
		case "text":
			msg.Content = append(msg.Content, providers.TextPart(b.Text))
		case "image":
			if b.Source == nil || b.Source.Type != "base64" {
				return engine.Message{}, fmt.Errorf("content block %d: an image needs a base64 source", i)
			}
			switch b.Source.MediaType {
			case "image/png", "image/jpeg", "image/gif", "image/webp":
			default:
				return engine.Message{}, fmt.Errorf("content block %d: image type %q: use image/png, image/jpeg, image/gif or image/webp", i, clipText(b.Source.MediaType, 40))
			}
			data, err := base64.StdEncoding.DecodeString(b.Source.Data)
			if err != nil {
				return engine.Message{}, fmt.Errorf("content block %d: the image data is not base64: %v", i, err)
			}
			msg.Content = append(msg.Content, providers.Part{Type: providers.PartImage, MediaType: b.Source.MediaType, Data: data})
		default:
			return engine.Message{}, fmt.Errorf("content block %d: type %q is not supported: use text or image", i, clipText(b.Type, 40))
		}
	}
	if len(msg.Content) == 0 || (len(blocks) == len(msg.Content) && strings.TrimSpace(msg.Text()) == "" && !hasImage(msg)) {
		return engine.Message{}, errors.New("the message is empty")
	}
	return msg, nil
}

func hasImage(m engine.Message) bool {
	for _, p := range m.Content {
		if p.Type == providers.PartImage {
			return true
		}
	}
	return false
}

// clipText cuts what a line said to n bytes for an error message.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
