package cmd_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestE2EMCPConfigErrorsReported: `llmrt tools` and `llmrt mcp list` say
// what is wrong with the MCP config on stderr (a broken .mcp.json, a
// missing --mcp-config file, an unset ${VAR}) and exit 2 under --strict;
// a VS Code file with comments and trailing commas is read as it is.
func TestE2EMCPConfigErrorsReported(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write(".mcp.json", `{"mcpServers": {"calc": {"command": `)
	sb.trust()
	missing := filepath.Join(sb.home, "nowhere.json")
	cases := []struct {
		args   []string
		code   int
		stderr []string
	}{
		{[]string{"tools"}, 0, []string{"warning", ".mcp.json"}},
		{[]string{"tools", "--strict"}, 2, []string{"--strict", ".mcp.json"}},
		{[]string{"tools", "--json"}, 0, []string{"warning", ".mcp.json"}},
		{[]string{"mcp", "list"}, 0, []string{"warning", ".mcp.json"}},
		{[]string{"mcp", "list", "--strict"}, 2, []string{"--strict", ".mcp.json"}},
		{[]string{"mcp", "list", "--json", "--strict"}, 2, []string{".mcp.json"}},
		{[]string{"tools", "--mcp-config", missing}, 0, []string{"warning", missing, "no such file"}},
		{[]string{"tools", "--strict", "--mcp-config", missing}, 2, []string{missing, "no such file"}},
	}
	for _, tc := range cases {
		o := sb.run(cli{args: tc.args})
		if o.code != tc.code {
			t.Errorf("llmrt %s: exit %d, want %d\nstderr: %s", strings.Join(tc.args, " "), o.code, tc.code, o.stderr)
		}
		for _, w := range tc.stderr {
			if !strings.Contains(o.stderr, w) {
				t.Errorf("llmrt %s: stderr lacks %q:\n%s", strings.Join(tc.args, " "), w, o.stderr)
			}
		}
	}

	sb.write(".mcp.json", `// shared with VS Code
{"servers": {
  "calc": {"type": "stdio", "command": "`+mcpServer+`",}, /* the test server */
  "docs": {"url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer ${DOCS_TOKEN_E2E}"}, "enabled": false},
},}`)
	sb.trust()
	o := sb.run(cli{args: []string{"tools"}})
	o.want(t, 0)
	if !strings.Contains(o.stdout, "mcp__calc__get-sum") || strings.Contains(o.stderr, "not a valid MCP config") {
		t.Errorf("a JSONC .mcp.json: got stdout %q stderr %q, want calc's tools and no error", o.stdout, o.stderr)
	}
	if !strings.Contains(o.stderr, "DOCS_TOKEN_E2E") || !strings.Contains(o.stderr, "not set") {
		t.Errorf("unset ${DOCS_TOKEN_E2E}: stderr %q, want a warning naming it", o.stderr)
	}
	if o := sb.run(cli{args: []string{"tools", "--strict"}}); o.code != 2 || !strings.Contains(o.stderr, "DOCS_TOKEN_E2E") {
		t.Errorf("unset variable under --strict: exit %d, stderr %q; want 2 naming it", o.code, o.stderr)
	}
	// Rewriting the file would drop its comments: llmrt says so instead.
	if o := sb.run(cli{args: []string{"mcp", "remove", "docs"}}); o.code != 1 || !strings.Contains(o.stderr, "comments") {
		t.Errorf("mcp remove from a JSONC file: exit %d, stderr %q; want 1 saying it has comments", o.code, o.stderr)
	}
}

