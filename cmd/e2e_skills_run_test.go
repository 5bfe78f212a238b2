package cmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// systemPrompt returns the system message of an OpenAI request (either API).
func systemPrompt(t *testing.T, r fakellm.Request) string {
	t.Helper()
	body := bodyOf(t, r)
	msgs, ok := body["messages"].([]any) // Chat Completions
	if !ok {
		msgs, _ = body["input"].([]any) // the Responses API
	}
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "system" || mm["role"] == "developer" {
			s, _ := mm["content"].(string)
			return s
		}
	}
	return ""
}

// toolNames returns the tool names offered in an OpenAI request (either API).
func toolNames(t *testing.T, r fakellm.Request) []string {
	t.Helper()
	var names []string
	list, _ := bodyOf(t, r)["tools"].([]any)
	for _, x := range list {
		tool, _ := x.(map[string]any)
		if fn, ok := tool["function"].(map[string]any); ok { // Chat Completions
			tool = fn
		}
		name, _ := tool["name"].(string)
		names = append(names, name)
	}
	return names
}

// TestSkillsInRunFromOutside: a user skill (outside the workspace) is in
// the catalogue of the system prompt; load_skill returns its body and
// files, and read_file can then read one of its files.
func TestSkillsInRunFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	skillDir := filepath.Join(sb.home, ".claude", "skills", "pdf")
	writeAbs(t, filepath.Join(skillDir, "SKILL.md"), skillFile("pdf", "Extract text from PDF files.", "Read reference.md first.\n"))
	ref := filepath.Join(skillDir, "reference.md")
	writeAbs(t, ref, "use pdftotext -layout\n")
	refJSON, _ := json.Marshal(map[string]string{"path": ref})

	srv := fake(t, fakellm.OpenAI,
		toolCall("load_skill", `{"skill_id":"pdf"}`),
		toolCall("read_file", string(refJSON)),
		finalAnswer("done"))
	o := openaiRun(sb, srv, "-p", "extract the PDF")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("requests: got %d, want 3", len(reqs))
	}
	sys := systemPrompt(t, reqs[0])
	if !strings.Contains(sys, "- pdf: Extract text from PDF files.") || strings.Contains(sys, "Read reference.md first.") {
		t.Errorf("system prompt should hold the catalogue (name and description only):\n%s", sys)
	}
	if names := strings.Join(toolNames(t, reqs[0]), ","); !strings.Contains(names, "load_skill") {
		t.Errorf("tools offered: got %s, want load_skill among them", names)
	}
	second := string(reqs[1].Body)
	for _, w := range []string{"Read reference.md first.", "reference.md", skillDir} {
		if !strings.Contains(second, w) {
			t.Errorf("load_skill result should contain %q: %s", w, second)
		}
	}
	if third := string(reqs[2].Body); !strings.Contains(third, "use pdftotext -layout") {
		t.Errorf("read_file of the loaded skill's file should succeed: %s", third)
	}
}

// TestNoSkillsNoTrace: without skills a run offers no load_skill and its
// system prompt has no skills section (it names the working directory,
// whose name holds the test's).
func TestNoSkillsNoTrace(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
	openaiRun(sb, srv, "-p", "hi").want(t, 0)
	r := srv.Requests()[0]
	if sys := systemPrompt(t, r); strings.Contains(sys, "# Skills") || strings.Contains(sys, "load_skill") {
		t.Errorf("system prompt mentions skills without any:\n%s", sys)
	}
	for _, n := range toolNames(t, r) {
		if n == "load_skill" {
			t.Error("load_skill offered without skills")
		}
	}
}

// TestSkillDiagnosticsInRunFromOutside: a malformed SKILL.md is a warning
// naming the file on a run's stderr, and --strict refuses the run.
func TestSkillDiagnosticsInRunFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	bad := sb.write(".llmrt/skills/broken/SKILL.md", "---\nname: broken\ndescription: [\n---\n")
	srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
	o := openaiRun(sb, srv, "-p", "hi")
	o.want(t, 0)
	if !strings.Contains(o.stderr, "warning: "+bad) {
		t.Errorf("stderr should warn about %s:\n%s", bad, o.stderr)
	}
	o = openaiRun(sb, srv, "--strict", "-p", "hi")
	o.want(t, 2)
	if !strings.Contains(o.stderr, bad) {
		t.Errorf("--strict should name %s:\n%s", bad, o.stderr)
	}
}

// TestToolsListsLoadSkillFromOutside: `llmrt tools` shows load_skill when
// there are skills, and only then.
func TestToolsListsLoadSkillFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	o := sb.run(cli{args: []string{"tools"}})
	o.want(t, 0)
	if strings.Contains(o.stdout, "load_skill") {
		t.Errorf("no skills, yet load_skill is listed:\n%s", o.stdout)
	}
	sb.write(".llmrt/skills/pdf/SKILL.md", skillFile("pdf", "PDF.", "body"))
	o = sb.run(cli{args: []string{"tools"}})
	o.want(t, 0)
	if !strings.Contains(o.stdout, "load_skill") || !strings.Contains(o.stdout, "skills") {
		t.Errorf("load_skill (source skills) should be listed:\n%s", o.stdout)
	}
	o = sb.run(cli{args: []string{"tools", "call", "load_skill", "--args", `{"skill_id":"pdf"}`}})
	o.want(t, 0)
	if !strings.Contains(o.stdout, `"body":"body"`) {
		t.Errorf("tools call load_skill: got %s", o.stdout)
	}
}

