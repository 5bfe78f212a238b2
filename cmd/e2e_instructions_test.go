package cmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestProjectInstructionsFromOutside: the user's AGENTS.md, the repository
// root's AGENTS.md and a nested directory's CLAUDE.md reach the system
// prompt the model receives, in that order; --verbose names the files;
// --no-project-instructions leaves them all out.
func TestProjectInstructionsFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	if err := os.MkdirAll(filepath.Join(sb.work, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	user := filepath.Join(sb.home, "config", "llmrt", "AGENTS.md")
	writeAbs(t, user, "USER-RULE: answer briefly.")
	root := sb.write("AGENTS.md", "ROOT-RULE: run go test before finishing.")
	nested := sb.write("svc/api/CLAUDE.md", "NESTED-RULE: this service uses chi.")
	sb.write("svc/AGENTS.md", "MIDDLE-RULE: services log as JSON.")
	sb.write("other/AGENTS.md", "OTHER-RULE: must not appear.")
	dir := filepath.Dir(nested)

	srv := fake(t, fakellm.OpenAI, finalAnswer("ok"), finalAnswer("ok"))
	args := []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "--verbose", "-p", "hi"}
	env := map[string]string{"OPENAI_API_KEY": "sk-test"}
	o := sb.run(cli{args: args, env: env, dir: dir})
	o.want(t, 0)
	sys := systemPrompt(t, srv.Requests()[0])
	last := -1
	for _, rule := range []string{"USER-RULE", "ROOT-RULE", "MIDDLE-RULE", "NESTED-RULE"} {
		i := strings.Index(sys, rule)
		if i < 0 || i < last {
			t.Fatalf("system prompt should hold %s after the files above it:\n%s", rule, sys)
		}
		last = i
	}
	if strings.Contains(sys, "OTHER-RULE") {
		t.Errorf("a sibling directory's AGENTS.md reached the system prompt:\n%s", sys)
	}
	for _, p := range []string{user, root, nested} {
		if !strings.Contains(o.stderr, "instructions: "+p) {
			t.Errorf("--verbose should name %s on stderr:\n%s", p, o.stderr)
		}
	}

	o = sb.run(cli{args: append(args, "--no-project-instructions"), env: env, dir: dir})
	o.want(t, 0)
	if sys := systemPrompt(t, srv.Requests()[1]); strings.Contains(sys, "-RULE") {
		t.Errorf("--no-project-instructions: the system prompt still holds instructions:\n%s", sys)
	}
}

// TestProjectInstructionsCapFromOutside: an oversized AGENTS.md is cut to
// the cap with a warning naming it.
func TestProjectInstructionsCapFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	big := sb.write("AGENTS.md", "BIG-START "+strings.Repeat("x", 40*1024)+" BIG-END")
	srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
	o := openaiRun(sb, srv, "-p", "hi")
	o.want(t, 0)
	if !strings.Contains(o.stderr, "warning: "+big+": instructions truncated") {
		t.Errorf("stderr should warn that %s was truncated:\n%s", big, o.stderr)
	}
	sys := systemPrompt(t, srv.Requests()[0])
	if !strings.Contains(sys, "BIG-START") || strings.Contains(sys, "BIG-END") {
		t.Errorf("the system prompt should hold the start of the file and not its end (%d bytes)", len(sys))
	}
}
