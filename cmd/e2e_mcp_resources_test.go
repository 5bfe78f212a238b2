package cmd_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// resourceServer configures the test server with its resource and its
// prompt as "srv".
func resourceServer(sb *sandbox) {
	sb.mcpConfig(fmt.Sprintf(`"srv":{"command":%q,"env":{"MCPTEST_RESOURCES":"1"}}`, mcpServer))
}

// TestMCPResourceMention: @srv:res://x in a run's prompt sends the
// resource's text to the model with the prompt; an unknown server or uri,
// and a resource larger than a message may be, are usage errors naming
// it, and nothing is sent.
func TestMCPResourceMention(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	resourceServer(sb)
	srv := fake(t, fakellm.OpenAI, finalAnswer("read it"))
	o := openaiRun(sb, srv, "-p", "summarise @srv:res://x please")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1\nstderr: %s", len(reqs), o.stderr)
	}
	body := string(reqs[0].Body)
	for _, want := range []string{"summarise @srv:res://x please", "RESOURCE-TEXT-9921", `uri=\"res://x\"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %q:\n%s", want, body)
		}
	}

	for _, tc := range []struct{ prompt, want string }{
		{"look at @nope:res://x", `no MCP server named "nope" (configured: srv)`},
		{"look at @srv:res://missing", "@srv:res://missing"},
		{"look at @srv:res://big", "@srv:res://big is 600 KB, over the 544 KB one message may carry for gpt-5 (half of its 272,000-token context window); nothing was sent\nhint: name the resource without @ and let the model read it in pages with read_mcp_resource"},
	} {
		empty := fake(t, fakellm.OpenAI, finalAnswer("never"))
		o := openaiRun(sb, empty, "--model", "gpt-5", "-p", tc.prompt)
		o.want(t, 2)
		if !strings.Contains(o.stderr, tc.want) {
			t.Errorf("%q: stderr should name the problem (%q):\n%s", tc.prompt, tc.want, o.stderr)
		}
		if n := len(empty.Requests()); n != 0 {
			t.Errorf("%q: %d requests sent, want none", tc.prompt, n)
		}
	}
}

// TestMCPReadResourceTool: the model is offered list_mcp_resources and
// read_mcp_resource, lists the resources and reads one; read-only, they
// run in the ask mode without a question.
func TestMCPReadResourceTool(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	resourceServer(sb)
	srv := fake(t, fakellm.OpenAI,
		toolCall("list_mcp_resources", `{}`),
		toolCall("read_mcp_resource", `{"server":"srv","uri":"res://x"}`),
		finalAnswer("done"))
	o := openaiRun(sb, srv, "-p", "what does the server hold?")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3\nstderr: %s", len(reqs), o.stderr)
	}
	for _, want := range []string{`"list_mcp_resources"`, `"read_mcp_resource"`} {
		if !strings.Contains(string(reqs[0].Body), want) {
			t.Errorf("the first request does not offer %s", want)
		}
	}
	if !strings.Contains(string(reqs[1].Body), `a test resource`) {
		t.Errorf("the listing should reach the model:\n%s", reqs[1].Body)
	}
	if !strings.Contains(string(reqs[2].Body), "RESOURCE-TEXT-9921") {
		t.Errorf("the resource's text should reach the model:\n%s", reqs[2].Body)
	}
}

// TestMCPResourceToolsAbsentWithoutResources: a server with tools only
// brings no resource tools.
func TestMCPResourceToolsAbsentWithoutResources(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q}`, mcpServer))
	srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
	openaiRun(sb, srv, "-p", "hi").want(t, 0)
	if body := string(srv.Requests()[0].Body); strings.Contains(body, "mcp_resource") {
		t.Errorf("resource tools offered without a server that has resources:\n%s", body)
	}
}

// TestMCPPromptCommandInRun: /mcp__srv__greet name=Ada sends the prompt
// the server expands; a missing required argument is a usage error
// naming it.
func TestMCPPromptCommandInRun(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	resourceServer(sb)
	for _, tc := range []struct{ line, want string }{
		{"/mcp__srv__greet name=Ada", "Greet Ada warmly, in one line."},
		{"/mcp__srv__greet Ada briefly", "Greet Ada briefly, in one line."},
	} {
		srv := fake(t, fakellm.OpenAI, finalAnswer("Hello Ada"))
		o := openaiRun(sb, srv, "-p", tc.line)
		o.want(t, 0)
		if body := string(srv.Requests()[0].Body); !strings.Contains(body, tc.want) {
			t.Errorf("%s: the request lacks %q:\n%s", tc.line, tc.want, body)
		}
	}
	srv := fake(t, fakellm.OpenAI, finalAnswer("never"))
	o := openaiRun(sb, srv, "-p", "/mcp__srv__greet")
	o.want(t, 2)
	if !strings.Contains(o.stderr, "name is required (usage: /mcp__srv__greet <name> [style]") {
		t.Errorf("stderr should name the missing argument:\n%s", o.stderr)
	}
	o = openaiRun(sb, srv, "-p", "/mcp__srv__nope")
	o.want(t, 2)
	if !strings.Contains(o.stderr, "/mcp__srv__greet") {
		t.Errorf("an unknown command should list the MCP prompt commands:\n%s", o.stderr)
	}
}

