package cmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// skillFile returns a SKILL.md with the given name and description.
func skillFile(name, description, body string) string {
	return "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body
}

// TestSkillsJSONFromOutside: `llmrt skills --json` lists name, description,
// path and root of each skill, a project skill shadows a user one of the
// same name, --skills-dir wins over both, and a malformed SKILL.md is a
// warning naming the file, not a failure.
func TestSkillsJSONFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	userRoot := filepath.Join(sb.home, ".claude", "skills")
	configRoot := filepath.Join(sb.home, "config", "llmrt", "skills")
	writeAbs(t, filepath.Join(userRoot, "pdf", "SKILL.md"), skillFile("pdf", "User PDF skill.", "user body"))
	writeAbs(t, filepath.Join(configRoot, "notes", "SKILL.md"), skillFile("notes", "Take notes.", "notes body"))
	sb.write(".llmrt/skills/pdf/SKILL.md", skillFile("pdf", "Project PDF skill.", "project body"))
	bad := sb.write(".claude/skills/broken/SKILL.md", "---\nname: broken\n")
	extra := filepath.Join(sb.home, "extra")
	writeAbs(t, filepath.Join(extra, "notes", "SKILL.md"), skillFile("notes", "Flag notes.", "flag body"))

	o := sb.run(cli{args: []string{"skills", "--json", "--skills-dir", extra}})
	o.want(t, 0)
	var got struct {
		Skills []struct {
			Name, Description, Path string
			Root                    struct{ Dir, Scope string }
			Shadowed                []struct{ Path string }
		}
		Diagnostics []struct{ Source, Message string }
	}
	if err := json.Unmarshal([]byte(o.stdout), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, o.stdout)
	}
	if len(got.Skills) != 2 {
		t.Fatalf("skills: got %d, want 2 (notes, pdf):\n%s", len(got.Skills), o.stdout)
	}
	notes, pdf := got.Skills[0], got.Skills[1]
	if notes.Name != "notes" || notes.Description != "Flag notes." || notes.Root.Dir != extra || notes.Root.Scope != "flag" ||
		notes.Path != filepath.Join(extra, "notes", "SKILL.md") {
		t.Errorf("notes: got %+v, want the --skills-dir one", notes)
	}
	if len(notes.Shadowed) != 1 || notes.Shadowed[0].Path != filepath.Join(configRoot, "notes", "SKILL.md") {
		t.Errorf("notes shadowed: got %+v, want the user config one", notes.Shadowed)
	}
	if pdf.Name != "pdf" || pdf.Description != "Project PDF skill." || pdf.Root.Scope != "project" ||
		pdf.Root.Dir != filepath.Join(sb.work, ".llmrt", "skills") {
		t.Errorf("pdf: got %+v, want the project one", pdf)
	}
	if len(pdf.Shadowed) != 1 || pdf.Shadowed[0].Path != filepath.Join(userRoot, "pdf", "SKILL.md") {
		t.Errorf("pdf shadowed: got %+v, want ~/.claude/skills/pdf", pdf.Shadowed)
	}
	if len(got.Diagnostics) != 1 || got.Diagnostics[0].Source != bad {
		t.Errorf("diagnostics: got %+v, want one naming %s", got.Diagnostics, bad)
	}
	if !strings.Contains(o.stderr, "warning: "+bad) {
		t.Errorf("stderr should warn about %s:\n%s", bad, o.stderr)
	}

	o = sb.run(cli{args: []string{"skills", "--skills-dir", extra}})
	o.want(t, 0)
	for _, w := range []string{"NAME", "notes", "flag", "Flag notes.", "pdf", "project", "Shadowed",
		"pdf: " + filepath.Join(userRoot, "pdf", "SKILL.md") + " (user-claude)"} {
		if !strings.Contains(o.stdout, w) {
			t.Errorf("llmrt skills: want %q in\n%s", w, o.stdout)
		}
	}
}

func TestSkillsShowFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write(".llmrt/skills/pdf/SKILL.md", skillFile("pdf", "PDF.", "# Use pdftotext\n"))
	sb.write(".llmrt/skills/pdf/scripts/run.sh", "echo\n")
	o := sb.run(cli{args: []string{"skills", "show", "pdf"}})
	o.want(t, 0)
	for _, w := range []string{"# Use pdftotext", "scripts/run.sh", "description: PDF."} {
		if !strings.Contains(o.stdout, w) {
			t.Errorf("skills show: want %q in\n%s", w, o.stdout)
		}
	}
	if strings.Contains(o.stdout, "---") {
		t.Errorf("skills show prints the body without front matter:\n%s", o.stdout)
	}
	o = sb.run(cli{args: []string{"skills", "show", "nope"}})
	o.want(t, 1)
	if !strings.Contains(o.stderr, `unknown skill "nope" (known: pdf)`) {
		t.Errorf("stderr: got %q, want the unknown name and the known ones", o.stderr)
	}
	o = sb.run(cli{args: []string{"skills"}, dir: t.TempDir()})
	o.want(t, 0)
	if !strings.Contains(o.stdout, "No skills found") {
		t.Errorf("no skills: got %q", o.stdout)
	}
}

// writeAbs writes a file at an absolute path (outside the workspace).
func writeAbs(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSkillsShowSymlinkedFromOutside: `llmrt skills show` of a skill whose
// folder is a symlink lists the files behind the link and what its
// allowed-tools allow once loaded.
func TestSkillsShowSymlinkedFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write("shared-skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy.\nallowed-tools: Bash(make deploy:*), NotebookEdit\n---\nRun scripts/go.sh.\n")
	sb.write("shared-skills/deploy/scripts/go.sh", "make deploy\n")
	if err := os.MkdirAll(filepath.Join(sb.work, ".claude", "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "..", "shared-skills", "deploy"), filepath.Join(sb.work, ".claude", "skills", "deploy")); err != nil {
		t.Fatal(err)
	}
	o := sb.run(cli{args: []string{"skills", "show", "deploy"}})
	o.want(t, 0)
	for _, w := range []string{"scripts/go.sh", "allowed-tools: Bash(make deploy:*), NotebookEdit", "allows once loaded: shell_cmd(command=make deploy *)"} {
		if !strings.Contains(o.stdout, w) {
			t.Errorf("skills show: want %q in\n%s", w, o.stdout)
		}
	}
	if !strings.Contains(o.stderr, `allowed-tools entry "NotebookEdit" skipped`) {
		t.Errorf("stderr should warn about the entry llmrt cannot map:\n%s", o.stderr)
	}
}
