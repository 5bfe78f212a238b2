package skills

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/tools"
)

// callLoad runs load_skill with ctx and returns its result.
func callLoad(t *testing.T, ctx context.Context, c *Catalogue, id string) tools.Result {
	t.Helper()
	ts, err := c.Tools(ctx)
	if err != nil || len(ts) != 1 {
		t.Fatalf("Tools: got %v, %v", ts, err)
	}
	args, _ := json.Marshal(map[string]string{"skill_id": id})
	res, err := ts[0].Execute(ctx, args)
	if err != nil {
		t.Fatalf("load_skill %s: %v", id, err)
	}
	return res
}

// readFileTool returns the built-in read_file bound to ws.
func readFileTool(t *testing.T, ws *tools.Workspace) tools.Tool {
	t.Helper()
	for _, tl := range tools.Builtins(ws, tools.Options{}) {
		if tl.Name == "read_file" {
			return tl
		}
	}
	t.Fatal("no read_file among the built-ins")
	return tools.Tool{}
}

func TestLoadSkill(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "pdf", skillMD("pdf", "PDF work.", "\n# PDF\n\nRun scripts/extract.py.\n"), map[string]string{
		"scripts/extract.py": "print('hi')\n",
		"reference.md":       "# Reference\n",
		".git/config":        "hidden",
	})
	writeSkill(t, root, "other", skillMD("other", "Other.", "x"), nil)
	c := Discover([]Root{{Dir: root}})

	res := callLoad(t, context.Background(), c, "pdf")
	if res.IsError {
		t.Fatalf("load_skill pdf: error result %q", res.Content)
	}
	var got Loaded
	if err := json.Unmarshal([]byte(res.Content), &got); err != nil {
		t.Fatalf("load_skill result is not JSON: %v\n%s", err, res.Content)
	}
	want := Loaded{Skill: "pdf", Root: filepath.Join(root, "pdf"), Body: "# PDF\n\nRun scripts/extract.py.",
		Files: []string{"reference.md", "scripts/extract.py"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("load_skill pdf:\ngot  %+v\nwant %+v", got, want)
	}

	res = callLoad(t, context.Background(), c, "nope")
	if !res.IsError || !strings.Contains(res.Content, `unknown skill "nope"`) || !strings.Contains(res.Content, "other, pdf") {
		t.Errorf("load_skill nope: got %+v, want an error result listing other, pdf", res)
	}
}

func TestLoadSkillBounds(t *testing.T) {
	root := t.TempDir()
	extra := map[string]string{}
	for i := 0; i < maxFiles+5; i++ {
		extra[fmt.Sprintf("f%03d.txt", i)] = "x"
	}
	body := strings.Repeat("a line of instructions\n", maxBodyBytes/10)
	writeSkill(t, root, "big", skillMD("big", "Big.", body), extra)
	l, err := Discover([]Root{{Dir: root}}).Load("big")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Files) != maxFiles || !l.FilesTruncated {
		t.Errorf("files: got %d (truncated %v), want %d and truncated", len(l.Files), l.FilesTruncated, maxFiles)
	}
	if !l.BodyTruncated || len(l.Body) > maxBodyBytes+300 || !strings.Contains(l.Body, "read the rest with read_file") {
		t.Errorf("body: got %d bytes (truncated %v), want at most about %d with a pointer to the rest", len(l.Body), l.BodyTruncated, maxBodyBytes)
	}
	if res, _ := json.Marshal(l); len(res) > 32*1024 {
		t.Errorf("result: got %d bytes, want it under the engine's 32 KiB result cap", len(res))
	}
}

