package ui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Choice is one value a command's argument may take, for the menu that
// opens when the command is typed: /model lists models, /resume sessions.
type Choice struct {
	Value string
	// Desc is shown dimmed after the value, and filtered on with it.
	Desc string
}

// ArgsFunc lists the values of a command's argument. The screen calls it
// off its loop when the command and a space are typed, once per time the
// menu opens, and filters the list itself as the person types.
type ArgsFunc func(ctx context.Context) []Choice

// argsMsg is an ArgsFunc's answer for command name.
type argsMsg struct {
	name    string
	choices []Choice
}

// typedArg splits an editor value "/name arg" into the command's name
// and what was typed of its argument; ok is false for anything else.
func typedArg(v string) (name, arg string, ok bool) {
	if !strings.HasPrefix(v, "/") || strings.Contains(v, "\n") {
		return "", "", false
	}
	return strings.Cut(v[1:], " ")
}

// argMenu asks for the values of the command being typed, or narrows the
// list it has; nil when nothing is to be asked.
func (m *Model) argMenu(name, typed string) tea.Cmd {
	fn := m.args[name]
	if fn == nil {
		m.in.menu = menu{}
		return nil
	}
	if m.in.menu.kind == menuArg && m.in.menu.query == name {
		m.in.menu = choiceMenu(name, m.in.menu.all, typed)
		return nil
	}
	m.in.menu = menu{kind: menuArg, query: name} // asked; closed until the answer
	ctx := m.base
	return func() tea.Msg { return argsMsg{name: name, choices: fn(ctx)} }
}

// argsBack shows the values that came back, if their command is still
// being typed.
func (m *Model) argsBack(msg argsMsg) {
	name, typed, ok := typedArg(m.in.value())
	if !ok || name != msg.name || m.in.menu.kind != menuArg || m.in.menu.query != name {
		return
	}
	m.in.menu = choiceMenu(name, msg.choices, typed)
}

// choiceMenu is the menu of the choices whose value or description holds
// typed, ignoring case; all keeps the whole list for the next keystroke.
// Nothing is selected until the person moves, so Enter sends what they
// typed, unless it is one of the values.
func choiceMenu(name string, all []Choice, typed string) menu {
	mn := menu{kind: menuArg, query: name, all: all, sel: -1}
	want := strings.ToLower(strings.TrimSpace(typed))
	for _, c := range all {
		if want != "" && !strings.Contains(strings.ToLower(c.Value+" "+c.Desc), want) {
			continue
		}
		if strings.TrimSpace(typed) == c.Value {
			mn.sel = len(mn.items) // what was typed is a value: Enter takes it
		}
		mn.items = append(mn.items, menuItem{label: Sanitize(c.Value), insert: "/" + name + " " + c.Value, desc: oneLine(Sanitize(c.Desc))})
	}
	return mn
}
