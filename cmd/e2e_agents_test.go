package cmd_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

const testerAgent = `---
name: tester
description: Runs the test suite and reports what failed
tools: Read, Grep, Bash, TodoWrite
model: sonnet
---
You are TESTER-7. Run the tests and report failures only.
`

// wireTool is a tool of a chat completions request (under function) or
// of a Responses request (flat).
type wireTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Function    *wireTool       `json:"function"`
}

// openAIRequest is what the e2e tests read of an OpenAI request, in
// either API's shape.
type openAIRequest struct {
	Instructions string        `json:"instructions"`
	Messages     []wireMessage `json:"messages"`
	Input        []wireMessage `json:"input"`
	Tools        []wireTool    `json:"tools"`
}

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

func decodeOpenAI(t *testing.T, r fakellm.Request) openAIRequest {
	t.Helper()
	var req openAIRequest
	if err := json.Unmarshal(r.Body, &req); err != nil {
		t.Fatalf("request body: %v\n%s", err, r.Body)
	}
	for i, tl := range req.Tools {
		if tl.Function != nil {
			req.Tools[i] = *tl.Function
		}
	}
	return req
}

func (r openAIRequest) toolNames() []string {
	var out []string
	for _, t := range r.Tools {
		out = append(out, t.Name)
	}
	return out
}

// system is the request's system text, as JSON.
func (r openAIRequest) system() string {
	b := strings.Builder{}
	b.WriteString(r.Instructions)
	for _, m := range append(r.Messages, r.Input...) {
		if m.Role == "system" || m.Role == "developer" {
			var s string
			if json.Unmarshal(m.Content, &s) == nil {
				b.WriteString(s)
			} else {
				b.Write(m.Content)
			}
		}
	}
	return b.String()
}

// TestAgentFileOfferedAndRun: a trusted folder's .claude/agents/tester.md
// is offered to spawn_agent (its name in the schema and description), and
// a spawn_agent call naming it runs a sub-run whose request carries the
// agent's body as the system prompt and only the agent's tools, mapped to
// llmrt's names.
func TestAgentFileOfferedAndRun(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write(".claude/agents/tester.md", testerAgent)
	sb.run(cli{args: []string{"trust"}}).want(t, 0)
	srv := fake(t, fakellm.OpenAI,
		toolCall("spawn_agent", `{"task":"run the tests in ./pkg","agent":"tester"}`),
		finalAnswer("2 tests failed"),
		finalAnswer("the tester says 2 failed"))
	o := sandboxRun(t, sb, srv, "--tools", "all", "-p", "check the tests")
	o.want(t, 0)
	if strings.TrimSpace(o.stdout) != "the tester says 2 failed" {
		t.Errorf("stdout %q, want the parent's answer", o.stdout)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model calls, want 3 (parent, sub-run, parent)", len(reqs))
	}
	parent := decodeOpenAI(t, reqs[0])
	i := slices.IndexFunc(parent.Tools, func(x wireTool) bool { return x.Name == "spawn_agent" })
	if i < 0 {
		t.Fatalf("spawn_agent is not offered: %q", parent.toolNames())
	}
	spawn := parent.Tools[i]
	if !strings.Contains(spawn.Description, "tester: Runs the test suite and reports what failed") || !strings.Contains(string(spawn.Parameters), `"enum":["tester"]`) {
		t.Errorf("spawn_agent should offer the tester agent:\n%s\n%s", spawn.Description, spawn.Parameters)
	}
	if strings.Contains(parent.system(), "TESTER-7") {
		t.Error("the parent's system prompt carries the agent's body")
	}
	child := decodeOpenAI(t, reqs[1])
	if !strings.Contains(child.system(), "You are TESTER-7. Run the tests and report failures only.") {
		t.Errorf("the sub-run's system prompt lacks the agent's body:\n%s", child.system())
	}
	if !strings.Contains(string(reqs[1].Body), "run the tests in ./pkg") {
		t.Error("the sub-run was not given the task")
	}
	got := child.toolNames()
	for _, want := range []string{"read_file", "search_files", "shell_cmd"} {
		if !slices.Contains(got, want) {
			t.Errorf("the sub-run lacks %s: %q", want, got)
		}
	}
	for _, not := range []string{"write_file", "edit_file", "list_files", "spawn_agent", "run_code", "web_fetch"} {
		if slices.Contains(got, not) {
			t.Errorf("the sub-run was offered %s, which the agent does not name: %q", not, got)
		}
	}
	if !strings.Contains(o.stderr, "TodoWrite") {
		t.Errorf("the dropped TodoWrite should be a warning:\n%s", o.stderr)
	}
	if list := sb.run(cli{args: []string{"agents"}}); !strings.Contains(list.stdout, "tester") || !strings.Contains(list.stdout, "project") ||
		!strings.Contains(list.stdout, "read_file,search_files,shell_cmd") {
		t.Errorf("llmrt agents should list the tester:\n%s\n%s", list.stdout, list.stderr)
	}
}

// TestUntrustedAgentFileNotOffered: an untrusted folder's agents are not
// offered, and the run says the folder was not trusted.
func TestUntrustedAgentFileNotOffered(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write(".claude/agents/tester.md", testerAgent)
	srv := fake(t, fakellm.OpenAI, finalAnswer("done"))
	o := sandboxRun(t, sb, srv, "--tools", "all", "-p", "hi")
	o.want(t, 0)
	if body := string(srv.Requests()[0].Body); strings.Contains(body, "tester") {
		t.Error("an untrusted folder's agent was offered to the model")
	}
	if !strings.Contains(o.stderr, "not trusted") || !strings.Contains(o.stderr, "tester.md") {
		t.Errorf("the run should say the folder's agent was skipped:\n%s", o.stderr)
	}
}
