package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// chatHost is the chat screen's Host: each turn is a turn of a
// host.Conversation, as a run is, so a chat is recorded, resumed, approved
// and traced exactly as a run is.
type chatHost struct {
	h     *cmdHost
	f     *Factory
	notes *notes

	// mu is held by a turn or a command from start to end: one at a time,
	// and close waits for the last.
	mu    sync.Mutex
	rt    *engine.Runtime
	conv  *host.Conversation
	files []string // workspace files for @ mentions, listed again after each turn
	// forms are the running turn's prompts on the screen, for the MCP
	// servers' questions; nil between turns.
	formsMu sync.Mutex
	forms   ui.Prompter
	// pick is what the /model and /resume menus read.
	pick modelPick
	// closed says close ran (SessionEnd hooks run once).
	closed bool
}

// newChatHost returns the chat's host, continuing sess when it is set.
// Warnings and notes go to the screen (and to logs) from now on.
func newChatHost(h *cmdHost, sess *session.Session, f *Factory, logs io.Writer) (*chatHost, error) {
	c := &chatHost{h: h, f: f, notes: &notes{log: logs}}
	h.tell = c.notes.tell
	// The screen's /mcp shows each server's state; a start that goes
	// well is not worth a line of the transcript.
	h.quietStarts = true
	conv, err := h.conversation(sess)
	if err != nil {
		return nil, err
	}
	c.conv = conv
	h.wireHooks(func() string { return c.conv.ID() })
	if h.checkpoints != nil {
		h.checkpoints.wire(func() string { return c.conv.ID() }, func() []engine.Message { return c.conv.Messages() })
	}
	return c, nil
}

// close waits for the running turn to end and closes the session and the
// runtime (stopping MCP servers). It may be called more than once.
func (c *chatHost) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		c.h.endHooks("prompt_input_exit")
	}
	c.conv.Close()
	if c.rt != nil {
		c.rt.Close()
		c.rt = nil
	}
}

func (c *chatHost) sessionID() string { return c.conv.ID() }

// Status is what the status line shows; the screen asks again after
// each turn (ui.StatusHost).
func (c *chatHost) Status() ui.Status {
	s := c.h.s
	return ui.Status{Provider: s.provider, Model: s.model, Permission: string(s.permission.Mode),
		Sandbox: string(s.sandbox.Mode), Session: c.conv.ID(), Dir: s.workDir, Usage: c.conv.Usage()}
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
	c.h.askMCP(c.currentForms)
	c.rt = rt
	return rt, nil
}

func (c *chatHost) currentForms() ui.Prompter {
	c.formsMu.Lock()
	defer c.formsMu.Unlock()
	return c.forms
}

func (c *chatHost) setForms(p ui.Prompter) {
	c.formsMu.Lock()
	c.forms = p
	c.formsMu.Unlock()
}

// Turn runs one turn: answers to questions a resumed session left
// waiting, the person's prompt, then the loop to its terminal event.
func (c *chatHost) Turn(ctx context.Context, t ui.Turn) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notes.attach(t.Events)
	defer c.notes.attach(nil)
	c.setForms(t.Prompts)
	defer c.setForms(nil)
	rt, err := c.runtime()
	if err != nil {
		return err
	}
	if err := c.h.checkStrict(ctx, rt, true); err != nil {
		return err
	}
	turn := c.h.turn(rt, t.Prompts, c.logPanics(t.Events))
	if pending := c.conv.Pending(); len(pending) > 0 {
		if turn.Answers, err = c.h.pendingAnswers(ctx, c.conv.ID(), pending, tools.Answer{}, false, t.Prompts); err != nil {
			return err
		}
	}
	if strings.TrimSpace(t.Prompt) != "" {
		text, literal := t.Prompt, false
		if t.Command {
			// The screen shows the command as typed; the model gets its
			// expansion, and the turn runs as the command asks.
			var ok bool
			if text, literal, ok, err = c.h.commandTurn(ctx, &turn, t.Prompt); err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("%s: no such command or skill any more", strings.Fields(t.Prompt)[0])
			}
		}
		msg := providers.TextMessage(providers.RoleUser, text)
		if !literal {
			if msg, err = c.userMessage(ctx, text); err != nil {
				return err
			}
		}
		turn.Prompt, turn.Title = &msg, t.Prompt
	}
	if len(turn.Answers) == 0 && turn.Prompt == nil {
		return nil
	}
	defer func() { c.files = nil }() // the turn may have added files
	if err := c.h.promptHooks(ctx, &turn, t.Prompt); err != nil {
		return err
	}
	_, err = c.conv.Turn(ctx, turn)
	return err
}

