package cmd_test

import (
	"strings"
	"testing"
)

// TestMCPCommand: llmrt mcp add, list, get and remove, in the project's
// .mcp.json and the user config (--scope user), taking the arguments
// claude mcp users type. Steps run in order in one sandbox.
func TestMCPCommand(t *testing.T) {
	sb := newSandbox(t)
	steps := []struct {
		args        []string
		code        int
		stdout      []string // each must appear
		stderr      string
		notInStdout string
	}{
		{args: []string{"mcp", "list"}, stdout: []string{"No MCP servers configured"}},
		{args: []string{"mcp", "add", "calc", "--env", "A=1", "-e", "B=${HOME}", "--", "calc-server", "--fast"}, stdout: []string{"Added MCP server calc", ".mcp.json"}},
		{args: []string{"mcp", "add", "docs", "--scope", "user", "--url", "http://127.0.0.1:9/mcp", "--header", "Authorization: Bearer ${DOCS_TOKEN}"}, stdout: []string{"config.json"}},
		{args: []string{"mcp", "add", "--transport", "http", "sentry", "https://mcp.example.com/mcp"}, stdout: []string{"Added MCP server sentry"}},
		{args: []string{"mcp", "list"}, stdout: []string{"calc", "stdio", "calc-server --fast", ".mcp.json", "docs", "streamable-http", "config.json", "sentry", "https://mcp.example.com/mcp"}},
		// get shows the config as written: ${VAR} stays, no secret leaks.
		{args: []string{"mcp", "get", "calc"}, stdout: []string{`"A": "1"`, `"B": "${HOME}"`, "calc (stdio, from "}},
		{args: []string{"mcp", "get", "docs"}, stdout: []string{`"Authorization": "Bearer ${DOCS_TOKEN}"`}},
		{args: []string{"mcp", "get", "nope"}, code: 1, stderr: `no MCP server named "nope"`},
		// remove finds the scope that has the server.
		{args: []string{"mcp", "remove", "docs"}, stdout: []string{"Removed MCP server docs from", "config.json"}},
		{args: []string{"mcp", "remove", "calc"}, stdout: []string{"Removed MCP server calc from", ".mcp.json"}},
		{args: []string{"mcp", "remove", "calc"}, code: 1, stderr: `no MCP server named "calc"`},
		{args: []string{"mcp", "list"}, stdout: []string{"sentry"}, notInStdout: "calc"},
		{args: []string{"mcp", "add", "x"}, code: 1, stderr: "-- COMMAND"},
		{args: []string{"mcp", "add", "bad name", "--", "x"}, code: 1, stderr: "use letters, digits"},
	}
	for _, st := range steps {
		o := sb.run(cli{args: st.args})
		if o.code != st.code {
			t.Fatalf("llmrt %s: exit code got %d, want %d\nstdout: %s\nstderr: %s", strings.Join(st.args, " "), o.code, st.code, o.stdout, o.stderr)
		}
		for _, w := range st.stdout {
			if !strings.Contains(o.stdout, w) {
				t.Errorf("llmrt %s: stdout lacks %q; got:\n%s", strings.Join(st.args, " "), w, o.stdout)
			}
		}
		if st.notInStdout != "" && strings.Contains(o.stdout, st.notInStdout) {
			t.Errorf("llmrt %s: stdout has %q, want it gone; got:\n%s", strings.Join(st.args, " "), st.notInStdout, o.stdout)
		}
		if !strings.Contains(o.stderr, st.stderr) {
			t.Errorf("llmrt %s: stderr got %q, want it to contain %q", strings.Join(st.args, " "), o.stderr, st.stderr)
		}
	}
}
