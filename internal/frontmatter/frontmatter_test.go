package frontmatter

import (
	"errors"
	"testing"
)

func TestSplitAndParse(t *testing.T) {
	var fm struct {
		Description string `yaml:"description"`
		Hint        string `yaml:"argument-hint"`
	}
	body, err := Parse([]byte("\uFEFF---\ndescription: Review a file\nargument-hint: <path>\n---\nReview $ARGUMENTS.\n"), &fm)
	if err != nil || fm.Description != "Review a file" || fm.Hint != "<path>" || string(body) != "Review $ARGUMENTS.\n" {
		t.Errorf("Parse = %+v, %q, %v", fm, body, err)
	}
	body, err = Parse([]byte("Just a prompt.\n"), &fm)
	if err != nil || string(body) != "Just a prompt.\n" {
		t.Errorf("a file without front matter is all body: %q, %v", body, err)
	}
	if _, _, err := Split([]byte("plain")); !errors.Is(err, ErrNone) {
		t.Errorf("Split without front matter: %v", err)
	}
	if _, err := Parse([]byte("---\ndescription: x\n"), &fm); err == nil {
		t.Error("an unterminated front matter should fail")
	}
	if _, err := Parse([]byte("---\n: : :\n---\nbody"), &fm); err == nil {
		t.Error("bad YAML should fail")
	}
}