// TestLoadedSkillReadable: before load_skill the skill's files are outside
// the workspace; after it, read_file reads them through the same workspace,
// and they stay unwritable.
func TestLoadedSkillReadable(t *testing.T) {
	root, work := t.TempDir(), t.TempDir()
	writeSkill(t, root, "pdf", skillMD("pdf", "PDF work.", "see reference.md"), map[string]string{"reference.md": "the secret sauce\n"})
	c := Discover([]Root{{Dir: root}})
	ws, err := tools.NewWorkspace(work)
	if err != nil {
		t.Fatal(err)
	}
	ctx := tools.WithWorkspace(context.Background(), ws)
	read := readFileTool(t, ws)
	ref, _ := json.Marshal(map[string]string{"path": filepath.Join(root, "pdf", "reference.md")})

	before, err := read.Execute(ctx, ref)
	if err != nil || !before.IsError || !strings.Contains(before.Content, "outside the workspace") {
		t.Fatalf("read_file before load_skill: got %+v, %v; want a refusal", before, err)
	}
	if res := callLoad(t, ctx, c, "pdf"); res.IsError {
		t.Fatalf("load_skill: %s", res.Content)
	}
	after, err := read.Execute(ctx, ref)
	if err != nil || after.IsError || !strings.Contains(after.Content, "the secret sauce") {
		t.Fatalf("read_file after load_skill: got %+v, %v; want the file's text", after, err)
	}
	if _, err := ws.ResolveWrite(filepath.Join(root, "pdf", "reference.md")); err == nil {
		t.Error("a loaded skill's files must stay unwritable")
	}
	// Loading again does not pile up read roots or fail.
	if res := callLoad(t, ctx, c, "pdf"); res.IsError {
		t.Fatalf("second load_skill: %s", res.Content)
	}
}

func TestLoadSkillChangedOnDisk(t *testing.T) {
	root := t.TempDir()
	p := writeSkill(t, root, "s", skillMD("s", "d", "v1"), nil)
	c := Discover([]Root{{Dir: root}})
	writeFile(t, p, skillMD("s", "d", "v2"))
	if l, err := c.Load("s"); err != nil || l.Body != "v2" {
		t.Errorf("Load after an edit: got %+v, %v; want body v2", l, err)
	}
	writeFile(t, p, "---\nname: s\n")
	if _, err := c.Load("s"); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("Load of a now-broken file: got %v, want an error naming %s", err, p)
	}
}

// TestLoadSymlinkedSkill: a skill folder that is a symlink (to a shared
// checkout of skills, say) lists its files like any other, and they are
// readable once loaded, through the link and at their real place; a
// symlink inside the skill that points out of it is neither listed nor
// readable.
func TestLoadSymlinkedSkill(t *testing.T) {
	base := t.TempDir()
	shared, root, work, secret := filepath.Join(base, "shared-skills"), filepath.Join(base, "proj", ".claude", "skills"), t.TempDir(), t.TempDir()
	writeSkill(t, shared, "deploy", skillMD("deploy", "Deploy.", "run scripts/go.sh"), map[string]string{
		"scripts/go.sh": "echo go\n", "notes.md": "notes\n",
	})
	writeFile(t, filepath.Join(secret, "key"), "do not read\n")
	if err := os.Symlink(filepath.Join(secret), filepath.Join(shared, "deploy", "keys")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "..", "..", "shared-skills", "deploy"), filepath.Join(root, "deploy")); err != nil {
		t.Fatal(err)
	}
	c := Discover([]Root{{Dir: root}})
	l, err := c.Load("deploy")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"notes.md", "scripts/go.sh"}; !reflect.DeepEqual(l.Files, want) {
		t.Errorf("files of a symlinked skill: got %v, want %v", l.Files, want)
	}
	if l.Root != filepath.Join(root, "deploy") {
		t.Errorf("root: got %s, want the path through the link, %s", l.Root, filepath.Join(root, "deploy"))
	}

	ws, err := tools.NewWorkspace(work)
	if err != nil {
		t.Fatal(err)
	}
	ctx := tools.WithWorkspace(context.Background(), ws)
	if res := callLoad(t, ctx, c, "deploy"); res.IsError {
		t.Fatalf("load_skill: %s", res.Content)
	}
	read := readFileTool(t, ws)
	for _, p := range []string{filepath.Join(root, "deploy", "scripts", "go.sh"), filepath.Join(shared, "deploy", "scripts", "go.sh")} {
		args, _ := json.Marshal(map[string]string{"path": p})
		if res, err := read.Execute(ctx, args); err != nil || res.IsError || !strings.Contains(res.Content, "echo go") {
			t.Errorf("read_file %s after load_skill: got %+v, %v; want the file", p, res, err)
		}
	}
	args, _ := json.Marshal(map[string]string{"path": filepath.Join(root, "deploy", "keys", "key")})
	if res, err := read.Execute(ctx, args); err != nil || !res.IsError || strings.Contains(res.Content, "do not read") {
		t.Errorf("read_file through a link inside the skill: got %+v, %v; want a refusal", res, err)
	}
}
