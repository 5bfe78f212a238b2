package agents

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func agentMD(name, desc, extra, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n" + extra + "---\n" + body + "\n"
}

func byName(list []Agent, name string) (Agent, bool) {
	i := slices.IndexFunc(list, func(a Agent) bool { return a.Name == name })
	if i < 0 {
		return Agent{}, false
	}
	return list[i], true
}

// TestClaudeCodeFile: Claude Code's fields are read, its tool names
// become llmrt's (those without an equivalent are named in a
// diagnostic), and the body is the system prompt.
func TestClaudeCodeFile(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".claude", "agents", "reviewer.md"), agentMD("reviewer", "Reviews code after a change",
		"tools: Read, Grep, Glob, Bash, TodoWrite, mcp__github__get_issue, MultiEdit, Edit\nmodel: opus\n", "You review code.\n\nBe strict."))
	list, diags := Load(Dirs(DirOptions{Home: home}), LoadOptions{Provider: "anthropic"})
	a, ok := byName(list, "reviewer")
	if !ok {
		t.Fatalf("reviewer not loaded: %+v", diags)
	}
	if want := []string{"read_file", "search_files", "shell_cmd", "mcp__github__get_issue", "edit_file"}; !slices.Equal(a.Tools, want) {
		t.Errorf("tools %q, want %q", a.Tools, want)
	}
	if a.Instructions != "You review code.\n\nBe strict." || a.Description != "Reviews code after a change" {
		t.Errorf("got instructions %q, description %q", a.Instructions, a.Description)
	}
	if a.Model != "claude-opus-4-5" || a.Scope != ScopeUser || a.Format != FormatClaude {
		t.Errorf("model %q scope %q format %q", a.Model, a.Scope, a.Format)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "TodoWrite") || diags[0].Source != a.Path {
		t.Errorf("diagnostics %+v, want one naming TodoWrite and the file", diags)
	}
}

// TestModelAliases: sonnet, opus and haiku are Anthropic's models only on
// anthropic; elsewhere, like inherit, the agent keeps the parent's model.
func TestModelAliases(t *testing.T) {
	cases := []struct{ model, provider, want string }{
		{"sonnet", "anthropic", "claude-sonnet-4-5"},
		{"haiku", "anthropic", "claude-haiku-4-5"},
		{"opus", "openai", ""},
		{"inherit", "anthropic", ""},
		{"", "anthropic", ""},
		{"claude-opus-4-1", "anthropic", "claude-opus-4-1"},
		{"claude-opus-4-1", "openai", ""},
		{"gpt-5", "openai", "gpt-5"},
	}
	for _, c := range cases {
		if got := MapModel(c.model, c.provider); got != c.want {
			t.Errorf("MapModel(%q, %q) = %q, want %q", c.model, c.provider, got, c.want)
		}
	}
}

// TestToolsAbsentMeansAll: no tools field is nil (every tool); a list
// with nothing llmrt has is empty (none).
func TestToolsAbsentMeansAll(t *testing.T) {
	if m, _ := MapTools(nil); m != nil {
		t.Errorf("absent tools mapped to %q, want nil", m)
	}
	if m, d := MapTools([]string{"TodoWrite"}); m == nil || len(m) != 0 || !slices.Equal(d, []string{"TodoWrite"}) {
		t.Errorf("got %q dropped %q, want an empty list and TodoWrite dropped", m, d)
	}
}

