package ui

import (
	"strings"
)

// menuKind says what a completion menu completes.
type menuKind int

const (
	menuNone menuKind = iota
	menuCommand
	menuFile
	// menuArg lists the values of a command's argument (query: its name).
	menuArg
)

// menu is the completion list shown above the editor.
type menu struct {
	kind  menuKind
	query string // what the entries complete
	items []menuItem
	sel   int      // -1: none yet (a menu of values, before a move)
	all   []Choice // menuArg: every value, before filtering
}

type menuItem struct {
	label, insert, desc string
}

func (m *menu) open() bool { return m.kind != menuNone && len(m.items) > 0 }

func (m *menu) move(d int) {
	switch {
	case len(m.items) == 0:
	case m.sel < 0 && d < 0:
		m.sel = len(m.items) - 1
	case m.sel < 0:
		m.sel = 0
	default:
		m.sel = (m.sel + d + len(m.items)) % len(m.items)
	}
}

// menuRows is the most entries shown at once.
const menuRows = 8

// view draws the menu, the selected entry marked.
func (m *menu) view(p Palette, width int) []string {
	if !m.open() {
		return nil
	}
	first := max(0, min(m.sel-menuRows+1, len(m.items)-menuRows))
	var out []string
	for i := first; i < len(m.items) && i < first+menuRows; i++ {
		it := m.items[i]
		line := "  " + it.label
		if it.desc != "" {
			line += "  " + p.Dim.Render(it.desc)
		}
		if i == m.sel {
			line = p.Cursor.Render("› "+it.label) + "  " + p.Dim.Render(it.desc)
		}
		out = append(out, cut(line, width))
	}
	return out
}

// commandMenu lists the commands starting with what was typed.
func commandMenu(cmds []Command, typed string) menu {
	if !strings.HasPrefix(typed, "/") || strings.ContainsAny(typed, " \n") {
		return menu{}
	}
	m := menu{kind: menuCommand, query: typed}
	for _, c := range cmds {
		if strings.HasPrefix("/"+c.Name, typed) {
			desc := c.Desc
			if c.Args != "" {
				desc = c.Args + " · " + desc
			}
			m.items = append(m.items, menuItem{label: "/" + c.Name, insert: "/" + c.Name, desc: desc})
		}
	}
	return m
}

// fileMenu lists workspace files for an @ mention.
func fileMenu(query string, files []string) menu {
	m := menu{kind: menuFile, query: query}
	for _, f := range files {
		m.items = append(m.items, menuItem{label: "@" + Sanitize(f), insert: "@" + f})
	}
	return m
}
