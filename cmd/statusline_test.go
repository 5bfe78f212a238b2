package cmd

import (
	"testing"

	"github.com/llmrt/llmrt/ui"
)

// TestNotifyKind: the setting wins; auto picks the notification the
// terminal shows from the variables terminals set, and the bell inside a
// multiplexer, which passes the bell on.
func TestNotifyKind(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		setting *string
		env     map[string]string
		want    ui.Notify
	}{
		{str("off"), map[string]string{"TERM_PROGRAM": "iTerm.app"}, ui.NotifyOff},
		{str("bell"), map[string]string{"TERM_PROGRAM": "iTerm.app"}, ui.NotifyBell},
		{nil, map[string]string{"TERM_PROGRAM": "iTerm.app"}, ui.NotifyOSC9},
		{str("auto"), map[string]string{"TERM_PROGRAM": "WezTerm"}, ui.NotifyOSC9},
		{nil, map[string]string{"WT_SESSION": "x"}, ui.NotifyOSC9},
		{nil, map[string]string{"TERM": "foot"}, ui.NotifyOSC777},
		{nil, map[string]string{"TERM": "rxvt-unicode-256color"}, ui.NotifyOSC777},
		{nil, map[string]string{"TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/tmux-0/default,1,0"}, ui.NotifyBell},
		{nil, map[string]string{"TERM": "screen-256color"}, ui.NotifyBell},
		{nil, map[string]string{"TERM": "xterm-256color"}, ui.NotifyBell},
	} {
		if got := notifyKind(c.setting, func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v with %v: got %v, want %v", c.setting, c.env, got, c.want)
		}
	}
}