// TestSkillsWalkUpFromOutside: run in a subdirectory of a git repository,
// llmrt finds the skills of the repository root's .claude/skills and of
// .agents/skills on the way down, and a nearer folder's skill wins over
// the root's of the same name; outside the repository it finds none.
func TestSkillsWalkUpFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	repo := filepath.Join(sb.work, "repo")
	writeAbs(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeAbs(t, filepath.Join(repo, ".claude", "skills", "deploy", "SKILL.md"), skillFile("deploy", "Deploy the service.", "Run make deploy.\n"))
	writeAbs(t, filepath.Join(repo, ".claude", "skills", "lint", "SKILL.md"), skillFile("lint", "Root lint rules.", "root\n"))
	sub := filepath.Join(repo, "pkg", "x")
	writeAbs(t, filepath.Join(repo, "pkg", ".agents", "skills", "lint", "SKILL.md"), skillFile("lint", "Package lint rules.", "pkg\n"))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}

	srv := fake(t, fakellm.OpenAI, toolCall("load_skill", `{"skill_id":"deploy"}`), finalAnswer("done"))
	o := sb.run(cli{dir: sub, args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "-p", "deploy it"},
		env: map[string]string{"OPENAI_API_KEY": "sk-test"}})
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests: got %d, want 2\nstderr: %s", len(reqs), o.stderr)
	}
	sys := systemPrompt(t, reqs[0])
	for _, w := range []string{"- deploy: Deploy the service.", "- lint: Package lint rules."} {
		if !strings.Contains(sys, w) {
			t.Errorf("system prompt run in %s should list %q:\n%s", sub, w, sys)
		}
	}
	if strings.Contains(sys, "Root lint rules.") {
		t.Errorf("the nearer folder's lint should replace the root's:\n%s", sys)
	}
	if second := string(reqs[1].Body); !strings.Contains(second, "Run make deploy.") {
		t.Errorf("load_skill from the subdirectory should return the root skill's body: %s", second)
	}

	// The same layout without .git: the subdirectory is the project alone.
	if err := os.RemoveAll(filepath.Join(repo, ".git")); err != nil {
		t.Fatal(err)
	}
	o = sb.run(cli{dir: sub, args: []string{"skills", "--json"}})
	o.want(t, 0)
	if strings.Contains(o.stdout, "deploy") {
		t.Errorf("outside a repository the parent's skills should not be found:\n%s", o.stdout)
	}
}

// TestSkillAllowedToolsFromOutside: a project skill's allowed-tools
// (Bash(git status:*)) let git status run without a person once the
// model loaded it, in a folder trusted with --trust; rm -rf is still
// refused, git status before load_skill too, and without trust the skill
// grants nothing and the warning says the folder is untrusted.
func TestSkillAllowedToolsFromOutside(t *testing.T) {
	t.Parallel()
	for _, trusted := range []bool{true, false} {
		t.Run(map[bool]string{true: "trusted", false: "untrusted"}[trusted], func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			sb.write(".claude/skills/git/SKILL.md", "---\nname: git\ndescription: Inspect the repository.\nallowed-tools: Read, Bash(git status:*)\n---\nRun git status.\n")
			srv := fake(t, fakellm.OpenAI,
				toolCall("shell_cmd", `{"command":"git status --short"}`),
				toolCall("load_skill", `{"skill_id":"git"}`),
				toolCall("shell_cmd", `{"command":"git status"}`),
				toolCall("shell_cmd", `{"command":"rm -rf x"}`),
				finalAnswer("done"))
			args := []string{"--permission", "ask", "-p", "check"}
			if trusted {
				args = append([]string{"--trust"}, args...)
			}
			o := openaiRun(sb, srv, args...)
			o.want(t, 0)
			reqs := srv.Requests()
			if len(reqs) != 5 {
				t.Fatalf("requests: got %d, want 5\nstderr: %s", len(reqs), o.stderr)
			}
			lastResult := func(i int) string { // the last tool result request i sent back
				items, _ := bodyOf(t, reqs[i])["input"].([]any) // the Responses API
				for j := len(items) - 1; j >= 0; j-- {
					if m, _ := items[j].(map[string]any); m["type"] == "function_call_output" {
						s, _ := m["output"].(string)
						return s
					}
				}
				t.Fatalf("request %d has no tool result", i)
				return ""
			}
			if !strings.Contains(lastResult(1), "permission denied") {
				t.Errorf("git status before load_skill should be refused: %s", lastResult(1))
			}
			if got := strings.Contains(lastResult(3), "permission denied"); got == trusted {
				t.Errorf("git status after load_skill (trusted %v): denied %v\n%s", trusted, got, lastResult(3))
			}
			if !strings.Contains(lastResult(4), "permission denied") {
				t.Errorf("rm -rf x should still be refused: %s", lastResult(4))
			}
			if !trusted && !strings.Contains(o.stderr, "skill git would let read_file, shell_cmd(command=git status *) run without asking") {
				t.Errorf("the untrusted-folder warning should name the skill's rules:\n%s", o.stderr)
			}
		})
	}
}
