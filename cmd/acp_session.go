package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/llmrt/llmrt/cmd/internal/acpbridge"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// acpSession is one editor session: a host.Conversation driven as the
// chat drives one, with the editor as the person behind its prompts.
type acpSession struct {
	a       *acpAgent
	id      string
	h       *cmdHost
	conv    *host.Conversation
	updates *acpbridge.Updates
	forms   *acpForms

	// turn is held by a turn from start to end, so turns run one at a
	// time and close waits for the last.
	turn   sync.Mutex
	rt     *engine.Runtime // built by the first prompt (MCP servers start then)
	closed bool
	// mode guards the settings a client may change between turns.
	mode sync.Mutex
	// announced is closed once the slash commands are sent, which a
	// prompt waits for, so they come before any of its updates.
	announced chan struct{}
}

// openACPSession opens the host and conversation of a session in cwd:
// a new one, or the saved session resume.
func openACPSession(ctx context.Context, a *acpAgent, cwd, resume string, servers []acp.McpServer) (*acpSession, error) {
	flags := a.flags
	flags.Cwd = &cwd
	h, sess, err := a.f.openHost(ctx, flags, sessionFlags{resume: resume}, false)
	if err != nil {
		return nil, err
	}
	if err := h.s.addClientServers(a.f, servers); err != nil {
		h.hold(nil)
		return nil, err
	}
	s := &acpSession{a: a, h: h, updates: &acpbridge.Updates{Root: h.s.workDir}, announced: make(chan struct{})}
	if sess == nil {
		h.sessionID = session.NewID()
	}
	if s.conv, err = h.conversation(sess); err != nil {
		h.hold(nil)
		return nil, err
	}
	s.id = s.conv.ID()
	if s.id == "" {
		s.id = h.sessionID
	}
	s.forms = &acpForms{s: s, calls: map[string][]string{}}
	h.askMCP(func() ui.Prompter { return s.forms })
	h.wireHooks(s.conv.ID)
	if h.checkpoints != nil {
		h.checkpoints.wire(s.conv.ID, s.conv.Messages)
	}
	return s, nil
}

// modes are the permission modes a client may switch between.
func (s *acpSession) modes() *acp.SessionModeState {
	s.mode.Lock()
	current := s.h.s.permission.Mode
	s.mode.Unlock()
	desc := func(d string) *string { return &d }
	return &acp.SessionModeState{CurrentModeId: acp.SessionModeId(current), AvailableModes: []acp.SessionMode{
		{Id: acp.SessionModeId(engine.ModeAsk), Name: "Ask", Description: desc("Ask before each change and command")},
		{Id: acp.SessionModeId(engine.ModeAuto), Name: "Auto", Description: desc("Run changes and commands without asking (the sandbox still applies)")},
		{Id: acp.SessionModeId(engine.ModePlan), Name: "Plan", Description: desc("Read and plan; change nothing")},
		{Id: acp.SessionModeId(engine.ModeRead), Name: "Read", Description: desc("Read only; every change is refused")},
	}}
}

// setMode changes the permission mode of the session's turns to come,
// and tells the client.
func (s *acpSession) setMode(ctx context.Context, id string) error {
	mode, err := engine.ParseMode(id)
	if err != nil {
		return acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	s.mode.Lock()
	s.h.s.permission.Mode = mode
	written := string(mode) // the session records the mode it runs in
	s.h.s.recorded.Permission = &written
	s.mode.Unlock()
	s.notify(ctx, acp.SessionUpdate{CurrentModeUpdate: &acp.SessionCurrentModeUpdate{CurrentModeId: acp.SessionModeId(mode)}})
	return nil
}

// announceCommands tells the client the session's slash commands: the
// custom commands and skills, as the chat offers them. It runs once a
// session is open, after the client has its id.
func (s *acpSession) announceCommands(ctx context.Context) {
	defer close(s.announced)
	cmds := []acp.AvailableCommand{}
	for _, c := range s.h.s.customCommands() {
		ac := acp.AvailableCommand{Name: c.Name, Description: c.Desc}
		if c.Args != "" {
			ac.Input = &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: c.Args}}
		}
		cmds = append(cmds, ac)
	}
	s.notify(ctx, acp.SessionUpdate{AvailableCommandsUpdate: &acp.SessionAvailableCommandsUpdate{AvailableCommands: cmds}})
}

// notify sends one update; a client that went away is noticed by the
// connection, not here.
func (s *acpSession) notify(ctx context.Context, u acp.SessionUpdate) {
	_ = s.a.conn.SessionUpdate(context.WithoutCancel(ctx), acp.SessionNotification{SessionId: acp.SessionId(s.id), Update: u})
}

// replay sends the saved conversation to the client.
func (s *acpSession) replay(ctx context.Context) error {
	for _, u := range acpbridge.History(s.h.s.workDir, s.conv.Messages()) {
		if err := s.a.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: acp.SessionId(s.id), Update: u}); err != nil {
			return err
		}
	}
	return nil
}

