package cmd_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestMCPReadOnlyHintInReadMode: with --permission read, an MCP tool the
// server marks read-only runs and one it does not is refused, and the
// model sees both outcomes.
func TestMCPReadOnlyHintInReadMode(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q}`, mcpServer))
	srv := fake(t, fakellm.OpenAI,
		toolCall("mcp__calc__get-sum", `{"a":2,"b":3}`),
		toolCall("mcp__calc__fail", `{}`),
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
		t.Errorf("mcp__calc__fail (not marked read-only) should be refused in read mode; the model got: %s", body)
	}
}

// TestMCPElicitationWithoutAPersonIsDeclined: piped, nobody can answer a
// server's elicitation request, so it is declined and the server's answer
// to that reaches the model.
func TestMCPElicitationWithoutAPersonIsDeclined(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q}`, mcpServer))
	srv := fake(t, fakellm.OpenAI, toolCall("mcp__calc__elicit", `{}`), finalAnswer("ok"))
	o := openaiRun(sb, srv, "--permission", "auto", "-p", "who")
	o.want(t, 0)
	if body := lastRequestText(t, srv); !contains(body, `elicitation result: {\"action\":\"decline\"}`) {
		t.Errorf("the model should see the request declined: %s", body)
	}
	if strings.Contains(o.stderr, "mcp: starting") {
		t.Errorf("server start progress is for a terminal, not a pipe; stderr:\n%s", o.stderr)
	}
}

// TestTerminalMCPElicitation: on a terminal, a server's elicitation
// request is a form with the server's message; a typed name and the
// default age reach the server, and its answer reaches the model.
func TestTerminalMCPElicitation(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q}`, mcpServer))
	srv := fake(t, fakellm.OpenAI, toolCall("mcp__calc__elicit", `{}`), finalAnswer("Hello, Ada."))
	tm := startTermSized(t, sb, 100, 30, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "--permission", "auto", "-p", "who")
	scr := tm.waitFor("MCP server calc asks: Who is at the keyboard?", 20*time.Second)
	if !strings.Contains(scr, "llmrt: mcp: starting calc") || !strings.Contains(scr, "llmrt: mcp: calc ready (5 tools)") {
		t.Errorf("a terminal should show the server's start:\n%s", scr)
	}
	tm.keys("Down")
	tm.keys("Enter") // Other: type the name
	tm.waitFor("Your answer", 10*time.Second)
	tm.keys("-l", "Ada")
	tm.waitFor("› Ada", 10*time.Second)
	tm.keys("Enter")
	tm.waitFor("the server's default", 10*time.Second)
	tm.keys("Enter") // the default age
	scr = tm.waitFor("EXIT=", 20*time.Second)
	if !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("the run should end well:\n%s", scr)
	}
	if body := lastRequestText(t, srv); !contains(body, `{\"action\":\"accept\",\"content\":{\"age\":36,\"name\":\"Ada\"}}`) {
		t.Errorf("the server should get the typed name and the default age: %s", body)
	}
}

// TestMCPLogsStayOffTheTerminal: mcp-go logs (its streamable HTTP client
// says "listening to server forever" at every start, and more on errors);
// none of it reaches llmrt's stderr, where every line is llmrt's own.
func TestMCPLogsStayOffTheTerminal(t *testing.T) {
	t.Parallel()
	s := server.NewMCPServer("web", "1.0", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("ping"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("pong"), nil
	})
	web := httptest.NewServer(server.NewStreamableHTTPServer(s))
	defer web.Close()
	old := httptest.NewServer(server.NewSSEServer(s))
	defer old.Close()
	sb := newSandbox(t)
	// "wrong" speaks streamable HTTP where SSE is configured: it never
	// sends an endpoint, and its half-second start-up timeout bounds the
	// wait.
	sb.mcpConfig(fmt.Sprintf(`"web":{"url":%q},"old":{"type":"sse","url":%q},"wrong":{"type":"sse","url":%q,"timeout":0.5}`,
		web.URL+"/mcp", old.URL+"/sse", web.URL+"/mcp"))
	srv := fake(t, fakellm.OpenAI, toolCall("mcp__web__ping", `{}`), toolCall("mcp__old__ping", `{}`), finalAnswer("pong"))
	o := openaiRun(sb, srv, "--permission", "auto", "--verbose", "-p", "ping")
	o.want(t, 0)
	if reqs := srv.Requests(); len(reqs) != 3 || !contains(string(reqs[1].Body), "pong") || !contains(string(reqs[2].Body), "pong") {
		t.Fatalf("the streamable HTTP and SSE servers' tools should answer; stderr:\n%s", o.stderr)
	}
	if o.took > 20*time.Second {
		t.Errorf("the run took %s; the SSE server without an endpoint should give up after its start-up timeout", o.took)
	}
	if !strings.Contains(o.stderr, "mcp server wrong") {
		t.Errorf("stderr should name the failed server wrong:\n%s", o.stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(o.stderr), "\n") {
		if !strings.HasPrefix(line, "llmrt: ") && !strings.HasPrefix(line, "hint: ") && !strings.HasPrefix(line, "  ") && !strings.ContainsAny(line[:min(len(line), 4)], "✓→!…✗") {
			t.Errorf("stderr line %q is not llmrt's own; stderr:\n%s", line, o.stderr)
		}
	}
	if strings.Contains(o.stderr, "listening to server") {
		t.Errorf("mcp-go's log reached stderr:\n%s", o.stderr)
	}
}
