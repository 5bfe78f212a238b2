package session

import (
	"regexp"
	"strings"
	"testing"
)

// idOracle is the rule validID implements, as a regular expression.
var idOracle = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// TestValidID: validID accepts what the rule accepts and nothing else,
// ids that reach outside the store or hide among dot files included.
func TestValidID(t *testing.T) {
	ids := []string{"", "a", "20261122-153012-a1b2c3", ".hidden", "-x", "_x", "a/b", `a\b`, "..", "a..b",
		"../../etc", "é", "a b", "a\x00", "A.b_c-D", strings.Repeat("a", 128), strings.Repeat("a", 129), "a\n"}
	for _, id := range ids {
		if got, want := validID(id), idOracle.MatchString(id); got != want {
			t.Errorf("validID(%q) = %v, want %v", id, got, want)
		}
	}
	for _, id := range []string{"..", "../x", "a/../b", ".x", "a/b"} {
		if checkID(id) == nil {
			t.Errorf("checkID(%q) accepted an id that is not a plain file name", id)
		}
	}
}

func FuzzValidID(f *testing.F) {
	f.Add("20261122-153012-a1b2c3")
	f.Add("../x")
	f.Fuzz(func(t *testing.T, id string) {
		if got, want := validID(id), idOracle.MatchString(id); got != want {
			t.Errorf("validID(%q) = %v, want %v", id, got, want)
		}
	})
}
