package cmd_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestMCPReferenceServersReachTheModel: through llmrt run, the model calls
// the everything server's get-sum with {"a":2,"b":3} and gets the server's
// answer, its image arrives as an image, the filesystem server's isError
// text arrives, and a server whose command does not exist is a warning
// naming it while the others work. With stream-json, the long-running
// operation's progress notifications are tool_progress events.
func TestMCPReferenceServersReachTheModel(t *testing.T) {
	t.Parallel()
	npmDir := ciNPM(t)
	if npmDir == "" {
		t.Skip("the pinned npm MCP servers are not installed; run .ci/run (npm ci in .ci/npm)")
	}
	sb := newSandbox(t)
	node := filepath.Join(npmDir, "node_modules", ".bin", "node")
	entry := func(pkg string) string {
		return filepath.Join(npmDir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	}
	sb.mcpConfig(fmt.Sprintf(`"everything":{"command":%q,"args":[%q,"stdio"],"timeout":60},`+
		`"fs":{"command":%q,"args":[%q,%q],"timeout":60},"ghost":{"command":"/nonexistent/ghost-mcp"}`,
		node, entry("server-everything"), node, entry("server-filesystem"), sb.work))
	srv := fake(t, fakellm.OpenAI,
		toolCall("mcp__everything__get-sum", `{"a":2,"b":3}`),
		toolCall("mcp__everything__get-tiny-image", `{}`),
		toolCall("mcp__fs__read_text_file", `{"path":"/etc/passwd"}`),
		finalAnswer("five"))
	o := openaiRun(sb, srv, "--permission", "auto", "-p", "add 2 and 3")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("got %d model calls, want 4\nstderr: %s", len(reqs), o.stderr)
	}
	for i, want := range []string{"The sum of 2 and 3 is 5.", "image/png", "Access denied - path outside allowed directories"} {
		if body := string(reqs[i+1].Body); !strings.Contains(body, want) {
			t.Errorf("model call %d: want %q in what the model got: %.2000s", i+2, want, body)
		}
	}
	if !strings.Contains(o.stderr, "warning: mcp server ghost") || !strings.Contains(o.stderr, "/nonexistent/ghost-mcp") {
		t.Errorf("stderr should warn about the ghost server and its command:\n%s", o.stderr)
	}

	srv = fake(t, fakellm.OpenAI, toolCall("mcp__everything__trigger-long-running-operation", `{"duration":0.3,"steps":3}`), finalAnswer("done"))
	o = openaiRun(sb, srv, "--permission", "auto", "--output", "stream-json", "-p", "wait")
	o.want(t, 0)
	if n := strings.Count(o.stdout, `"type":"tool_progress"`); n == 0 || !strings.Contains(o.stdout, `"total":3`) {
		t.Errorf("got %d tool_progress events, want the server's steps of 3:\n%s", n, o.stdout)
	}
}

// TestMCPListChangedBeforeTheNextCall: a server that adds a tool during a
// call (and says so with tools/list_changed) has it offered on the very
// next model call.
func TestMCPListChangedBeforeTheNextCall(t *testing.T) {
	t.Parallel()
	s := server.NewMCPServer("web", "1.0", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("grow"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.AddTool(mcp.NewTool("grown"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("new leaf"), nil
		})
		return mcp.NewToolResultText("grew"), nil
	})
	web := httptest.NewServer(server.NewStreamableHTTPServer(s))
	defer web.Close()
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"web":{"url":%q}`, web.URL+"/mcp"))
	srv := fake(t, fakellm.OpenAI, toolCall("mcp__web__grow", `{}`), toolCall("mcp__web__grown", `{}`), finalAnswer("ok"))
	openaiRun(sb, srv, "--permission", "auto", "-p", "grow").want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("got %d model calls, want 3", len(reqs))
	}
	if names := strings.Join(toolNames(t, reqs[0]), ","); strings.Contains(names, "mcp__web__grown") {
		t.Errorf("first call: mcp__web__grown offered before it existed: %s", names)
	}
	if names := strings.Join(toolNames(t, reqs[1]), ","); !strings.Contains(names, "mcp__web__grown") {
		t.Errorf("second call: tools %s, want mcp__web__grown among them", names)
	}
	if body := string(reqs[2].Body); !strings.Contains(body, "new leaf") {
		t.Errorf("the new tool should answer: %.2000s", body)
	}
}