// TestPrecedence: project wins over user, a nearer project directory over
// the repository root, and .llmrt/agents over .claude/agents at the same
// level; llmrt's files keep llmrt tool names and may name a provider.
func TestPrecedence(t *testing.T) {
	home, config, root := t.TempDir(), t.TempDir(), t.TempDir()
	sub := filepath.Join(root, "sub")
	write(t, filepath.Join(home, ".claude", "agents", "a.md"), agentMD("a", "user claude", "", "user"))
	write(t, filepath.Join(config, "llmrt", "agents", "a.md"), agentMD("a", "user llmrt", "", "user"))
	write(t, filepath.Join(config, "llmrt", "agents", "u.md"), agentMD("u", "user only", "", "user"))
	write(t, filepath.Join(root, ".claude", "agents", "a.md"), agentMD("a", "root claude", "", "root"))
	write(t, filepath.Join(root, ".claude", "agents", "b.md"), agentMD("b", "root claude b", "", "root"))
	write(t, filepath.Join(sub, ".claude", "agents", "b.md"), agentMD("b", "sub claude b", "", "sub"))
	write(t, filepath.Join(sub, ".llmrt", "agents", "b.md"), agentMD("b", "sub llmrt b", "tools: [read_file, shell_cmd]\nprovider: anthropic\nmodel: claude-haiku-4-5\n", "sub"))
	o := DirOptions{Home: home, ConfigHome: config, Project: []string{root, sub}, Trusted: true}
	list, diags := Load(Dirs(o), LoadOptions{})
	if len(diags) != 0 {
		t.Errorf("diagnostics: %+v", diags)
	}
	want := map[string]string{"a": "root claude", "b": "sub llmrt b", "u": "user only"}
	for name, desc := range want {
		if a, ok := byName(list, name); !ok || a.Description != desc {
			t.Errorf("%s: got %+v, want the one described %q", name, a, desc)
		}
	}
	b, _ := byName(list, "b")
	if !slices.Equal(b.Tools, []string{"read_file", "shell_cmd"}) || b.Provider != "anthropic" || b.Model != "claude-haiku-4-5" || b.Scope != ScopeProject {
		t.Errorf("b: %+v", b)
	}
}

// TestUntrustedProject: without trust only the user's agents load.
func TestUntrustedProject(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, ".claude", "agents", "mine.md"), agentMD("mine", "user's", "", "x"))
	write(t, filepath.Join(project, ".claude", "agents", "theirs.md"), agentMD("theirs", "project's", "", "x"))
	list, _ := Load(Dirs(DirOptions{Home: home, Project: []string{project}}), LoadOptions{})
	if _, ok := byName(list, "theirs"); ok {
		t.Error("an untrusted project's agent loaded")
	}
	if _, ok := byName(list, "mine"); !ok {
		t.Error("the user's agent did not load")
	}
	if files := ProjectFiles([]string{project}); len(files) != 1 || !strings.HasSuffix(files[0], "theirs.md") {
		t.Errorf("ProjectFiles %q, want the project's agent file", files)
	}
}

// TestBadFiles: a file without a name or description, one too large, one
// that is not UTF-8 and Claude Code's file naming a provider are
// diagnostics naming the file and the fix.
func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	agentsDir := filepath.Join(dir, ".llmrt", "agents")
	write(t, filepath.Join(agentsDir, "noname.md"), "---\ndescription: d\n---\nbody\n")
	write(t, filepath.Join(agentsDir, "nodesc.md"), "---\nname: nodesc\n---\nbody\n")
	write(t, filepath.Join(agentsDir, "big.md"), agentMD("big", "d", "", strings.Repeat("x", MaxFileSize)))
	write(t, filepath.Join(agentsDir, "latin1.md"), agentMD("latin", "d", "", "caf\xe9"))
	write(t, filepath.Join(agentsDir, "badyaml.md"), "---\nname: [\n---\n")
	write(t, filepath.Join(agentsDir, "ok.md"), agentMD("ok", "fine", "", "body"))
	list, diags := Load(Dirs(DirOptions{Project: []string{dir}, Trusted: true}), LoadOptions{})
	if len(list) != 1 || list[0].Name != "ok" {
		t.Errorf("loaded %+v, want only ok", list)
	}
	got := map[string]string{}
	for _, d := range diags {
		got[filepath.Base(d.Source)] = d.Message
	}
	for file, want := range map[string]string{"noname.md": "add name: noname", "nodesc.md": "no description", "big.md": "256 KiB", "latin1.md": "UTF-8", "badyaml.md": "YAML"} {
		if !strings.Contains(got[file], want) {
			t.Errorf("%s: diagnostic %q, want it to say %q", file, got[file], want)
		}
	}
}

// TestCodexFile: Codex's TOML custom agents are read: name, description,
// developer_instructions as the system prompt, and model.
func TestCodexFile(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".codex", "agents", "rev.toml"), "name = \"rev\"\ndescription = \"PR reviewer\"\nmodel = \"gpt-5\"\nsandbox_mode = \"read-only\"\ndeveloper_instructions = \"\"\"\nReview like an owner.\n\"\"\"\n")
	list, diags := Load(Dirs(DirOptions{Home: home}), LoadOptions{})
	a, ok := byName(list, "rev")
	if !ok || a.Instructions != "Review like an owner.\n" || a.Model != "gpt-5" || a.Tools != nil || a.Format != FormatCodex {
		t.Errorf("got %+v (diagnostics %+v)", a, diags)
	}
}
