package cmd

import (
	"strings"
	"testing"
)

func TestVersionTextIsStamped(t *testing.T) {
	old := [3]string{version, commit, date}
	t.Cleanup(func() { version, commit, date = old[0], old[1], old[2] })
	version, commit, date = "1.2.3", "0123456789abcdef0123", "2026-11-24T16:00:00Z"
	got := versionText()
	for _, want := range []string{"llmrt 1.2.3 (", "commit 0123456789ab,", "built 2026-11-24T16:00:00Z", "go1."} {
		if !strings.Contains(got, want) {
			t.Errorf("versionText() = %q, want it to contain %q", got, want)
		}
	}
	if Version() != "1.2.3" {
		t.Errorf("Version() = %q", Version())
	}
}
