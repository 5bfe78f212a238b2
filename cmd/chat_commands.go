package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers/catalog"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// commands are the chat's handlers of the slash commands it implements
// (ui.Commands declares them all). Each holds the host's lock from start
// to end, as a turn does: one turn or command at a time.
func (c *chatHost) commands() map[string]ui.CommandFunc {
	handlers := map[string]func(context.Context, string) (ui.Reply, error){
		"model":      c.modelCommand,
		"tools":      c.toolsCommand,
		"skills":     c.skillsCommand,
		"agents":     c.agentsCommand,
		"sessions":   c.sessionsCommand,
		"resume":     c.resumeCommand,
		"clear":      c.clearCommand,
		"usage":      c.usageCommand,
		"permission": c.permissionCommand,
		"plan":       c.planCommand,
		"compact":    c.compactCommand,
		"context":    c.contextCommand,
		"rewind":     c.rewindCommand,
		"mcp":        c.mcpCommand,
	}
	out := make(map[string]ui.CommandFunc, len(handlers))
	for name, h := range handlers {
		out[name] = func(ctx context.Context, arg string) (ui.Reply, error) {
			c.mu.Lock()
			defer c.mu.Unlock()
			r, err := h(ctx, arg)
			// What the host had to say meanwhile is shown with the reply.
			r.Warnings = append(r.Warnings, c.notes.take()...)
			return r, err
		}
	}
	return out
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
	// The hooks see one session end and the next start.
	c.h.endHooks("clear")
	c.h.hookStart = "clear"
	if sess != nil {
		c.h.hookStart = "resume"
	}
	return nil
}

// request is the request of the next turn, over the conversation so far.
func (c *chatHost) request() engine.Request {
	req := c.h.request()
	req.Messages = c.conv.Messages()
	return req
}

