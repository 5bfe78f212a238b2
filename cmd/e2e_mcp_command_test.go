package cmd_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPCommand: llmrt mcp add, list, get and remove, in the project's
// .mcp.json (--scope project) and the user config (--scope user), taking
// the arguments claude mcp users type. Steps run in order in one sandbox.
func TestMCPCommand(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	steps := []struct {
		args        []string
		code        int
		stdout      []string // each must appear
		stderr      string
		notInStdout string
	}{
		{args: []string{"mcp", "list"}, stdout: []string{"No MCP servers configured"}},
		{args: []string{"mcp", "add", "calc", "--scope", "project", "--env", "A=1", "-e", "B=${HOME}", "--", "calc-server", "--fast"}, stdout: []string{"Added MCP server calc", ".mcp.json"}},
		{args: []string{"mcp", "add", "docs", "--scope", "user", "--url", "http://127.0.0.1:9/mcp", "--header", "Authorization: Bearer ${DOCS_TOKEN}"}, stdout: []string{"config.json"}},
		{args: []string{"mcp", "add", "--transport", "http", "sentry", "https://mcp.example.com/mcp"}, stdout: []string{"Added MCP server sentry"}},
		{args: []string{"mcp", "add", "sentry", "--", "other"}, code: 1, stderr: "MCP server sentry already exists"},
		{args: []string{"mcp", "list"}, stdout: []string{"calc", "project (not trusted)", "stdio", "calc-server --fast", ".mcp.json", "docs", "user", "streamable-http", "config.json", "sentry", "local", "https://mcp.example.com/mcp"}},
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

// TestMCPConfigSources: a server named in several sources is taken from
// the latest (user config, project .mcp.json, project .llmrt/config.json,
// --mcp-config) once the folder is trusted, and a VS Code style {"servers": ...} file with ${VAR}
// references works as given.
func TestMCPConfigSources(t *testing.T) {
	t.Parallel()
	server := func(cmd string) string { return `{"mcpServers":{"calc":{"command":"/nonexistent/` + cmd + `"}}}` }
	cases := []struct {
		name  string
		files map[string]string // path relative to the sandbox ("home/" or "work/") → content
		flag  string            // --mcp-config content, if any
		want  string            // the command llmrt tried
	}{
		{"user only", map[string]string{"home/config/llmrt/config.json": server("user")}, "", "/nonexistent/user"},
		{"project .mcp.json over user", map[string]string{"home/config/llmrt/config.json": server("user"), "work/.mcp.json": server("mcpjson")}, "", "/nonexistent/mcpjson"},
		{"project config over .mcp.json", map[string]string{"work/.mcp.json": server("mcpjson"), "work/.llmrt/config.json": server("project")}, "", "/nonexistent/project"},
		{"--mcp-config over all", map[string]string{"home/config/llmrt/config.json": server("user"), "work/.mcp.json": server("mcpjson"), "work/.llmrt/config.json": server("project")},
			server("flag"), "/nonexistent/flag"},
		{"servers shape and ${VAR:-default}", nil, `{"servers":{"calc":{"type":"stdio","command":"${MCP_TEST_UNSET:-/nonexistent}/vscode"}}}`, "/nonexistent/vscode"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			for rel, content := range tc.files {
				dir, rest, _ := strings.Cut(rel, "/")
				base := sb.work
				if dir == "home" {
					base = sb.home
				}
				writeAbs(t, filepath.Join(base, rest), content)
			}
			// The user wrote the project's files: they trust the folder.
			sb.trust()
			args := []string{"tools", "--json"}
			if tc.flag != "" {
				f := filepath.Join(sb.home, "extra.json")
				writeAbs(t, f, tc.flag)
				args = append(args, "--mcp-config", f)
			}
			o := sb.run(cli{args: args})
			o.want(t, 0)
			var out struct {
				MCPServers []struct{ Name, Status, Error string } `json:"mcp_servers"`
			}
			if err := json.Unmarshal([]byte(o.stdout), &out); err != nil {
				t.Fatalf("tools --json: %v\n%s", err, o.stdout)
			}
			if len(out.MCPServers) != 1 || out.MCPServers[0].Status != "failed" || !strings.Contains(out.MCPServers[0].Error, tc.want+":") {
				t.Errorf("got servers %+v, want calc failed starting %s", out.MCPServers, tc.want)
			}
		})
	}
}

// TestMCPToolsCommand: `llmrt tools` lists each server's tools and status,
// a failed server with its reason, and `llmrt tools call` runs an MCP tool
// outside any model run, under the same permissions.
func TestMCPToolsCommand(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q},"ghost":{"command":"/nonexistent/ghost-mcp"}`, mcpServer))
	o := sb.run(cli{args: []string{"tools"}})
	o.want(t, 0)
	for _, w := range []string{"mcp__calc__get-sum", "mcp:calc", "calc: ready, 5 tools", "ghost: failed: start /nonexistent/ghost-mcp"} {
		if !strings.Contains(o.stdout, w) {
			t.Errorf("llmrt tools: stdout lacks %q:\n%s", w, o.stdout)
		}
	}
	cases := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"tools", "call", "mcp__calc__get-sum", "--args", `{"a":2,"b":3}`}, 0, "The sum of 2 and 3 is 5.", ""},
		{[]string{"tools", "call", "mcp__calc__get-sum", "--permission", "read", "--args", `{"a":2,"b":3}`}, 0, "The sum of 2 and 3 is 5.", ""},
		{[]string{"tools", "call", "mcp__calc__fail", "--permission", "auto", "--args", `{}`}, 1, "", "the widget is jammed"},
		{[]string{"tools", "call", "mcp__calc__fail", "--permission", "read", "--args", `{}`}, 1, "", "read-only"},
	}
	for _, tc := range cases {
		o := sb.run(cli{args: tc.args})
		if o.code != tc.code || !strings.Contains(o.stdout, tc.stdout) || !strings.Contains(o.stderr, tc.stderr) {
			t.Errorf("llmrt %s: got exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				strings.Join(tc.args, " "), o.code, o.stdout, o.stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
}