// TestE2EMCPListJSONHealth: `llmrt mcp list --json` starts each enabled
// server and says how it stands, with its tools; a disabled server is
// not started.
func TestE2EMCPListJSONHealth(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q},"ghost":{"command":"/nonexistent/ghost-mcp"},"off":{"command":%q,"enabled":false}`, mcpServer, mcpServer))
	o := sb.run(cli{args: []string{"mcp", "list", "--json"}})
	o.want(t, 0)
	var out struct {
		Servers []struct {
			Name, Scope, Transport, Status, Error string
			Tools                                 []string
		} `json:"servers"`
	}
	if err := json.Unmarshal([]byte(o.stdout), &out); err != nil {
		t.Fatalf("mcp list --json: %v\n%s", err, o.stdout)
	}
	got := map[string]string{}
	for _, s := range out.Servers {
		got[s.Name] = s.Status
		switch s.Name {
		case "calc":
			if s.Scope != "project" || s.Transport != "stdio" || !strings.Contains(strings.Join(s.Tools, " "), "mcp__calc__get-sum") {
				t.Errorf("calc: got %+v, want project, stdio, with mcp__calc__get-sum", s)
			}
		case "ghost":
			if !strings.Contains(s.Error, "/nonexistent/ghost-mcp") {
				t.Errorf("ghost: error %q, want the command that failed", s.Error)
			}
		}
	}
	if want := map[string]string{"calc": "ready", "ghost": "failed", "off": "disabled"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("statuses: got %v, want %v", got, want)
	}
}

// TestE2EMCPHiddenToolsAndOldRuleNames: a tool disabled_tools names is not
// in the request's tool list; a deny rule written with the old name
// (calc_get-sum) still refuses mcp__calc__get-sum, with one warning.
func TestE2EMCPHiddenToolsAndOldRuleNames(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q,"disabled_tools":["fail","crash"]}`, mcpServer))
	sb.write(".llmrt/config.json", `{"deny":["calc_get-sum"]}`)
	sb.trust()
	srv := fake(t, fakellm.OpenAI, toolCall("mcp__calc__get-sum", `{"a":2,"b":3}`), finalAnswer("done"))
	o := openaiRun(sb, srv, "--permission", "auto", "-p", "add")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d model calls, want 2\nstderr: %s", len(reqs), o.stderr)
	}
	first := string(reqs[0].Body)
	if !strings.Contains(first, "mcp__calc__get-sum") || strings.Contains(first, "mcp__calc__fail") || strings.Contains(first, "mcp__calc__crash") {
		t.Errorf("tools offered: want get-sum and neither fail nor crash: %.3000s", first)
	}
	if strings.Contains(string(reqs[1].Body), "The sum of 2 and 3") {
		t.Errorf("the old-named deny rule did not refuse the call: %.2000s", reqs[1].Body)
	}
	if n := strings.Count(o.stderr, "old way"); n != 1 || !strings.Contains(o.stderr, "mcp__calc__get-sum") {
		t.Errorf("stderr: %d warnings about the old name, want 1 naming mcp__calc__get-sum:\n%s", n, o.stderr)
	}
}