func (c *chatHost) modelCommand(_ context.Context, arg string) (ui.Reply, error) {
	s := c.h.s
	if arg == "" {
		return ui.Reply{Report: ui.ModelReport{Provider: s.provider, Model: s.model, Providers: catalog.Names()}}, nil
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
	c.notePick()
	st := c.Status()
	return ui.Reply{Status: &st, Report: ui.ModelReport{Provider: provider, Model: model, Switched: true}}, nil
}

func (c *chatHost) toolsCommand(ctx context.Context, _ string) (ui.Reply, error) {
	rt, err := c.runtime()
	if err != nil {
		return ui.Reply{}, err
	}
	infos, err := rt.ResolveTools(ctx, c.h.request())
	if err != nil {
		return ui.Reply{}, err
	}
	list := ui.ToolList{Tools: infos, Commands: commandsLine(c.h.s)}
	for _, st := range mcpStatuses(c.h.s) {
		list.Servers = append(list.Servers, st.report())
	}
	return ui.Reply{Report: list}, nil
}

func (c *chatHost) skillsCommand(context.Context, string) (ui.Reply, error) {
	var list ui.SkillList
	if cat := c.h.s.skills; cat != nil {
		for _, s := range cat.Skills() {
			list.Skills = append(list.Skills, ui.SkillInfo{Name: s.Name, Scope: string(s.Root.Scope), Description: s.Description})
		}
	}
	return ui.Reply{Report: list}, nil
}

func (c *chatHost) agentsCommand(context.Context, string) (ui.Reply, error) {
	var list ui.AgentList
	for _, a := range c.h.s.agents {
		list.Agents = append(list.Agents, agentInfo(a))
	}
	return ui.Reply{Report: list}, nil
}

func (c *chatHost) sessionsCommand(_ context.Context, arg string) (ui.Reply, error) {
	if c.h.store == nil {
		return ui.Reply{Report: ui.Notice("Sessions are not saved in this chat (--no-session).")}, nil
	}
	list, err := c.h.store.List()
	if err != nil {
		return ui.Reply{}, err
	}
	r := ui.SessionList{All: strings.TrimSpace(arg) == "all"}
	for _, s := range list {
		if !r.All && s.WorkDir != c.h.s.workDir {
			continue
		}
		r.Sessions = append(r.Sessions, ui.SessionInfo{ID: s.ID, Updated: s.Updated, Status: s.Status,
			Model: strings.Trim(s.Provider+"/"+s.Model, "/"), Title: s.Title, Dir: s.WorkDir, Bytes: s.Bytes})
	}
	return ui.Reply{Report: r}, nil
}

// resumeCommand continues session id in the chat, holding its lock (see
// loadSession) until the chat moves on to another session or ends.
func (c *chatHost) resumeCommand(ctx context.Context, id string) (ui.Reply, error) {
	if id == "" {
		return c.sessionsCommand(ctx, "")
	}
	if c.h.store == nil {
		return ui.Reply{}, errors.New("sessions are not saved in this chat (--no-session)")
	}
	if id == c.conv.ID() {
		// This chat holds the session (its writer, or the lock it was
		// resumed under): let go of it, to load it afresh below.
		if err := c.reopen(nil); err != nil {
			return ui.Reply{}, err
		}
		c.h.hold(nil)
	}
	sess, release, err := loadSession(ctx, c.h.store, func(w string) { c.h.warnf("%s", w) }, id, false, c.h.s.workDir)
	if err != nil {
		return ui.Reply{}, err
	}
	if err := c.reopen(sess); err != nil {
		release()
		return ui.Reply{}, err
	}
	c.h.hold(release)
	c.notePick()
	st := c.Status()
	r := ui.Resumed{ID: id}
	if m := sess.Meta; m.Provider != "" && (m.Provider != c.h.s.provider || m.Model != c.h.s.model) {
		r.RanOn, r.Now = m.Provider+"/"+m.Model, c.h.s.provider+"/"+c.h.s.model
	}
	if m := sess.Meta; m.WorkDir != "" && m.WorkDir != c.h.s.workDir {
		r.RanIn, r.Here = m.WorkDir, c.h.s.workDir
	}
	return ui.Reply{History: sess.Messages, Status: &st, Report: r, Pending: len(sess.Pending) > 0}, nil
}

func (c *chatHost) clearCommand(context.Context, string) (ui.Reply, error) {
	// The rules allowed for this session only end with it; the project's
	// are in the settings and stay.
	var rules []string
	for _, r := range c.conv.Allowed() {
		if !slices.ContainsFunc(c.h.s.permission.Rules, func(p engine.Rule) bool { return p.String() == r }) {
			rules = append(rules, r)
		}
	}
	if err := c.reopen(nil); err != nil {
		return ui.Reply{}, err
	}
	c.h.hold(nil) // the session left behind is free for others

	c.notePick()
	st := c.Status()
	note := "New session: the conversation is cleared."
	switch len(rules) {
	case 0:
	case 1:
		note += " So is the rule allowed always in it: " + rules[0] + "."
	default:
		note += fmt.Sprintf(" So are the %d rules allowed always in it: %s.", len(rules), strings.Join(rules, ", "))
	}
	return ui.Reply{History: []engine.Message{}, Status: &st, Report: ui.Notice(note)}, nil
}

func (c *chatHost) usageCommand(context.Context, string) (ui.Reply, error) {
	return ui.Reply{Report: ui.UsageReport{Usage: c.conv.Usage()}}, nil
}

func (c *chatHost) permissionCommand(_ context.Context, arg string) (ui.Reply, error) {
	if arg == "" {
		return ui.Reply{Report: ui.PermissionReport{Mode: string(c.h.s.permission.Mode)}}, nil
	}
	mode, err := engine.ParseMode(arg)
	if err != nil {
		return ui.Reply{}, err
	}
	return c.setMode(mode), nil
}

// planCommand enters plan mode and, given a prompt, sends it as the
// next turn.
func (c *chatHost) planCommand(_ context.Context, arg string) (ui.Reply, error) {
	r := c.setMode(engine.ModePlan)
	r.Send = arg
	return r, nil
}

// setMode changes the permission mode of the turns to come.
func (c *chatHost) setMode(mode engine.Mode) ui.Reply {
	c.h.s.permission.Mode = mode
	written := string(mode) // a session started from now on records it
	c.h.s.recorded.Permission = &written
	c.notePick()
	st := c.Status()
	return ui.Reply{Status: &st, Report: ui.PermissionReport{Mode: string(mode), Changed: true}}
}

func (c *chatHost) compactCommand(ctx context.Context, focus string) (ui.Reply, error) {
	rt, err := c.runtime()
	if err != nil {
		return ui.Reply{}, err
	}
	before, _ := rt.Context(ctx, c.request())
	if r := c.h.s.hooks; r != nil {
		r.PreCompact(ctx, "manual", focus)
	}
	_, err = c.conv.Compact(ctx, rt, c.h.request(), focus, nil)
	if errors.Is(err, engine.ErrNothingToCompact) {
		// /compact keeps the latest turns whole, up to a tenth of the
		// window (engine.Runtime.Compact): say so, with the numbers.
		window := c.h.s.contextWindow
		if window == 0 {
			window, _ = engine.ContextWindow(c.h.s.model)
		}
		return ui.Reply{Report: ui.Notice(fmt.Sprintf("Nothing to compact: the conversation is about %s tokens, and /compact keeps the latest turns as they are up to about %s (a tenth of the %s-token window).",
			ui.Tokens(before.Conversation), ui.Tokens(window/10), ui.Tokens(window)))}, nil
	}
	if err != nil {
		return ui.Reply{}, fmt.Errorf("compact: %w", err)
	}
	after, _ := rt.Context(ctx, c.request())
	c.notePick()
	st := c.Status()
	// The screen keeps what it shows; a marker says where the model's
	// view now starts from a summary.
	return ui.Reply{Status: &st, Report: ui.Compacted{Before: before.Conversation, After: after.Conversation}}, nil
}

func (c *chatHost) contextCommand(ctx context.Context, _ string) (ui.Reply, error) {
	rt, err := c.runtime()
	if err != nil {
		return ui.Reply{}, err
	}
	parts, err := rt.Context(ctx, c.request())
	if err != nil {
		return ui.Reply{}, err
	}
	// The chat's requests leave engine.Compaction at its default, which
	// compacts at 85% of the window.
	r := ui.ContextReport{Model: c.h.s.model, Parts: parts, CompactAt: 0.85}
	if set := c.h.s.projectDocs; set != nil {
		for _, f := range set.Files() {
			r.Files = append(r.Files, ui.InstructionFile{Path: f.Path, Bytes: f.Bytes})
		}
	}
	return ui.Reply{Report: r}, nil
}

// listFiles lists up to limit files and directories (with a trailing
// slash) of the workspace, hidden ones included, .gitignore honoured and
// .git left out.
func listFiles(ctx context.Context, dir string, limit int) []string {
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		return []string{}
	}
	out := []string{}
	ws.Walk(ctx, ws.Root(), tools.WalkOptions{Hidden: true}, func(rel string, d fs.DirEntry) error {
		switch {
		case rel == "." || rel == "":
		case d.IsDir():
			out = append(out, rel+"/")
		default:
			out = append(out, rel)
		}
		if len(out) >= limit {
			return tools.ErrStopWalk
		}
		return nil
	})
	return out
}
