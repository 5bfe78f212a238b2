package ui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Palette is every style the screens use, in one value: components take
// it instead of building styles of their own, so a monochrome terminal
// (NO_COLOR, --no-color) gets one consistent look.
type Palette struct {
	// Color is false on a monochrome terminal: styles then use only bold,
	// faint and reverse, and nothing depends on colour to be read.
	Color bool

	Text     lipgloss.Style // ordinary text
	Dim      lipgloss.Style // secondary text: reasoning, hints, finished tool lines
	Accent   lipgloss.Style // headers, the prompt marker, titles
	User     lipgloss.Style // the person's messages
	Cursor   lipgloss.Style // the entry under the cursor in a list
	Selected lipgloss.Style // a toggled entry in a multi-select list
	OK       lipgloss.Style // a finished call, an allowed action
	Err      lipgloss.Style // a failed call, a denial, an error line
	Warn     lipgloss.Style // warnings and things that need the person
	Added    lipgloss.Style // diff lines added
	Removed  lipgloss.Style // diff lines removed
	Code     lipgloss.Style // commands, paths, rules
	Status   lipgloss.Style // the status line
	Border   lipgloss.Style // frames around prompts
}

// NewPalette returns the palette for a terminal with colour (on a dark
// or light background) or without.
func NewPalette(colour, dark bool) Palette {
	s := lipgloss.NewStyle()
	if !colour {
		return Palette{
			Text: s, Dim: s.Faint(true), Accent: s.Bold(true), User: s.Bold(true),
			Cursor: s.Reverse(true), Selected: s.Bold(true), OK: s, Err: s.Bold(true),
			Warn: s.Bold(true), Added: s, Removed: s, Code: s, Status: s.Reverse(true),
			Border: s,
		}
	}
	pick := lipgloss.LightDark(dark)
	c := func(light, darkHex string) color.Color { return pick(lipgloss.Color(light), lipgloss.Color(darkHex)) }
	return Palette{
		Color: true,
		Text:  s,
		// Faint, not grey: it reads on any background and needs no colour
		// support beyond the basic attributes.
		Dim:      s.Faint(true),
		Accent:   s.Foreground(c("#5f3dc4", "#b197fc")).Bold(true),
		User:     s.Foreground(c("#1c7ed6", "#74c0fc")).Bold(true),
		Cursor:   s.Foreground(c("#5f3dc4", "#d0bfff")).Bold(true),
		Selected: s.Foreground(c("#2b8a3e", "#8ce99a")),
		OK:       s.Foreground(c("#2b8a3e", "#69db7c")),
		Err:      s.Foreground(c("#c92a2a", "#ff8787")),
		Warn:     s.Foreground(c("#e67700", "#ffd43b")),
		Added:    s.Foreground(c("#2b8a3e", "#8ce99a")),
		Removed:  s.Foreground(c("#c92a2a", "#ffa8a8")),
		Code:     s.Foreground(c("#0b7285", "#99e9f2")),
		Status:   s.Foreground(c("#343a40", "#ced4da")).Background(c("#e9ecef", "#343a40")),
		Border:   s.Foreground(c("#adb5bd", "#495057")),
	}
}