// TestE2EMCPServerComesBack: through llmrt run, a server that crashes in
// a call gives the model its exit status and stderr tail (its token
// redacted), and the next call is answered by the server started again,
// said once on stderr (a warning, shown without a terminal too).
func TestE2EMCPServerComesBack(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q,"env":{"MCPTEST_TOKEN":"tok-e2e-5ecret"}}`, mcpServer))
	srv := fake(t, fakellm.OpenAI, toolCall("mcp__calc__crash", `{}`), toolCall("mcp__calc__get-sum", `{"a":2,"b":3}`), finalAnswer("five"))
	o := openaiRun(sb, srv, "--permission", "auto", "-p", "add")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("got %d model calls, want 3\nstderr: %s", len(reqs), o.stderr)
	}
	crash := string(reqs[1].Body)
	if !strings.Contains(crash, "exit status 3") || !strings.Contains(crash, "out of widgets") || strings.Contains(crash, "tok-e2e-5ecret") {
		t.Errorf("after the crash the model should get the exit status and stderr, token redacted: %.3000s", crash)
	}
	if !strings.Contains(string(reqs[2].Body), "The sum of 2 and 3 is 5.") {
		t.Errorf("the call after the crash should be answered: %.3000s", reqs[2].Body)
	}
	if n := strings.Count(o.stderr, "restarting calc"); n != 1 {
		t.Errorf("stderr: %d restart notices, want 1:\n%s", n, o.stderr)
	}
}

// TestE2EMCPStubbornServersExitFast: llmrt run ends after its answer
// when two servers ignore SIGTERM, and the servers are stopped side by
// side: each notes when SIGTERM came, and the second came well inside the
// first's grace (one after the other, they would be a whole grace apart).
// The time taken is logged, not asserted.
func TestE2EMCPStubbornServersExitFast(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	pidA, pidB := filepath.Join(sb.home, "a.pid"), filepath.Join(sb.home, "b.pid")
	termA, termB := filepath.Join(sb.home, "a.term"), filepath.Join(sb.home, "b.term")
	server := func(name, pid, term string) string {
		return fmt.Sprintf(`%q:{"command":%q,"env":{"MCPTEST_IGNORE_TERM":"1","MCPTEST_PIDFILE":%q,"MCPTEST_TERMFILE":%q}}`, name, mcpServer, pid, term)
	}
	sb.mcpConfig(server("a", pidA, termA) + "," + server("b", pidB, termB))
	srv := fake(t, fakellm.OpenAI, finalAnswer("done"))
	release := srv.Hold(1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := sb.command(ctx, cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "--permission", "auto", "-p", "go"}, env: map[string]string{"OPENAI_API_KEY": "sk-test"}})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPIDs(t, pidA, pidB)
	deadline := time.Now().Add(90 * time.Second)
	for len(srv.Requests()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no model call: the servers did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	release()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("llmrt run: %v", err)
	}
	t.Logf("llmrt run exited %s after its answer with two servers ignoring SIGTERM", time.Since(start).Round(time.Millisecond))
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("server %d survived", pid)
		}
	}
	at := func(f string) time.Time {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("a server never got SIGTERM: %v", err)
		}
		ns, _ := strconv.ParseInt(string(b), 10, 64)
		return time.Unix(0, ns)
	}
	gap := at(termA).Sub(at(termB)).Abs()
	t.Logf("the servers got SIGTERM %s apart", gap)
	if gap >= time.Second {
		t.Errorf("the servers got SIGTERM %s apart: stopped one after the other, not side by side", gap)
	}
}

// TestE2EMCPFilesystemServesNotes: the README's example, the reference
// filesystem server given ~/notes, serves ~/notes to a run in another
// directory (it is told of no roots, which would replace its directory).
func TestE2EMCPFilesystemServesNotes(t *testing.T) {
	t.Parallel()
	npmDir := ciNPM(t)
	if npmDir == "" {
		t.Skip("the pinned npm MCP servers are not installed; run .ci/run (npm ci in .ci/npm)")
	}
	sb := newSandbox(t)
	notes := filepath.Join(sb.home, "notes")
	writeAbs(t, filepath.Join(notes, "todo.txt"), "buy milk")
	node := filepath.Join(npmDir, "node_modules", ".bin", "node")
	entry := filepath.Join(npmDir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
	sb.mcpConfig(fmt.Sprintf(`"notes":{"command":%q,"args":[%q,%q],"timeout":60}`, node, entry, notes))
	srv := fake(t, fakellm.OpenAI, toolCall("mcp__notes__read_text_file", fmt.Sprintf(`{"path":%q}`, filepath.Join(notes, "todo.txt"))), finalAnswer("milk"))
	o := openaiRun(sb, srv, "--permission", "auto", "-p", "what is on my list?")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "buy milk") {
		t.Fatalf("the model should get the note from ~/notes; got %d calls, last: %.2000s\nstderr: %s", len(reqs), reqs[len(reqs)-1].Body, o.stderr)
	}
}
