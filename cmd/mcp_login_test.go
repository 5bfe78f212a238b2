package cmd

import (
	"context"
	"runtime"
	"testing"
)

// TestMCPLoginFlags: login takes one server name, and offers a browser
// only when a person sees stderr.
func TestMCPLoginFlags(t *testing.T) {
	for _, tty := range []bool{false, true} {
		f, _, _ := testFactory(t, false, tty)
		var got *mcpLoginOptions
		cmd := newMCPLoginCmd(f, func(_ context.Context, o *mcpLoginOptions) error { got = o; return nil })
		cmd.SetArgs([]string{"linear"})
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		if got == nil || got.name != "linear" {
			t.Fatalf("stderr tty %v: options %+v, want name linear", tty, got)
		}
		if !tty && got.browser != nil {
			t.Errorf("no terminal: a browser is offered, want only the printed URL")
		}
	}
	f, _, _ := testFactory(t, false, false)
	cmd := newMCPLoginCmd(f, func(context.Context, *mcpLoginOptions) error { return nil })
	cmd.SetArgs([]string{})
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	if err := cmd.Execute(); err == nil {
		t.Errorf("login without a name: want an error")
	}
}

// TestSystemBrowser: no desktop, no browser.
func TestSystemBrowser(t *testing.T) {
	if runtime.GOOS == "linux" && systemBrowser(func(string) string { return "" }) != nil {
		t.Errorf("without DISPLAY or WAYLAND_DISPLAY a browser is offered")
	}
}
