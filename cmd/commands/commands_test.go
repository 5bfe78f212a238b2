package commands

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func names(c *Catalogue) []string {
	var out []string
	for _, cmd := range c.Commands() {
		out = append(out, cmd.Name+"@"+cmd.Scope)
	}
	return out
}

func TestRootsOrder(t *testing.T) {
	got := Roots(RootOptions{Home: "/h", ProjectDirs: []string{"/repo", "/repo/sub"}, Trusted: true})
	want := []Root{
		{Dir: "/h/.claude/commands", Scope: ScopeUserClaude},
		{Dir: "/h/.config/llmrt/commands", Scope: ScopeUser},
		{Dir: "/repo/.claude/commands", Scope: ScopeProjectClaude},
		{Dir: "/repo/.llmrt/commands", Scope: ScopeProject},
		{Dir: "/repo/sub/.claude/commands", Scope: ScopeProjectClaude},
		{Dir: "/repo/sub/.llmrt/commands", Scope: ScopeProject},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Roots = %v, want %v", got, want)
	}
	got = Roots(RootOptions{Home: "/h", ConfigHome: "/cfg", ProjectDirs: []string{"/repo"}})
	want = []Root{{Dir: "/h/.claude/commands", Scope: ScopeUserClaude}, {Dir: "/cfg/llmrt/commands", Scope: ScopeUser}}
	if !slices.Equal(got, want) {
		t.Errorf("untrusted Roots = %v, want the user's only %v", got, want)
	}
}

func TestDiscover(t *testing.T) {
	home, repo := t.TempDir(), t.TempDir()
	sub := filepath.Join(repo, "sub")
	write(t, filepath.Join(home, ".claude/commands/review.md"), "user review")
	write(t, filepath.Join(home, ".claude/commands/mine.md"), "---\ndescription: only mine\n---\nbody")
	write(t, filepath.Join(repo, ".claude/commands/review.md"), "project review")
	write(t, filepath.Join(repo, ".claude/commands/frontend/component.md"), "---\ndescription: make a component\nargument-hint: <name>\n---\nMake $1.")
	write(t, filepath.Join(repo, ".llmrt/commands/frontend/component.md"), "llmrt's own wins")
	write(t, filepath.Join(sub, ".claude/commands/review.md"), "nearer review wins")
	write(t, filepath.Join(repo, ".claude/commands/help.md"), "shadow help")
	write(t, filepath.Join(repo, ".claude/commands/bad.md"), "---\ndescription: [unclosed\n---\nx")
	write(t, filepath.Join(repo, ".claude/commands/latin1.md"), "caf\xe9")
	write(t, filepath.Join(repo, ".claude/commands/big.md"), strings.Repeat("x", MaxFileBytes+1))
	write(t, filepath.Join(repo, ".claude/commands/notes.txt"), "not a command")
	write(t, filepath.Join(repo, ".claude/commands/with space.md"), "bad name")

	roots := Roots(RootOptions{Home: home, ConfigHome: filepath.Join(home, "cfg"), ProjectDirs: []string{repo, sub}, Trusted: true})
	c := Discover(roots, func(n string) bool { return n == "help" })
	want := []string{"frontend:component@project", "mine@user-claude", "review@project-claude"}
	if got := names(c); !slices.Equal(got, want) {
		t.Fatalf("commands = %v, want %v", got, want)
	}
	review, _ := c.Lookup("review")
	if review.Body != "nearer review wins" || review.Path != filepath.Join(sub, ".claude/commands/review.md") || len(review.Shadowed) != 2 {
		t.Errorf("review = %+v, want the nearest project's, shadowing two", review)
	}
	if review.Description != "nearer review wins" {
		t.Errorf("a command without a description takes its first line: %q", review.Description)
	}
	comp, ok := c.Lookup("component")
	if !ok || comp.Name != "frontend:component" {
		t.Errorf("a unique last segment should find the namespaced command: %+v %v", comp, ok)
	}
	diags := ""
	for _, d := range c.Diagnostics() {
		diags += d.Source + ": " + d.Message + "\n"
	}
	for _, want := range []string{"help.md: /help is a built-in command", "bad.md: front matter", "latin1.md: not UTF-8", "big.md: larger than 256 KiB", "with space.md: "} {
		if !strings.Contains(diags, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, diags)
		}
	}
	if strings.Contains(diags, "notes.txt") {
		t.Errorf("a file that is not Markdown is no command and no problem:\n%s", diags)
	}

	untrusted := Discover(Roots(RootOptions{Home: home, ConfigHome: filepath.Join(home, "cfg"), ProjectDirs: []string{repo, sub}}), nil)
	if got, want := names(untrusted), []string{"mine@user-claude", "review@user-claude"}; !slices.Equal(got, want) {
		t.Errorf("untrusted commands = %v, want the user's %v", got, want)
	}
}

func TestExpand(t *testing.T) {
	cases := []struct {
		body, args, want string
	}{
		{"Review $ARGUMENTS now.", "src/main.go  -v", "Review src/main.go  -v now."},
		{"One $1, two $2, three $3.", `a "b c" 'd e'`, "One a, two b c, three d e."},
		{"Fix $1 with prio $2.", "123", "Fix 123 with prio ."},
		{`Say $1.`, `it\'s`, "Say it's."},
		{"Read @$1 and explain.", "src/main.go", "Read @src/main.go and explain."},
		{"No placeholder.", "extra words", "No placeholder.\n\nARGUMENTS: extra words"},
		{"No placeholder.", "", "No placeholder."},
		{"Keep $1 literal once.", "$2", "Keep $2 literal once."},
	}
	for _, c := range cases {
		got := Command{Name: "x", Body: c.body}.Expand(c.args).Prompt
		if got != c.want {
			t.Errorf("Expand(%q) of %q = %q, want %q", c.args, c.body, got, c.want)
		}
	}
}

func TestAllowRules(t *testing.T) {
	rules, problems := AllowRules([]string{"Bash(git status:*)", "Bash(ls)", "Read", "Edit(src/**)", "Write(./docs/*.md)", "MultiEdit",
		"Glob", "Grep", "LS", "WebFetch(domain:example.com)", "Task", "mcp__github__get_issue", "Bash",
		"Bash(rm -r?)", "Read(~/secrets/**)", "NotebookEdit", "WebFetch(https://x)"})
	var got []string
	for _, r := range rules {
		got = append(got, string(r.Action)+" "+r.String())
	}
	want := []string{
		"allow shell_cmd(command=git status *)", "allow shell_cmd(command=ls)", "allow read_file", "allow edit_file(path=src/**)",
		"allow write_file(path=docs/*.md)", "allow edit_file", "allow search_files", "allow list_files",
		"allow web_fetch(url=https://example.com/*)", "allow web_fetch(url=http://example.com/*)", "allow spawn_agent",
		"allow mcp__github__get_issue", "allow shell_cmd",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rules:\n got %q\nwant %q", got, want)
	}
	text := strings.Join(problems, "\n")
	for _, want := range []string{"Bash(rm -r?)", "Read(~/secrets/**)", "NotebookEdit", "WebFetch(https://x)"} {
		if !strings.Contains(text, want) {
			t.Errorf("problems should name %q:\n%s", want, text)
		}
	}
	if len(problems) != 4 {
		t.Errorf("problems = %q, want 4", problems)
	}
}
