package cmd

import (
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
)

// TestApplyResumed: a resumed session's options apply unless a flag sets
// them now; its rules are kept beside the rules given now.
func TestApplyResumed(t *testing.T) {
	recorded := session.Options{Finish: engine.FinishText, Permission: engine.ModeAuto, Tools: "read-only",
		Allow: []string{"write_file(path=out/**)"}, MaxIterations: 5, ReasoningEffort: "high"}
	cases := []struct {
		name    string
		flags   map[string]bool
		finish  engine.FinishPolicy
		mode    engine.Mode
		maxIter int
	}{
		{"no flags", nil, engine.FinishText, engine.ModeAuto, 5},
		{"flags override", map[string]bool{"finish": true, "permission": true, "max-iterations": true}, engine.FinishEvidence, engine.ModeRead, 9},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &settings{finish: engine.FinishEvidence, permission: engine.Permission{Mode: engine.ModeAsk}, maxIter: 0}
			if tc.flags["finish"] {
				s.finish = engine.FinishEvidence
			}
			if tc.flags["permission"] {
				s.permission.Mode = engine.ModeRead
			}
			if tc.flags["max-iterations"] {
				s.maxIter = 9
			}
			if err := s.applyResumed(func(f string) bool { return tc.flags[f] }, recorded); err != nil {
				t.Fatal(err)
			}
			if s.finish != tc.finish || s.permission.Mode != tc.mode || s.maxIter != tc.maxIter || s.effort != "high" {
				t.Errorf("got finish %s, mode %s, max %d, effort %s; want %s, %s, %d, high", s.finish, s.permission.Mode, s.maxIter, s.effort, tc.finish, tc.mode, tc.maxIter)
			}
			if len(s.permission.Rules) != 1 || s.builtIns == nil {
				t.Errorf("got rules %v and tools %v, want the recorded allow rule and the read-only tools", s.permission.Rules, s.builtIns)
			}
		})
	}
}
