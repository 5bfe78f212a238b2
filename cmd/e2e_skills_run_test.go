package cmd_test

import (
	"encoding/json"
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
// system prompt says nothing about skills.
func TestNoSkillsNoTrace(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
	openaiRun(sb, srv, "-p", "hi").want(t, 0)
	r := srv.Requests()[0]
	if sys := systemPrompt(t, r); strings.Contains(sys, "Skills") || strings.Contains(sys, "load_skill") {
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
