package engine_test

import (
	"testing"

	"github.com/llmrt/llmrt/engine"
)

func TestParseFinish(t *testing.T) {
	cases := []struct {
		in      string
		want    engine.FinishPolicy
		wantErr bool
	}{
		{"", engine.FinishEvidence, false},
		{"evidence", engine.FinishEvidence, false},
		{"text", engine.FinishText, false},
		{"sometimes", "", true},
	}
	for _, tc := range cases {
		got, err := engine.ParseFinish(tc.in)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("ParseFinish(%q): got %q, %v; want %q (error %v)", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}