// TestMCPPanelAndPromptInChat: in a real terminal at two sizes, the
// server's prompt is completed from the start; /mcp
// shows the server's state, tools, prompts and scope, and offers its
// actions; disabling it from the menu says so; the prompt's command is
// completed with its description and sends the expanded prompt, and an
// @srv:res://x mention sends the resource.
func TestMCPPanelAndPromptInChat(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			resourceServer(sb)
			srv := fake(t, fakellm.OpenAI, finalAnswer("Hello there, Ada"), finalAnswer("Noted the resource"))
			tm := startTermSized(t, sb, size[0], size[1], openaiKey, chatArgs(srv)...)
			tm.waitFor("Ask anything", 20*time.Second)
			// The servers start once the screen is up: their prompts are
			// offered before any turn.
			tm.keys("/mcp__")
			tm.waitFor("(mcp srv) Greets someone by name", 30*time.Second)
			tm.keys("C-c")
			tm.waitFor("Ask anything", 20*time.Second)
			tm.keys("/mcp", "Enter")
			scr := tm.waitFor("Do something with a server?", 30*time.Second)
			for _, want := range []string{"srv · ready · 5 tools · 1 prompt · scope project (.mcp.json)", "Reconnect srv", "Disable srv"} {
				if !strings.Contains(scr, want) {
					t.Errorf("the panel lacks %q:\n%s", want, scr)
				}
			}
			tm.keys("Down", "Enter")
			scr = tm.waitFor("srv disabled for this session", 30*time.Second)
			if !strings.Contains(scr, "srv · disabled") {
				t.Errorf("the panel should show the server disabled:\n%s", scr)
			}
			tm.keys("/mcp enable srv", "Enter")
			tm.waitFor("srv enabled for this session", 30*time.Second)
			tm.keys("/mcp__")
			tm.waitFor("(mcp srv) Greets someone by name", 20*time.Second)
			tm.keys("Tab", "name=Ada", "Enter")
			scr = tm.waitFor("Hello there, Ada", 30*time.Second)
			if !strings.Contains(scr, "› /mcp__srv__greet name=Ada") {
				t.Errorf("the screen should show the command as typed:\n%s", scr)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "Greet Ada warmly, in one line.") {
				t.Fatalf("the model should get the expanded prompt: %d requests", len(reqs))
			}
			tm.keys("what is in @srv:res://x", "Enter")
			tm.waitFor("Noted the resource", 30*time.Second)
			reqs = srv.Requests()
			if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "RESOURCE-TEXT-9921") {
				t.Errorf("the mentioned resource should reach the model: %d requests", len(reqs))
			}
		})
	}
}

// TestMCPEverythingResourcesAndPromptsThroughRun: with the pinned
// everything server, a run attaches @everything:<document> and expands
// /mcp__everything__args-prompt with its arguments.
func TestMCPEverythingResourcesAndPromptsThroughRun(t *testing.T) {
	t.Parallel()
	npmDir := ciNPM(t)
	if npmDir == "" {
		t.Skip("the pinned npm MCP servers are not installed; run .ci/run (npm ci in .ci/npm)")
	}
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"everything":{"command":%q,"args":[%q,"stdio"],"timeout":60}`,
		filepath.Join(npmDir, "node_modules", ".bin", "node"),
		filepath.Join(npmDir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")))
	srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
	o := openaiRun(sb, srv, "-p", "summarise @everything:demo://resource/static/document/structure.md")
	o.want(t, 0)
	if body := string(srv.Requests()[0].Body); !strings.Contains(body, "Everything Server - Project Structure") {
		t.Errorf("the document should reach the model:\n%.2000s", body)
	}
	srv = fake(t, fakellm.OpenAI, finalAnswer("sunny"))
	o = openaiRun(sb, srv, "/mcp__everything__args-prompt", "Austin", "state=Texas")
	o.want(t, 0)
	if body := string(srv.Requests()[0].Body); !strings.Contains(body, "What's weather in Austin, Texas?") {
		t.Errorf("the expanded prompt should reach the model:\n%.2000s", body)
	}
}
