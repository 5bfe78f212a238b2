package policy_test

import (
	"testing"

	"github.com/llmrt/llmrt/engine/policy"
)

// TestPathForms: a path argument is matched in the forms Policy.Paths
// gives it; a deny rule holds when one form matches, an allow rule only
// when all of the glob's kind do; an absolute glob is matched against
// the absolute forms.
func TestPathForms(t *testing.T) {
	// As a workspace at /ws would resolve them: link -> secrets.
	forms := map[string][]string{
		"/ws/secrets/s.txt": {"secrets/s.txt", "/ws/secrets/s.txt"},
		"link/s.txt":        {"link/s.txt", "secrets/s.txt", "/ws/link/s.txt", "/ws/secrets/s.txt"},
		"out/a.txt":         {"out/a.txt", "/ws/out/a.txt"},
		"/etc/passwd":       {"/etc/passwd"},
	}
	paths := func(p string) []string { return forms[p] }
	cases := []struct {
		rule, path string
		want       policy.Outcome
	}{
		{"deny read_file(path=secrets/**)", "/ws/secrets/s.txt", policy.Denied},
		{"deny read_file(path=secrets/**)", "link/s.txt", policy.Denied},
		{"deny read_file(path=link/**)", "link/s.txt", policy.Denied},
		{"deny read_file(path=secrets/**)", "out/a.txt", policy.Undecided},
		{"deny read_file(path=/ws/secrets/**)", "link/s.txt", policy.Denied},
		{"deny read_file(path=/etc/**)", "/etc/passwd", policy.Denied},
		{"deny read_file(path=**)", "/etc/passwd", policy.Denied},
		{"allow read_file(path=out/**)", "out/a.txt", policy.Allowed},
		{"allow read_file(path=link/**)", "link/s.txt", policy.Undecided},
		{"allow read_file(path=secrets/**)", "link/s.txt", policy.Undecided},
		{"allow read_file(path=*/s.txt)", "link/s.txt", policy.Allowed},
		{"allow read_file(path=/ws/**)", "link/s.txt", policy.Allowed},
	}
	for _, tc := range cases {
		p := policy.Policy{Mode: policy.ModeAsk, Rules: rules(t, tc.rule), Paths: paths}
		got := p.Decide(policy.Call{Tool: "read_file", Args: map[string]any{"path": tc.path}, Mutating: true}).Outcome
		if got != tc.want {
			t.Errorf("%s, path %s: got outcome %d, want %d", tc.rule, tc.path, got, tc.want)
		}
	}
}
