package ui

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// editorMsg carries the draft back from the editor; plan says it is a
// plan the person edited before approving it, not a prompt.
type editorMsg struct {
	text string
	err  error
	plan bool
}

// editStartMsg says the draft (or a plan) is in a file for the editor to
// open.
type editStartMsg struct {
	path string
	plan bool
}

// openEditor writes the draft to a temporary file (in a command: no IO
// in Update); the editor opens when it is written.
func (m *Model) openEditor() tea.Cmd {
	draft := m.in.value()
	return func() tea.Msg {
		f, err := os.CreateTemp("", "llmrt-prompt-*.md")
		if err != nil {
			return editorMsg{err: fmt.Errorf("open the editor: %w", err)}
		}
		_, err = f.WriteString(draft)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return editorMsg{err: fmt.Errorf("open the editor: %w", err)}
		}
		return editStartMsg{path: f.Name()}
	}
}

// runEditor hands the draft to $VISUAL or $EDITOR (vi when neither is
// set), the terminal released to it, and reads back what was saved.
func runEditor(path string, plan bool) tea.Cmd {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	words := strings.Fields(editor)
	c := exec.Command(words[0], append(words[1:], path)...)
	return tea.ExecProcess(c, func(err error) tea.Msg {
		defer os.Remove(path)
		if err != nil {
			return editorMsg{err: fmt.Errorf("%s: %w", editor, err), plan: plan}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return editorMsg{err: err, plan: plan}
		}
		return editorMsg{text: strings.TrimRight(string(data), "\n"), plan: plan}
	})
}
