package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// updater is a form driven by messages.
type updater interface{ Update(tea.Msg) tea.Cmd }

// named maps key names, as tea.KeyPressMsg.String spells them, to keys.
var named = map[string]tea.KeyPressMsg{
	"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown}, "enter": {Code: tea.KeyEnter},
	"esc": {Code: tea.KeyEscape}, "space": {Code: tea.KeySpace, Text: " "}, "tab": {Code: tea.KeyTab},
	"pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown}, "home": {Code: tea.KeyHome},
	"end": {Code: tea.KeyEnd}, "backspace": {Code: tea.KeyBackspace}, "ctrl+c": {Code: 'c', Mod: tea.ModCtrl},
}

// keyNamed returns the key press for a name ("down", "ctrl+c") or one
// character ("j", "2").
func keyNamed(t *testing.T, name string) tea.KeyPressMsg {
	t.Helper()
	if k, ok := named[name]; ok {
		if k.String() != name {
			t.Fatalf("key %q prints as %q", name, k.String())
		}
		return k
	}
	r := []rune(name)
	if len(r) != 1 {
		t.Fatalf("unknown key %q", name)
	}
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

// press sends keys to f; "type:TEXT" types TEXT a character at a time
// and "paste:TEXT" pastes it.
func press(t *testing.T, f updater, keys ...string) {
	t.Helper()
	for _, k := range keys {
		switch {
		case strings.HasPrefix(k, "type:"):
			for _, r := range strings.TrimPrefix(k, "type:") {
				f.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
		case strings.HasPrefix(k, "paste:"):
			f.Update(tea.PasteMsg{Content: strings.TrimPrefix(k, "paste:")})
		default:
			f.Update(keyNamed(t, k))
		}
	}
}