// logPanics passes events on to the screen, writing the stack of a tool
// that panicked to the chat's log first: the screen shows the warning
// line, the log the rest.
func (c *chatHost) logPanics(sink engine.Sink) engine.Sink {
	return func(ev engine.Event) {
		if ev.Outcome != nil && ev.Outcome.Panic != nil {
			c.notes.logf("llmrt: tool %s panicked: %s\n%s\n", ev.Call.Name, ev.Outcome.Panic.Value, ev.Outcome.Panic.Stack)
		}
		sink(ev)
	}
}

// mentionPattern finds @path mentions in a prompt.
var mentionPattern = regexp.MustCompile(`(?:^|\s)@(\S+)`)

// userMessage is the prompt with every @mentioned workspace file and
// @server:uri MCP resource attached.
// A mention that names no file is left as text; a directory's is a
// listing of what it holds, two levels deep; one that cannot be attached
// (a binary file) is a warning. A message that
// would be larger than the model's limit (inputLimit) is refused whole:
// the error says why, and nothing is sent or saved.
func (c *chatHost) userMessage(ctx context.Context, prompt string) (engine.Message, error) {
	msg := providers.TextMessage(providers.RoleUser, prompt)
	if err := c.h.attachMentions(ctx, &msg, prompt); err != nil {
		return engine.Message{}, err
	}
	return msg, nil
}

// attachMentions adds to msg the workspace files prompt mentions with @
// (see chatHost.userMessage), within the room msg's text leaves.
func (h *cmdHost) attachMentions(ctx context.Context, msg *engine.Message, prompt string) error {
	ws, err := tools.NewWorkspace(h.s.workDir)
	if err != nil {
		return nil
	}
	used := 0
	for _, p := range msg.Content {
		used += len(p.Text)
	}
	b := &inputBudget{lim: h.inputLimit(), used: used}
	seen := map[string]bool{}
	for _, m := range mentionPattern.FindAllStringSubmatch(prompt, -1) {
		rel := strings.TrimRight(m[1], ".,;:!?)")
		if _, res := h.s.resourceMention(rel); seen[rel] || res {
			continue
		}
		seen[rel] = true
		abs, err := ws.Resolve(rel)
		if err != nil {
			continue
		}
		if st, err := os.Stat(abs); err == nil && st.IsDir() {
			listing := dirListing(ctx, ws, abs, strings.TrimRight(rel, "/"))
			if len(listing) > b.room() {
				h.warnf("@%s: the listing is larger than the room left in the message; it is not attached", rel)
				continue
			}
			b.used += len(listing)
			msg.Content = append(msg.Content, providers.Part{Type: providers.PartText, Text: listing})
			continue
		}
		part, err := attachment(abs, rel, true, b)
		var large *tooLargeError
		switch {
		case errors.As(err, &large):
			return withHintText(err)
		case err != nil:
			h.warnf("%v; it is not attached", errors.Unwrap(err))
			continue
		}
		msg.Content = append(msg.Content, part)
	}
	return h.attachResources(ctx, msg, prompt)
}

// dirListing lists what directory rel holds, two levels deep, as the
// text attached for an @mention of it: at most dirListingMax entries,
// directories marked with a slash, .gitignore'd and hidden ones left out.
func dirListing(ctx context.Context, ws *tools.Workspace, abs, rel string) string {
	var b strings.Builder
	n := 0
	fmt.Fprintf(&b, "Directory %s/ (two levels deep):\n", rel)
	ws.Walk(ctx, abs, tools.WalkOptions{MaxDepth: 2}, func(p string, d fs.DirEntry) error {
		if p == rel || p == "." || p == "" {
			return nil
		}
		if n == dirListingMax {
			b.WriteString("… more entries not listed\n")
			return tools.ErrStopWalk
		}
		n++
		b.WriteString(p)
		if d.IsDir() {
			b.WriteString("/")
		}
		b.WriteString("\n")
		return nil
	})
	if n == 0 {
		b.WriteString("(empty)\n")
	}
	return b.String()
}