// runtime returns the session's runtime, building it on first use.
func (s *acpSession) runtime() (*engine.Runtime, error) {
	if s.rt != nil {
		return s.rt, nil
	}
	rt, err := s.h.runtime(s.a.f.HTTPClient)
	if err != nil {
		return nil, err
	}
	s.rt = rt
	return rt, nil
}

// prompt runs one turn: the person's blocks (a slash command expanded),
// after answers to the questions a resumed session waits on. Its events
// stream to the client as updates; its end is the stop reason.
func (s *acpSession) prompt(ctx context.Context, blocks []acp.ContentBlock) (acp.PromptResponse, error) {
	s.turn.Lock()
	defer s.turn.Unlock()
	if s.closed {
		return acp.PromptResponse{}, acp.NewInvalidParams(map[string]any{"error": "the session is closed"})
	}
	<-s.announced
	msg, err := acpbridge.Prompt(s.readLinks(ctx, blocks))
	if err != nil {
		return acp.PromptResponse{}, acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	if err := s.checkSize(msg); err != nil {
		return acp.PromptResponse{}, err
	}
	rt, err := s.runtime()
	if err != nil {
		return acp.PromptResponse{}, acpError(err)
	}
	s.mode.Lock()
	turn := s.h.turn(rt, s.forms, s.sink(ctx))
	s.mode.Unlock()
	if s.a.capabilities().Fs.WriteTextFile {
		turn.Request.Hooks = editorHooks{inner: turn.Request.Hooks, s: s}
	}
	typed := strings.TrimSpace(msg.Text())
	// A prompt that opens with a slash command runs as the command asks;
	// the model gets its expansion, with the rest of the blocks after it.
	if first := &msg.Content[0]; first.Type == providers.PartText && strings.HasPrefix(strings.TrimSpace(first.Text), "/") {
		text, _, ok, err := s.h.commandTurn(ctx, &turn, strings.TrimSpace(first.Text))
		if err != nil {
			return acp.PromptResponse{}, acpError(err)
		}
		if ok {
			first.Text = text
		}
	}
	if pending := s.conv.Pending(); len(pending) > 0 {
		if turn.Answers, err = s.h.pendingAnswers(ctx, s.conv.ID(), pending, tools.Answer{}, false, s.forms); err != nil {
			return stopped(ctx, err)
		}
	}
	turn.Prompt, turn.Title = &msg, typed
	if err := s.h.promptHooks(ctx, &turn, typed); err != nil {
		return stopped(ctx, err)
	}
	s.updates.StartTurn()
	out, err := s.conv.Turn(ctx, turn)
	if err != nil {
		return stopped(ctx, err)
	}
	// A plan's steps go to the client's plan view too.
	if turn.Request.Permission.Mode == engine.ModePlan && out.Status == engine.StatusCompleted {
		if entries := acpbridge.PlanEntries(s.h.secrets.string(out.Output)); len(entries) > 0 {
			s.notify(ctx, acp.UpdatePlan(entries...))
		}
	}
	return stopReason(out)
}

// checkSize refuses a prompt larger than one message may be for the
// model, as the chat refuses one: nothing is sent or saved.
func (s *acpSession) checkSize(msg engine.Message) error {
	size := 0
	for _, p := range msg.Content {
		size += len(p.Text) + len(p.Data)
	}
	b := &inputBudget{lim: s.h.inputLimit()}
	if size <= b.lim.bytes() {
		return nil
	}
	_, text, hint := classify(b.refuse("the prompt", int64(size), false, "send a resource link instead, which the model reads in parts"))
	return acp.NewInvalidParams(map[string]any{"error": text, "hint": hint})
}

// stopped is the answer to a turn that ended in err before it ran: a
// cancelled one is cancelled, any other an error.
func stopped(ctx context.Context, err error) (acp.PromptResponse, error) {
	if ctx.Err() != nil || errors.Is(err, engine.ErrCancelled) {
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	}
	return acp.PromptResponse{}, acpError(err)
}

// stopReason maps how a turn ended to ACP's stop reasons; a failed run is
// an error carrying its message.
func stopReason(out host.Outcome) (acp.PromptResponse, error) {
	switch {
	case out.Cause != nil || out.Status == engine.StatusCancelled:
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	case out.Status == engine.StatusMaxIterations:
		return acp.PromptResponse{StopReason: acp.StopReasonMaxTurnRequests}, nil
	case out.Status == engine.StatusFailed:
		msg := "the run failed"
		if out.Error != nil {
			msg = out.Error.Message
		}
		return acp.PromptResponse{}, acp.NewInternalError(map[string]any{"error": msg})
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

// sink streams a turn's events to the client, and notes which call each
// permission request is about so the request names it. The streamed text
// goes through a streaming redactor, as the trace's does, so no run of
// chunks spells a secret the host knows.
func (s *acpSession) sink(ctx context.Context) engine.Sink {
	redact := s.h.secrets.stream()
	return func(ev engine.Event) {
		if ev.Type == engine.EventPermissionRequest && ev.Call != nil && ev.Permission != nil && ev.ParentID == "" {
			s.forms.expect(ev.Permission.Tool, ev.Permission.Arguments, ev.Call.ID)
		}
		if ev.Type == engine.EventWarning && ev.Warning != nil && ev.Warning.Code == host.NoteCode {
			s.h.warnf("%s", ev.Warning.Message)
		}
		redact.events(ev, func(ev engine.Event) {
			if ev.Result != nil {
				r := *ev.Result
				r.Output = s.h.secrets.string(r.Output)
				ev.Result = &r
			}
			if ev.Call != nil {
				c := *ev.Call
				c.Arguments = s.h.secrets.string(c.Arguments)
				ev.Call = &c
			}
			for _, u := range s.updates.Event(ev) {
				s.notify(ctx, u)
			}
		})
	}
}

// close ends the session: the running turn first, then the runtime (MCP
// servers stop) and the session's lock.
func (s *acpSession) close() {
	s.turn.Lock()
	defer s.turn.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	s.h.endHooks("other")
	s.conv.Close()
	if s.rt != nil {
		s.rt.Close()
	}
	s.h.hold(nil)
}

// acpForms puts permission requests and questions to the editor's user
// through session/request_permission: it is the ui.Prompter of a session,
// as the terminal's forms are of a run.
type acpForms struct {
	s *acpSession

	mu sync.Mutex
	// calls are the ids of the calls waiting for permission, by tool and
	// arguments: a permission request names no call, its event does.
	calls map[string][]string
	asked int // questions asked, for their ids
}

// expect notes the call a permission request is about to be asked for.
func (p *acpForms) expect(tool, args, id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := tool + "\x00" + args
	p.calls[k] = append(p.calls[k], id)
}

// callID returns the id of the call a request is about.
func (p *acpForms) callID(tool, args string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := tool + "\x00" + args
	ids := p.calls[k]
	if len(ids) == 0 {
		p.asked++
		return fmt.Sprintf("permission-%d", p.asked)
	}
	p.calls[k] = ids[1:]
	return ids[0]
}

// Permit asks the client whether a call may run: allow once, allow
// always (for the rest of the session) or deny.
func (p *acpForms) Permit(ctx context.Context, req engine.PermissionRequest) (ui.PermitResult, error) {
	id := p.callID(req.Tool, req.Arguments)
	req.Arguments = p.s.h.secrets.string(req.Arguments) // what the editor shows
	resp, err := p.s.a.conn.RequestPermission(ctx, acp.RequestPermissionRequest{
		SessionId: acp.SessionId(p.s.id), ToolCall: acpbridge.PermissionCall(p.s.h.s.workDir, id, req),
		Options: acpbridge.PermissionOptions()})
	if err != nil {
		return ui.PermitResult{}, err
	}
	d := acpbridge.Decision(resp.Outcome)
	if d.Action == engine.Cancel {
		return ui.PermitResult{}, &engine.CancelError{At: "the permission request"}
	}
	return ui.PermitResult{Decision: d}, nil
}

// Ask puts each question of an ask_user_input call to the client as a
// permission request whose options are the question's choices. One
// choice is taken per question; free text is not offered.
func (p *acpForms) Ask(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
	ans := tools.Answer{Selected: map[string][]string{}}
	for _, q := range in.Questions {
		p.mu.Lock()
		p.asked++
		base := fmt.Sprintf("question-%d", p.asked)
		p.mu.Unlock()
		call := acpbridge.QuestionCall(base, q)
		p.s.notify(ctx, acp.SessionUpdate{ToolCall: &acp.SessionUpdateToolCall{ToolCallId: call.ToolCallId,
			Title: *call.Title, Kind: *call.Kind, Status: acp.ToolCallStatusPending}})
		resp, err := p.s.a.conn.RequestPermission(ctx, acp.RequestPermissionRequest{
			SessionId: acp.SessionId(p.s.id), ToolCall: call, Options: acpbridge.QuestionOptions(in, q)})
		if err != nil {
			return tools.Answer{}, err
		}
		choice, skip, ok := acpbridge.Choice(q, resp.Outcome)
		status := acp.ToolCallStatusCompleted
		if !ok {
			status = acp.ToolCallStatusFailed
		}
		p.s.notify(ctx, acp.UpdateToolCall(call.ToolCallId, acp.WithUpdateStatus(status)))
		switch {
		case !ok:
			return tools.Answer{}, fmt.Errorf("question %s: %w", q.ID, engine.ErrCancelled)
		case skip:
			return tools.Answer{Skipped: true}, nil
		}
		ans.Selected[q.ID] = []string{choice}
	}
	return ans, nil
}
