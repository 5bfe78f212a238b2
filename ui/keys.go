package ui

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// pressWindow is how soon a second Ctrl-C (quit) or Esc (rewind) on an
// empty prompt must follow the first.
const pressWindow = 2 * time.Second

// key handles a key press: the form on screen takes every key; otherwise
// the screen's own keys come first and the rest go to the editor.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	if f := m.form(); f != nil {
		return m.formMsg(f, k)
	}
	s := k.String()
	if s != "ctrl+c" {
		m.quitArmed = time.Time{}
	}
	if s != "esc" {
		m.rewindArmed = time.Time{}
	}
	switch s {
	case "ctrl+c":
		return m.ctrlC()
	case "esc":
		switch {
		case m.in.menu.open():
			m.in.menu = menu{}
		case m.busy:
			m.stop()
		case m.in.value() == "":
			return m.escEmpty()
		}
		return nil
	case "ctrl+d":
		if m.in.value() == "" {
			return tea.Quit
		}
	case "pgup":
		m.scroll(-max(m.transcriptHeight()-2, 1))
		return nil
	case "home", "end":
		// With an empty editor they go to the transcript's top and end;
		// with text, to the start and end of its line.
		if m.in.value() == "" && !m.in.menu.open() {
			if s == "home" {
				m.scroll(-1 << 30)
			} else {
				m.scroll(1 << 30)
			}
			return nil
		}
	case "pgdown":
		m.scroll(max(m.transcriptHeight()-2, 1))
		return nil
	case "ctrl+o":
		m.toggleCall()
		return nil
	case "ctrl+r":
		m.look.showThinking = !m.look.showThinking
		m.look.gen++
		return nil
	case "ctrl+g":
		return m.openEditor()
	case "shift+tab":
		return m.cycleMode()
	case "tab":
		if m.in.menu.open() {
			return m.accept()
		}
		return nil
	case "up", "down":
		dir := map[string]int{"up": -1, "down": 1}[s]
		if m.in.menu.open() {
			m.in.menu.move(dir)
			return nil
		}
		if dir < 0 && m.unqueueLast() {
			return nil
		}
		if m.in.browse(dir) {
			return nil
		}
	case "enter":
		if m.in.menu.open() {
			if done := m.acceptOnEnter(); done != nil {
				return done
			}
		}
		return m.submit(m.in.value())
	}
	m.hint = ""
	return tea.Batch(m.in.update(k), m.refreshMenu())
}

// ctrlC stops a turn, clears a prompt, or on an empty prompt quits when
// pressed twice.
func (m *Model) ctrlC() tea.Cmd {
	switch {
	case m.busy:
		m.stop()
	case m.in.value() != "":
		m.in.reset("")
	case !m.quitArmed.IsZero() && time.Since(m.quitArmed) < pressWindow:
		return tea.Quit
	default:
		m.quitArmed = time.Now()
		m.hint = "press Ctrl-C again to quit"
	}
	return nil
}

// escEmpty is Esc on an empty prompt while nothing runs: the second one
// in quick succession starts /rewind with its list of turns open, when
// the chat has it.
func (m *Model) escEmpty() tea.Cmd {
	if _, run, ok := m.cmds.find("rewind"); !ok || run == nil {
		return nil
	}
	if m.rewindArmed.IsZero() || time.Since(m.rewindArmed) >= pressWindow {
		m.rewindArmed = time.Now()
		m.hint = "press Esc again to rewind"
		return nil
	}
	m.rewindArmed = time.Time{}
	m.hint = ""
	m.in.setValue("/rewind ")
	return m.refreshMenu()
}

// refreshMenu opens, narrows or closes the completion menu after an edit.
// Slash commands are completed at once; files through the host.
func (m *Model) refreshMenu() tea.Cmd {
	v := m.in.value()
	if name, arg, ok := typedArg(v); ok && strings.Contains(v, " ") {
		return m.argMenu(name, arg)
	}
	if strings.HasPrefix(v, "/") {
		m.in.menu = commandMenu(m.cmds.available(), v)
		return nil
	}
	q, ok := m.in.mention()
	if !ok {
		m.in.menu = menu{}
		return nil
	}
	if m.in.menu.kind == menuFile && m.in.menu.query == q {
		return nil
	}
	host, ctx := m.host, m.base
	return func() tea.Msg { return filesMsg{query: q, files: host.Files(ctx, q)} }
}

// accept puts the selected completion into the editor.
func (m *Model) accept() tea.Cmd {
	mn := m.in.menu
	it := mn.items[max(mn.sel, 0)]
	m.in.menu = menu{}
	switch mn.kind {
	case menuCommand:
		m.in.setValue(it.insert + " ")
		return m.refreshMenu() // the command's values, if it has some
	case menuFile:
		m.in.replaceTail(len(mn.query)+1, it.insert+" ")
	case menuArg:
		m.in.setValue(it.insert)
	}
	return nil
}

