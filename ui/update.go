package ui

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/llmrt/llmrt/engine"
)

// tickEvery is how often the spinner and the elapsed time move.
const tickEvery = 100 * time.Millisecond

// tickMsg moves the spinner. gen tells the ticks of the current busy
// spell from those of an earlier one, so only one chain of ticks runs.
type tickMsg struct {
	at  time.Time
	gen int
}

// filesMsg carries the workspace files matching an @ mention.
type filesMsg struct {
	query string
	files []string
}

// replyMsg is a host command's result.
type replyMsg struct {
	name  string // the command that answered
	reply Reply
	err   error
	// custom, when not nil, are the host's prompt commands now
	// (CommandsHost).
	custom []Command
}

// loadCustom asks a CommandsHost for its prompt commands once the screen
// is up (servers it starts in the meantime add theirs); nil for another
// host.
func (m *Model) loadCustom() tea.Cmd {
	ch, ok := m.host.(CommandsHost)
	if !ok {
		return nil
	}
	base := m.base
	return func() tea.Msg { return customMsg{custom: ch.PromptCommands(base)} }
}

// customMsg carries the host's prompt commands as they are after a turn
// (CommandsHost).
type customMsg struct{ custom []Command }

// Update applies one message to the screen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.in.setWidth(m.width)
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		if f := m.form(); f != nil {
			return m, m.formMsg(f, msg)
		}
		return m, m.in.update(msg)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.scroll(-3)
		case tea.MouseWheelDown:
			m.scroll(3)
		}
		return m, nil
	case batchMsg:
		if msg.turn != m.turn || m.q == nil {
			return m, nil
		}
		waiting := m.form() != nil
		for _, it := range msg.items {
			m.take(it)
		}
		if f := m.form(); f != nil && !waiting {
			return m, tea.Batch(m.q.wait, m.notify("llmrt is waiting for you"))
		}
		return m, m.q.wait
	case turnDoneMsg:
		if msg.turn != m.turn {
			return m, nil
		}
		took, stopped := time.Since(m.since), m.cancelling
		m.turnDone(msg)
		if m.planned != "" {
			// The turn planned: the choice of what to do with the plan
			// waits under it, before any queued prompt.
			m.forms = append(m.forms, m.planForm(m.planned))
			m.planned = ""
		}
		m.hint = "" // what it said was about the turn
		cmds := []tea.Cmd{m.refreshStatusLine()}
		if next := m.nextQueued(stopped); next != nil {
			cmds = append(cmds, next)
		} else if took >= notifyAfter {
			cmds = append(cmds, m.notify("llmrt finished a turn ("+Took(took)+")"))
		}
		return m, tea.Batch(cmds...)
	case statusLineMsg:
		return m, m.statusLineBack(msg)
	case statusLineAgainMsg:
		m.own.running = false
		return m, m.refreshStatusLine()
	case tickMsg:
		if msg.gen != m.ticks {
			return m, nil
		}
		m.look.now = msg.at
		if !m.busy {
			return m, nil
		}
		m.look.frame++
		return m, m.tickAgain()
	case argsMsg:
		m.argsBack(msg)
		return m, nil
	case filesMsg:
		if q, ok := m.in.mention(); ok && q == msg.query {
			m.in.menu = fileMenu(msg.query, msg.files)
		}
		return m, nil
	case customMsg:
		m.setCustom(msg.custom)
		return m, nil
	case replyMsg:
		cmd := m.applyReply(msg)
		follow := m.sendFollowUp(msg.err == nil)
		return m, tea.Batch(cmd, follow, m.nextQueued(errors.Is(msg.err, context.Canceled)))
	case editStartMsg:
		return m, runEditor(msg.path, msg.plan)
	case editorMsg:
		switch {
		case msg.plan && strings.TrimSpace(msg.text) == "" && msg.err == nil:
			m.hint = "the edited plan is empty: still planning"
		case msg.plan && msg.err != nil:
			m.tr.add(&noteItem{kind: noteError, text: msg.err.Error()})
			m.hint = "still planning: say what to change in the plan"
		case msg.plan:
			m.planEdited(msg.text)
		case msg.err != nil:
			m.tr.add(&noteItem{kind: noteError, text: msg.err.Error()})
		default:
			m.in.setValue(msg.text)
		}
		return m, nil
	}
	return m, m.in.update(msg)
}

// tick starts the spinner's ticks for a new busy spell.
func (m *Model) tick() tea.Cmd {
	m.ticks++
	return m.tickAgain()
}

func (m *Model) tickAgain() tea.Cmd {
	gen := m.ticks
	return tea.Tick(tickEvery, func(t time.Time) tea.Msg { return tickMsg{at: t, gen: gen} })
}

// take applies one queued item of the running turn.
func (m *Model) take(it any) {
	switch it := it.(type) {
	case askRequest:
		m.forms = append(m.forms, newAskEntry(it, m.look.pal))
	case permitRequest:
		m.forms = append(m.forms, newPermitEntry(it, m.look.pal))
	case engine.Event:
		m.apply(it)
	}
}

// startTurn runs one turn through the host. The host runs it on the
// command's goroutine; its events come back through the queue.
func (m *Model) startTurn(prompt string) tea.Cmd { return m.startTurnWith(Turn{Prompt: prompt}) }

// startTurnWith starts a turn of t, its events and prompts the screen's.
func (m *Model) startTurnWith(t Turn) tea.Cmd {
	m.turn++
	q := newQueue(m.turn)
	ctx, cancel := context.WithCancel(m.base)
	m.q, m.cancel, m.busy, m.cancelling = q, cancel, true, false
	m.state, m.since = "thinking", time.Now()
	m.runs, m.calls = map[string]*runView{}, map[string]*toolItem{}
	m.tr.follow = true
	host, base := m.host, m.base
	run := func() tea.Msg {
		t.Events, t.Prompts = q.event, q
		err := host.Turn(ctx, t)
		var st *Status
		if sh, ok := host.(StatusHost); ok {
			s := sh.Status()
			st = &s
		}
		q.finish(err, st)
		if ch, ok := host.(CommandsHost); ok {
			return customMsg{custom: ch.PromptCommands(base)}
		}
		return nil
	}
	return tea.Batch(run, q.wait, m.tick())
}

// stop cancels the running turn or host command.
func (m *Model) stop() {
	if m.cancel != nil && !m.cancelling {
		m.cancel()
		m.cancelling = true
		m.state = "stopping"
	}
}

// turnDone closes a turn once everything it queued was shown.
func (m *Model) turnDone(msg turnDoneMsg) {
	if msg.turn != m.turn {
		return
	}
	for _, f := range m.forms {
		f.abandon()
	}
	m.forms = nil
	m.cancelCalls()
	if msg.status != nil {
		m.status = *msg.status
	}
	if msg.err != nil && !errors.Is(msg.err, context.Canceled) {
		m.tr.add(&noteItem{kind: noteError, text: msg.err.Error()})
	}
	m.endBusy()
}

func (m *Model) endBusy() {
	if m.cancel != nil {
		m.cancel()
	}
	m.q, m.cancel, m.busy, m.cancelling, m.state = nil, nil, false, false, ""
	m.runUsage = engine.Usage{}
}
