package cmd_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestMCPReadOnlyHintInReadMode: with --permission read, an MCP tool the
// server marks read-only runs and one it does not is refused, and the
// model sees both outcomes.
func TestMCPReadOnlyHintInReadMode(t *testing.T) {
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q}`, mcpServerBinary(t)))
	srv := fake(t, fakellm.OpenAI,
		toolCall("calc_get-sum", `{"a":2,"b":3}`),
		toolCall("calc_fail", `{}`),
		finalAnswer("done"))
	openaiRun(sb, srv, "--permission", "read", "-p", "add").want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("got %d model calls, want 3", len(reqs))
	}
	if body := string(reqs[1].Body); !strings.Contains(body, "The sum of 2 and 3 is 5.") {
		t.Errorf("the read-only tool should run in read mode; the model got: %s", body)
	}
	if body := string(reqs[2].Body); !strings.Contains(body, "read-only") || strings.Contains(body, "the widget is jammed") {
		t.Errorf("calc_fail (not marked read-only) should be refused in read mode; the model got: %s", body)
	}
}

// TestMCPElicitationWithoutAPersonIsDeclined: piped, nobody can answer a
// server's elicitation request, so it is declined and the server's answer
// to that reaches the model.
func TestMCPElicitationWithoutAPersonIsDeclined(t *testing.T) {
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q}`, mcpServerBinary(t)))
	srv := fake(t, fakellm.OpenAI, toolCall("calc_elicit", `{}`), finalAnswer("ok"))
	openaiRun(sb, srv, "--permission", "auto", "-p", "who").want(t, 0)
	if body := lastRequestText(t, srv); !contains(body, `elicitation result: {\"action\":\"decline\"}`) {
		t.Errorf("the model should see the request declined: %s", body)
	}
}

// TestTerminalMCPElicitation: on a terminal, a server's elicitation
// request is a form with the server's message; a typed name and the
// default age reach the server, and its answer reaches the model.
func TestTerminalMCPElicitation(t *testing.T) {
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q}`, mcpServerBinary(t)))
	srv := fake(t, fakellm.OpenAI, toolCall("calc_elicit", `{}`), finalAnswer("Hello, Ada."))
	tm := startTermSized(t, sb, 100, 30, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "--permission", "auto", "-p", "who")
	tm.waitFor("MCP server calc asks: Who is at the keyboard?", 20*time.Second)
	tm.keys("Down")
	tm.keys("Enter") // Other: type the name
	tm.waitFor("Your answer", 10*time.Second)
	tm.keys("-l", "Ada")
	tm.waitFor("› Ada", 10*time.Second)
	tm.keys("Enter")
	tm.waitFor("the server's default", 10*time.Second)
	tm.keys("Enter") // the default age
	scr := tm.waitFor("EXIT=", 20*time.Second)
	if !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("the run should end well:\n%s", scr)
	}
	if body := lastRequestText(t, srv); !contains(body, `{\"action\":\"accept\",\"content\":{\"age\":36,\"name\":\"Ada\"}}`) {
		t.Errorf("the server should get the typed name and the default age: %s", body)
	}
}
