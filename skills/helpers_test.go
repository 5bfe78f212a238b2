package skills

import (
	"os"
	"path/filepath"
	"testing"
)

// writeSkill creates root/dir/SKILL.md with content and any extra files
// (name → content), returning the SKILL.md path.
func writeSkill(t testing.TB, root, dir, content string, extra map[string]string) string {
	t.Helper()
	p := filepath.Join(root, dir, FileName)
	writeFile(t, p, content)
	for name, body := range extra {
		writeFile(t, filepath.Join(root, dir, filepath.FromSlash(name)), body)
	}
	return p
}

func writeFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// skillMD returns a well-formed SKILL.md.
func skillMD(name, description, body string) string {
	return "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body
}
