package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// chatHost is the chat screen's Host: it keeps the conversation and runs
// each turn through the host layer run uses, so a chat is recorded,
// resumed, approved and traced exactly as a run is.
type chatHost struct {
	h     *host
	f     *Factory
	notes *noteWriter

	// mu is held by a turn or a command from start to end: one at a time,
	// and close waits for the last.
	mu    sync.Mutex
	rt    *engine.Runtime
	sess  *session.Session // the session continued, until its first turn opens it
	rec   *recorder        // the open session; nil before the first turn
	id    string           // the session's id once it is open
	msgs  []engine.Message // the conversation
	usage engine.Usage     // tokens of this session so far
	files []string         // workspace files for @ mentions, listed again after each turn
}

func newChatHost(h *host, sess *session.Session, f *Factory, logs io.Writer) *chatHost {
	c := &chatHost{h: h, f: f, sess: sess, notes: &noteWriter{log: logs}}
	h.errOut = h.secrets.writer(c.notes)
	h.diagnosticsShown = true // each turn's warning events show them
	if sess != nil {
		c.msgs = sess.Messages
	}
	return c
}

// close waits for the running turn to end and closes the session and the
// runtime (stopping MCP servers). It may be called more than once.
func (c *chatHost) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rec != nil {
		c.rec.close()
		c.rec = nil
	}
	if c.rt != nil {
		c.rt.Close()
		c.rt = nil
	}
}

func (c *chatHost) sessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionIDLocked()
}

func (c *chatHost) sessionIDLocked() string {
	if c.sess != nil {
		return c.sess.Meta.ID
	}
	return c.id
}

// status is what the status line shows.
func (c *chatHost) status() ui.Status {
	s := c.h.s
	return ui.Status{Provider: s.provider, Model: s.model, Permission: string(s.permission.Mode),
		Sandbox: string(s.sandbox.Mode), Session: c.sessionIDLocked(), Usage: c.usage}
}

// startNotes are the problems found before the screen opened.
func (c *chatHost) startNotes() []string { return c.notes.take() }

// runtime returns the runtime, building it on first use: MCP servers
// start with the first turn, not before the screen is up.
func (c *chatHost) runtime() (*engine.Runtime, error) {
	if c.rt != nil {
		return c.rt, nil
	}
	rt, err := c.h.runtime(c.f.HTTPClient)
	if err != nil {
		return nil, err
	}
	c.rt = rt
	return rt, nil
}

// Turn runs one turn: answers to questions a resumed session left
// waiting, the person's prompt, then the loop to its terminal event.
func (c *chatHost) Turn(ctx context.Context, t ui.Turn) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notes.attach(t.Events)
	defer c.notes.attach(nil)
	c.h.prompts = formPrompts{p: t.Prompts, h: c.h}
	rt, err := c.runtime()
	if err != nil {
		return err
	}
	if err := c.h.checkStrict(ctx, rt, c.h.s.request(nil)); err != nil {
		return err
	}
	var fresh []engine.Message
	pending := c.sess != nil && len(c.sess.Pending) > 0
	if pending {
		if fresh, err = c.h.answerPending(ctx, c.sess, tools.Answer{}, false); err != nil {
			return err
		}
	}
	if strings.TrimSpace(t.Prompt) != "" {
		fresh = append(fresh, c.userMessage(t.Prompt))
	}
	if len(fresh) == 0 {
		return nil
	}
	if err := c.openRecord(t.Prompt); err != nil {
		return err
	}
	// As for run: answers to a paused session are written once the run
	// makes progress, so a turn that fails at once leaves them pending.
	if pending {
		c.rec.hold(fresh...)
	} else {
		c.rec.add(fresh...)
	}
	c.msgs = append(c.msgs, fresh...)
	defer func() { c.files = nil }() // the turn may have added files
	res, _, err := c.h.run(ctx, rt, c.h.s.request(c.msgs), c.rec, t.Events)
	if err != nil {
		return err
	}
	if len(res.Messages) > 0 {
		c.msgs = res.Messages
	}
	c.usage = c.usage.Add(res.Usage)
	return nil
}

