package cmd

import (
	"testing"
)

// TestACPFlagParsing uses the runF seam: the shared flags set every
// session's defaults, and arguments are refused.
func TestACPFlagParsing(t *testing.T) {
	f, _, _ := testFactory(t, false, false)
	var got *acpOptions
	cmd := newACPCmd(f, func(o *acpOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--provider", "anthropic", "--model", "claude-x", "--permission", "auto"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if deref(got.options.Provider) != "anthropic" || deref(got.options.Model) != "claude-x" || deref(got.options.Permission) != "auto" {
		t.Errorf("got provider %q model %q permission %q, want anthropic, claude-x, auto",
			deref(got.options.Provider), deref(got.options.Model), deref(got.options.Permission))
	}
	cmd = newACPCmd(f, func(o *acpOptions) error { return nil })
	cmd.SetArgs([]string{"stray"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	if err := cmd.Execute(); err == nil {
		t.Errorf("llmrt acp stray: got no error, want arguments refused")
	}
}
