package skills

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// manySkills writes n skills named prefix-NNNN under root, each with a
// description of about desc bytes.
func manySkills(t testing.TB, root, prefix string, n, desc int) {
	t.Helper()
	for i := range n {
		name := fmt.Sprintf("%s-%04d", prefix, i)
		d := "Does " + name + ". " + strings.Repeat("x", max(desc-len(name)-7, 0))
		writeSkill(t, root, name, skillMD(name, d, "body"), nil)
	}
}

// TestCatalogueIsBounded: past the count, the most specific roots go in
// first; the rest are named in a diagnostic, still listed by Skills and
// loaded by load_skill.
func TestCatalogueIsBounded(t *testing.T) {
	base := t.TempDir()
	roots := Roots(RootOptions{Home: filepath.Join(base, "home"), Projects: []string{filepath.Join(base, "proj")}, Extra: []string{filepath.Join(base, "flag")}})
	byScope := map[string]Root{}
	for _, r := range roots {
		byScope[r.Scope] = r
	}
	manySkills(t, byScope[ScopeUser].Dir, "user", 150, 40)
	manySkills(t, byScope[ScopeProject].Dir, "proj", 30, 40)
	manySkills(t, byScope[ScopeFlag].Dir, "flag", 5, 40)
	c := Discover(roots)
	if c.Len() != 185 {
		t.Fatalf("Skills: %d, want all 185", c.Len())
	}
	text := c.Instructions()
	if n := strings.Count(text, "\n- "); n != MaxCatalogueSkills {
		t.Errorf("the catalogue lists %d skills, want %d", n, MaxCatalogueSkills)
	}
	for _, want := range []string{"- flag-0004:", "- proj-0029:", "- user-0000:", "- user-0064:", "85 more skills are installed"} {
		if !strings.Contains(text, want) {
			t.Errorf("the catalogue lacks %q", want)
		}
	}
	if strings.Contains(text, "user-0065") {
		t.Errorf("the catalogue should leave out the last user skills")
	}
	var diag string
	for _, d := range c.Diagnostics() {
		if d.Source == "skills" {
			diag = d.Message
		}
	}
	for _, want := range []string{"lists 100 of 185 skills", "85 left out", "85 from " + byScope[ScopeUser].Dir, "user-0065", "llmrt skills"} {
		if !strings.Contains(diag, want) {
			t.Errorf("the diagnostic should say %q: %q", want, diag)
		}
	}
	ts, _ := c.Tools(context.Background())
	args, _ := json.Marshal(map[string]string{"skill_id": "user-0149"})
	if res, err := ts[0].Execute(context.Background(), args); err != nil || res.IsError {
		t.Errorf("load_skill should load a skill left out of the catalogue: %v %+v", err, res)
	}
}

// TestCatalogueByteBudget: long descriptions stop the catalogue at its
// byte budget; 1,000 skills cost the prompt no more than it.
func TestCatalogueByteBudget(t *testing.T) {
	for _, c := range []struct {
		n, desc int
	}{{40, 1000}, {1000, 120}} {
		root := t.TempDir()
		manySkills(t, root, "s", c.n, c.desc)
		cat := Discover([]Root{{Dir: root}})
		text := cat.Instructions()
		header := text[:strings.Index(text, "\n- ")+1]
		if entries := len(text) - len(header); entries > MaxCatalogueBytes+200 {
			t.Errorf("%d skills of %d-byte descriptions: the catalogue is %d bytes, want at most %d and its last line", c.n, c.desc, entries, MaxCatalogueBytes)
		}
		if len(cat.Diagnostics()) != 1 {
			t.Errorf("%d skills: want one diagnostic naming the left-out skills, got %+v", c.n, cat.Diagnostics())
		}
	}
}

func TestUnknownSkillNamesAFew(t *testing.T) {
	root := t.TempDir()
	manySkills(t, root, "s", 120, 10)
	_, err := Discover([]Root{{Dir: root}}).Load("nope")
	if err == nil || !strings.Contains(err.Error(), "s-0049 and 70 more") || strings.Contains(err.Error(), "s-0050") {
		t.Errorf("got %v", err)
	}
}