// openRecord opens the session on the first turn: the one resumed, or a
// new one titled by the first prompt (with the system prompt first).
func (c *chatHost) openRecord(title string) error {
	if c.rec != nil {
		return nil
	}
	rec, err := c.h.open(c.sess, c.h.meta(title))
	if err != nil {
		return err
	}
	c.rec, c.id = rec, rec.id
	if c.sess == nil && c.h.s.system != "" {
		sys := providers.TextMessage(providers.RoleSystem, c.h.s.system)
		rec.add(sys)
		c.msgs = append([]engine.Message{sys}, c.msgs...)
	}
	c.sess = nil
	return nil
}

// mentionPattern finds @path mentions in a prompt.
var mentionPattern = regexp.MustCompile(`(?:^|\s)@(\S+)`)

// userMessage is the prompt with every @mentioned workspace file attached.
// A mention that names no file is left as text.
func (c *chatHost) userMessage(prompt string) engine.Message {
	msg := providers.TextMessage(providers.RoleUser, prompt)
	ws, err := tools.NewWorkspace(c.h.s.workDir)
	if err != nil {
		return msg
	}
	seen := map[string]bool{}
	for _, m := range mentionPattern.FindAllStringSubmatch(prompt, -1) {
		rel := strings.TrimRight(m[1], ".,;:!?)")
		if seen[rel] {
			continue
		}
		seen[rel] = true
		abs, err := ws.Resolve(rel)
		if err != nil {
			continue
		}
		part, err := attachment(abs)
		if err != nil {
			c.h.warnf("@%s is not attached: %v", rel, errors.Unwrap(err))
			continue
		}
		msg.Content = append(msg.Content, part)
	}
	return msg
}

// Files lists workspace files for @ completion: paths starting with
// prefix first, then paths holding it.
func (c *chatHost) Files(ctx context.Context, prefix string) []string {
	c.mu.Lock()
	if c.files == nil {
		c.files = listFiles(ctx, c.h.s.workDir, 20_000)
	}
	files := c.files
	c.mu.Unlock()
	var first, rest []string
	low := strings.ToLower(prefix)
	for _, f := range files {
		switch l := strings.ToLower(f); {
		case strings.HasPrefix(l, low):
			first = append(first, f)
		case strings.Contains(l, low):
			rest = append(rest, f)
		}
		if len(first) >= 50 {
			break
		}
	}
	return append(first, rest...)[:min(len(first)+len(rest), 50)]
}

// noteWriter takes what the host would print on stderr while the screen
// is up: during a turn it becomes a warning on screen, otherwise it goes
// to the log and is kept for the screen's first notes.
type noteWriter struct {
	mu   sync.Mutex
	log  io.Writer
	sink engine.Sink
	kept []string
}

func (n *noteWriter) Write(p []byte) (int, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	fmt.Fprintf(n.log, "%s", p)
	for _, line := range strings.Split(strings.TrimSpace(string(p)), "\n") {
		line = strings.TrimPrefix(line, "llmrt: ")
		code := ui.NoteCode
		if rest, ok := strings.CutPrefix(line, "warning: "); ok {
			line, code = rest, "llmrt"
		}
		if line == "" {
			continue
		}
		if n.sink != nil {
			n.sink(engine.Event{Type: engine.EventWarning, Warning: &engine.Warning{Code: code, Message: line}})
		} else {
			n.kept = append(n.kept, line)
		}
	}
	return len(p), nil
}

func (n *noteWriter) attach(sink engine.Sink) {
	n.mu.Lock()
	n.sink = sink
	n.mu.Unlock()
}

func (n *noteWriter) take() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	k := n.kept
	n.kept = nil
	return k
}
