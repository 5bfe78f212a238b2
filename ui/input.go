package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// inputMaxRows is how tall the editor grows before it scrolls.
const inputMaxRows = 8

// input is the prompt editor: a multi-line text area, the history of what
// was sent, and the completion menu for slash commands and @ mentions.
type input struct {
	ta      textarea.Model
	history []string
	pos     int    // history entry shown while browsing; len(history): the draft
	draft   string // what was typed before browsing began
	menu    menu
	// view is the editor as last drawn; drawing it costs more than the
	// rest of a frame, so it is drawn again only when it changed.
	view  string
	drawn bool
}

// render returns the editor's lines.
func (in *input) render() string {
	if !in.drawn {
		in.view, in.drawn = in.ta.View(), true
	}
	return in.view
}

func newInput(p Palette) input {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Placeholder = "Ask anything · / for commands · @ to mention a file"
	ta.SetPromptFunc(2, func(pi textarea.PromptInfo) string {
		if pi.LineNumber == 0 {
			return p.Accent.Render("›") + " "
		}
		return "  "
	})
	ta.DynamicHeight = true
	ta.MinHeight, ta.MaxHeight = 1, inputMaxRows
	// The editor scrolls; only the line limit bounds what can be typed or
	// pasted.
	ta.MaxContentHeight = 10_000
	ta.CharLimit = 0
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"))
	st := textarea.DefaultStyles(true)
	st.Focused.CursorLine = lipgloss.NewStyle()
	st.Focused.Base = lipgloss.NewStyle()
	st.Focused.Placeholder = p.Dim
	st.Blurred = st.Focused
	ta.SetStyles(st)
	ta.Focus()
	return input{ta: ta}
}

func (in *input) value() string { return in.ta.Value() }

func (in *input) setValue(s string) {
	in.drawn = false
	in.ta.SetValue(s)
	in.ta.CursorEnd()
}

// reset empties the editor after a prompt was sent, remembering it.
func (in *input) reset(sent string) {
	if sent = strings.TrimSpace(sent); sent != "" && (len(in.history) == 0 || in.history[len(in.history)-1] != sent) {
		in.history = append(in.history, sent)
	}
	in.pos, in.draft = len(in.history), ""
	in.drawn = false
	in.ta.Reset()
	in.menu = menu{}
}

// browse moves through the history: -1 older, +1 newer. It reports
// whether the key was used (only on the first or last line).
func (in *input) browse(dir int) bool {
	if dir < 0 && in.ta.Line() != 0 || dir > 0 && in.ta.Line() != in.ta.LineCount()-1 {
		return false
	}
	next := in.pos + dir
	if next < 0 || next > len(in.history) {
		return false
	}
	if in.pos == len(in.history) {
		in.draft = in.ta.Value()
	}
	in.pos = next
	if next == len(in.history) {
		in.setValue(in.draft)
	} else {
		in.setValue(in.history[next])
	}
	return true
}

// setWidth fits the editor to the screen.
func (in *input) setWidth(w int) {
	in.drawn = false
	in.ta.SetWidth(max(w, 10))
}

func (in *input) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	in.drawn = false
	in.ta, cmd = in.ta.Update(msg)
	return cmd
}

// atEnd reports whether the cursor is at the end of the text, where
// completions apply.
func (in *input) atEnd() bool {
	v := in.ta.Value()
	last := v[strings.LastIndexByte(v, '\n')+1:]
	return in.ta.Line() == in.ta.LineCount()-1 && in.ta.Column() >= len([]rune(last))
}

// mention returns the @ word being typed at the end of the text, without
// the @, and whether there is one.
func (in *input) mention() (string, bool) {
	if !in.atEnd() {
		return "", false
	}
	v := in.ta.Value()
	i := strings.LastIndexAny(v, " \t\n")
	word := v[i+1:]
	if !strings.HasPrefix(word, "@") {
		return "", false
	}
	return word[1:], true
}

// replaceTail replaces the last n bytes of the text with s.
func (in *input) replaceTail(n int, s string) {
	v := in.ta.Value()
	in.setValue(v[:len(v)-n] + s)
}
