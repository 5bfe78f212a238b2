package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers/catalog"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// Command runs the slash commands that need the host. Replies are
// Markdown for the transcript.
func (c *chatHost) Command(ctx context.Context, name, arg string) (ui.Reply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch name {
	case "model":
		return c.model(arg)
	case "tools":
		return c.tools(ctx)
	case "skills":
		return c.skills(), nil
	case "sessions":
		return c.sessions()
	case "resume":
		return c.resume(arg)
	case "clear":
		if err := c.reopen(nil); err != nil {
			return ui.Reply{}, err
		}
		st := c.status()
		return ui.Reply{History: []engine.Message{}, Status: &st, Text: "New session: the conversation is cleared."}, nil
	case "usage":
		u := c.conv.Usage()
		return ui.Reply{Text: fmt.Sprintf("This session: %d input tokens (%d read from cache), %d output tokens (%d reasoning).",
			u.InputTokens, u.CacheReadTokens, u.OutputTokens, u.ReasoningTokens)}, nil
	case "permission":
		return c.permission(arg)
	case "compact":
		return c.compact(ctx, arg)
	case "context":
		return c.context(ctx)
	}
	return ui.Reply{}, fmt.Errorf("/%s is not a command; /help lists them", name)
}

// reopen closes the conversation and opens sess, or a new one: the next
// turn starts or continues that session.
func (c *chatHost) reopen(sess *session.Session) error {
	conv, err := c.h.conversation(sess)
	if err != nil {
		return err
	}
	c.conv.Close()
	c.conv = conv
	return nil
}

func (c *chatHost) model(arg string) (ui.Reply, error) {
	s := c.h.s
	if arg == "" {
		return ui.Reply{Text: fmt.Sprintf("Model: `%s/%s`. Switch with `/model [provider/]name`; providers: %s.",
			s.provider, s.model, strings.Join(catalog.Names(), ", "))}, nil
	}
	provider, model := s.provider, arg
	if p, m, ok := strings.Cut(arg, "/"); ok {
		if _, known := catalog.Lookup(p); known {
			provider, model = p, m
		}
	}
	if err := s.switchModel(provider, model); err != nil {
		return ui.Reply{}, err
	}
	if c.rt != nil {
		c.rt.Close()
		c.rt = nil
	}
	st := c.status()
	return ui.Reply{Status: &st, Text: fmt.Sprintf("Now using `%s/%s`.", provider, model)}, nil
}

func (c *chatHost) tools(ctx context.Context) (ui.Reply, error) {
	rt, err := c.runtime()
	if err != nil {
		return ui.Reply{}, err
	}
	infos, err := rt.ResolveTools(ctx, c.h.request())
	if err != nil {
		return ui.Reply{}, err
	}
	var b strings.Builder
	b.WriteString("| tool | kind | source |\n|---|---|---|\n")
	for _, t := range infos {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", t.Name, t.Kind, t.Source)
	}
	for _, st := range mcpStatuses(c.h.s) {
		fmt.Fprintf(&b, "\nMCP server %s: %s", st.Name, st)
	}
	fmt.Fprintf(&b, "\n\nCommands: %s", commandsLine(c.h.s))
	return ui.Reply{Text: b.String()}, nil
}

func (c *chatHost) skills() ui.Reply {
	cat := c.h.s.skills
	if cat == nil || cat.Len() == 0 {
		return ui.Reply{Text: "No skills found. `llmrt skills` lists where they are looked for."}
	}
	var b strings.Builder
	for _, s := range cat.Skills() {
		fmt.Fprintf(&b, "- **%s** (%s): %s\n", s.Name, s.Root.Scope, oneLine(s.Description, 120))
	}
	return ui.Reply{Text: b.String()}
}