// dirListingMax bounds a directory mention's listing.
const dirListingMax = 300

// Files lists workspace files and directories for @ completion: those
// whose name starts with prefix first, then those with a path segment
// that does, then those holding it anywhere. Hidden files and directories
// are offered only when what is typed names one (@.github/, @.env.example).
func (c *chatHost) Files(ctx context.Context, prefix string) []string {
	c.mu.Lock()
	if c.files == nil {
		c.files = listFiles(ctx, c.h.s.workDir, 20_000)
	}
	files := c.files
	c.mu.Unlock()
	return rankFiles(files, prefix, 50)
}

// rankFiles picks at most n of files for the typed query (see Files).
func rankFiles(files []string, query string, n int) []string {
	var base, segment, rest []string
	low := strings.ToLower(query)
	hidden := strings.HasPrefix(low, ".") || strings.Contains(low, "/.")
	for _, f := range files {
		l := strings.ToLower(f)
		if !hidden && (strings.HasPrefix(l, ".") || strings.Contains(l, "/.")) {
			continue
		}
		name := path.Base(strings.TrimSuffix(l, "/"))
		switch {
		case strings.HasPrefix(name, low) || strings.HasPrefix(l, low):
			base = append(base, f)
		case strings.HasPrefix(l, "/"+low) || strings.Contains(l, "/"+low):
			segment = append(segment, f)
		case strings.Contains(l, low):
			rest = append(rest, f)
		}
		if len(base) >= n {
			break
		}
	}
	// Among names that match, the shallowest and shortest paths first.
	slices.SortStableFunc(base, func(a, b string) int {
		if d := strings.Count(strings.TrimSuffix(a, "/"), "/") - strings.Count(strings.TrimSuffix(b, "/"), "/"); d != 0 {
			return d
		}
		return len(a) - len(b)
	})
	out := append(append(base, segment...), rest...)
	return out[:min(len(out), n)]
}

// notes carries what the host has to say while the screen is up: during
// a turn as warning events on the screen, before it as the screen's first
// notes. Every note also goes to the log.
type notes struct {
	mu   sync.Mutex
	log  io.Writer
	sink engine.Sink
	kept []keptNote
}

// tell reports a warning (shown as one) or a note.
func (n *notes) tell(warning bool, msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	kind := "note"
	if warning {
		kind = "warning"
	}
	fmt.Fprintf(n.log, "llmrt: %s: %s\n", kind, msg)
	if n.sink != nil {
		n.sink(noteEvent(warning, msg))
	} else {
		n.kept = append(n.kept, keptNote{msg: msg, warning: warning})
	}
}

// keptNote is a note said while no turn showed it.
type keptNote struct {
	msg     string
	warning bool
}

// noteEvent is the event that shows a note, or a warning, on the screen.
func noteEvent(warning bool, msg string) engine.Event {
	code := ui.NoteCode
	if warning {
		code = host.NoteCode
	}
	return engine.Event{Type: engine.EventWarning, Warning: &engine.Warning{Code: code, Message: msg}}
}

// logf writes to the log only.
func (n *notes) logf(format string, args ...any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	fmt.Fprintf(n.log, format, args...)
}

// attach sends what is said from now on to sink (nil: keeps it); what
// was kept since the last command took it goes there first (the MCP
// servers' start, begun when the screen came up).
func (n *notes) attach(sink engine.Sink) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sink = sink
	if sink == nil {
		return
	}
	for _, k := range n.kept {
		sink(noteEvent(k.warning, k.msg))
	}
	n.kept = nil
}

func (n *notes) take() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, k := range n.kept {
		out = append(out, k.msg)
	}
	n.kept = nil
	return out
}