// acceptOnEnter completes on Enter; a complete command that takes no
// argument is sent at once. It returns nil when Enter should send.
func (m *Model) acceptOnEnter() tea.Cmd {
	mn := m.in.menu
	if mn.sel < 0 {
		return nil // nothing chosen: Enter sends what was typed
	}
	it := mn.items[mn.sel]
	switch mn.kind {
	case menuCommand:
		if c, _, ok := m.cmds.find(strings.TrimPrefix(it.insert, "/")); ok && c.Args == "" {
			m.in.menu = menu{}
			return m.submit(it.insert)
		}
	case menuArg:
		m.in.menu = menu{}
		return m.submit(it.insert)
	}
	return m.accept()
}

// submit sends what was typed: a slash command, or a prompt that starts
// a turn.
func (m *Model) submit(text string) tea.Cmd {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	if name, arg, ok := parseCommand(text); ok {
		return m.command(name, arg)
	}
	if m.busy {
		m.queuePrompt(text)
		return nil
	}
	m.in.reset(text)
	m.tr.add(&userItem{text: text})
	return m.startTurn(text)
}

// command runs a slash command: the screen's own here, the host's
// through its handler on a command's goroutine.
func (m *Model) command(name, arg string) tea.Cmd {
	c, run, ok := m.cmds.find(name)
	switch {
	case !ok:
		m.hint = "unknown command /" + name + ": /help lists them"
		return nil
	case c.Screen:
		return m.screenCommand(c)
	case c.Prompt:
		return m.promptCommand(name, arg)
	case run == nil:
		m.hint = "/" + name + " is not available in this chat: /help lists what is"
		return nil
	case m.busy:
		m.hint = "/" + name + " has to wait until the turn is over (Esc stops it)"
		return nil
	}
	line := "/" + strings.TrimSpace(name+" "+arg)
	m.in.reset(line)
	m.tr.add(&userItem{text: line})
	return m.hostCommand(name, arg, run)
}

// hostCommand runs a host's command handler on a command's goroutine,
// the screen busy until it answers.
func (m *Model) hostCommand(name, arg string, run CommandFunc) tea.Cmd {
	ctx, cancel := context.WithCancel(m.base)
	m.cancel, m.busy, m.cancelling = cancel, true, false
	m.state, m.since = "/"+name, time.Now()
	host, base := m.host, m.base
	do := func() tea.Msg {
		r, err := run(ctx, arg)
		msg := replyMsg{name: name, reply: r, err: err}
		if ch, ok := host.(CommandsHost); ok {
			msg.custom = ch.PromptCommands(base)
		}
		return msg
	}
	return tea.Batch(do, m.tick())
}

// promptCommand sends a prompt command as a turn: the screen shows the
// line as typed, as Claude Code does, and the host expands it. While a
// turn runs it waits in the queue like any prompt.
func (m *Model) promptCommand(name, arg string) tea.Cmd {
	line := "/" + strings.TrimSpace(name+" "+arg)
	if m.busy {
		m.queuePrompt(line)
		return nil
	}
	m.in.reset(line)
	m.tr.add(&userItem{text: line})
	return m.startTurnWith(Turn{Prompt: line, Command: true})
}

// screenCommand runs a command the screen handles itself.
func (m *Model) screenCommand(c Command) tea.Cmd {
	switch c.Name {
	case "exit":
		return tea.Quit
	case "help":
		m.in.reset("/help")
		m.tr.add(&reportItem{r: help{cmds: m.cmds.available()}})
		return nil
	case "edit":
		m.in.reset("")
		return m.openEditor()
	}
	m.hint = "/" + c.Name + " is not available in this chat"
	return nil
}

// applyReply shows what a host command changed.
func (m *Model) applyReply(msg replyMsg) tea.Cmd {
	m.endBusy()
	if msg.custom != nil {
		m.setCustom(msg.custom)
	}
	switch {
	case errors.Is(msg.err, context.Canceled):
		m.tr.add(&noteItem{text: "cancelled"})
		return nil
	}
	r := msg.reply
	if r.History != nil {
		m.tr = newTranscript()
		m.showHistory(r.History)
	}
	for _, w := range r.Warnings {
		m.tr.add(&noteItem{kind: noteWarn, text: w})
	}
	if msg.err != nil {
		m.tr.add(&noteItem{kind: noteError, text: msg.err.Error()})
		return nil
	}
	var own tea.Cmd
	if r.Status != nil {
		m.status = *r.Status
		own = m.refreshStatusLine()
	}
	if r.Report != nil {
		m.tr.add(&reportItem{r: cleanReport(r.Report)})
	}
	if r.Send != "" {
		m.follow = &followUp{show: r.Send, prompt: r.Send}
	}
	if r.Ask != nil {
		m.forms = append(m.forms, m.commandForm(msg.name, *r.Ask))
	}
	if r.Pending {
		return tea.Batch(own, m.startTurn(""))
	}
	return own
}

// scroll moves the transcript by delta lines.
func (m *Model) scroll(delta int) {
	m.tr.scroll(&m.look, m.width, m.transcriptHeight(), delta)
}
