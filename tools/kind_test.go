package tools

import "testing"

func TestKindDescribe(t *testing.T) {
	cases := []struct {
		kind Kind
		want string
	}{
		{KindRead, "a read tool"},
		{KindWrite, "a write tool"},
		{KindExternalAction, "an external action tool"},
		{KindInteraction, "an interaction tool"},
		{KindNone, "a tool that changes nothing"},
		{"", "a tool that changes nothing"},
	}
	for _, tc := range cases {
		if got := tc.kind.Describe(); got != tc.want {
			t.Errorf("Kind(%q).Describe(): got %q, want %q", tc.kind, got, tc.want)
		}
	}
}