func (c *chatHost) sessions() (ui.Reply, error) {
	if c.h.store == nil {
		return ui.Reply{Text: "Sessions are not saved in this chat (--no-session)."}, nil
	}
	list, err := c.h.store.List()
	if err != nil {
		return ui.Reply{}, err
	}
	if len(list) == 0 {
		return ui.Reply{Text: "No saved sessions."}, nil
	}
	var b strings.Builder
	b.WriteString("| id | updated | status | title |\n|---|---|---|---|\n")
	for i, s := range list {
		if i == 15 {
			fmt.Fprintf(&b, "\n%d more: `llmrt sessions` lists them all.", len(list)-i)
			break
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", s.ID, s.Updated.Local().Format("01-02 15:04"), orDash(s.Status), oneLine(s.Title, 40))
	}
	b.WriteString("\nOpen one with `/resume ID`.")
	return ui.Reply{Text: b.String()}, nil
}

func (c *chatHost) resume(id string) (ui.Reply, error) {
	if id == "" {
		return c.sessions()
	}
	if c.h.store == nil {
		return ui.Reply{}, errors.New("sessions are not saved in this chat (--no-session)")
	}
	sess, err := loadSession(c.h.store, func(w string) { c.h.warnf("%s", w) }, id, false, c.h.s.workDir)
	if err != nil {
		return ui.Reply{}, err
	}
	if err := c.reopen(sess); err != nil {
		return ui.Reply{}, err
	}
	st := c.status()
	text := fmt.Sprintf("Resumed session %s.", id)
	if m := sess.Meta; m.Provider != "" && (m.Provider != c.h.s.provider || m.Model != c.h.s.model) {
		text += fmt.Sprintf(" It ran on `%s/%s`; this chat goes on with `%s/%s` (`/model` switches).", m.Provider, m.Model, c.h.s.provider, c.h.s.model)
	}
	return ui.Reply{History: sess.Messages, Status: &st, Text: text, Pending: len(sess.Pending) > 0}, nil
}

func (c *chatHost) permission(arg string) (ui.Reply, error) {
	if arg == "" {
		return ui.Reply{Text: fmt.Sprintf("Permission mode: `%s`. Change it with `/permission auto|ask|read`.", c.h.s.permission.Mode)}, nil
	}
	mode, err := engine.ParseMode(arg)
	if err != nil {
		return ui.Reply{}, err
	}
	c.h.s.permission.Mode = mode
	written := string(mode) // a session started from now on records it
	c.h.s.recorded.Permission = &written
	st := c.status()
	return ui.Reply{Status: &st, Text: fmt.Sprintf("Permission mode is now `%s`.", mode)}, nil
}

func (c *chatHost) compact(ctx context.Context, focus string) (ui.Reply, error) {
	rt, err := c.runtime()
	if err != nil {
		return ui.Reply{}, err
	}
	before, _ := rt.Context(ctx, c.request())
	_, err = c.conv.Compact(ctx, rt, c.h.request(), focus, nil)
	if errors.Is(err, engine.ErrNothingToCompact) {
		return ui.Reply{Text: "Nothing to compact yet: the conversation is only its latest turn."}, nil
	}
	if err != nil {
		return ui.Reply{}, fmt.Errorf("compact: %w", err)
	}
	after, _ := rt.Context(ctx, c.request())
	st := c.status()
	return ui.Reply{History: c.conv.Messages(), Status: &st, Text: fmt.Sprintf(
		"Compacted: the conversation went from about %d to %d tokens; the model goes on from its summary.", before.Conversation, after.Conversation)}, nil
}

func (c *chatHost) context(ctx context.Context) (ui.Reply, error) {
	rt, err := c.runtime()
	if err != nil {
		return ui.Reply{}, err
	}
	r, err := rt.Context(ctx, c.request())
	if err != nil {
		return ui.Reply{}, err
	}
	pct := func(n int) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(max(r.Window, 1))) }
	var b strings.Builder
	fmt.Fprintf(&b, "Context window of `%s`: %d tokens, about %d (%s) in use.\n\n", c.h.s.model, r.Window, r.Total, pct(r.Total))
	b.WriteString("| part | tokens | share |\n|---|---:|---:|\n")
	for _, row := range []struct {
		name string
		n    int
	}{{"system prompt", r.System}, {"project instructions and skills", r.Instructions}, {"tool definitions", r.Tools}, {"conversation", r.Conversation}} {
		fmt.Fprintf(&b, "| %s | %d | %s |\n", row.name, row.n, pct(row.n))
	}
	if set := c.h.s.projectDocs; set != nil && len(set.Files()) > 0 {
		b.WriteString("\nInstruction files read:\n")
		for _, f := range set.Files() {
			fmt.Fprintf(&b, "- `%s` (%d bytes)\n", f.Path, f.Bytes)
		}
	}
	b.WriteString("\nNear 85% of the window the conversation is compacted; `/compact [focus]` does it now.")
	return ui.Reply{Text: b.String()}, nil
}

// request is the request of the next turn, over the conversation so far.
func (c *chatHost) request() engine.Request {
	req := c.h.request()
	req.Messages = c.conv.Messages()
	return req
}

// listFiles lists up to limit files of the workspace, .gitignore honoured.
func listFiles(ctx context.Context, dir string, limit int) []string {
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		return []string{}
	}
	out := []string{}
	ws.Walk(ctx, ws.Root(), tools.WalkOptions{}, func(rel string, d fs.DirEntry) error {
		if !d.IsDir() {
			out = append(out, rel)
		}
		if len(out) >= limit {
			return tools.ErrStopWalk
		}
		return nil
	})
	return out
}
