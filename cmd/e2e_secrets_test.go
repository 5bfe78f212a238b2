package cmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestKnownSecretsAreRedactedForTheModel: the values llmrt knows to be
// secret — provider keys and other secret-looking variables from .env,
// MCP header values (the token of "Bearer TOKEN" too) and MCP env values —
// reach neither the model nor the session, the trace or stderr when a
// tool prints them (here, reading the files that hold them; a confined
// cat reads the .env as empty).
func TestKnownSecretsAreRedactedForTheModel(t *testing.T) {
	t.Parallel()
	secrets := []string{"sk-dotenv-secret-123456", "svc-token-abcdef12", "hdr-secret-98765432", "env-secret-ABCDEFGH"}
	sb := newSandbox(t)
	sb.write(".env", "OPENAI_API_KEY="+secrets[0]+"\nSERVICE_TOKEN="+secrets[1]+"\n")
	sb.write(".mcp.json", `{"mcpServers":{
		"docs":{"url":"http://127.0.0.1:1/mcp","headers":{"Authorization":"Bearer `+secrets[2]+`"}},
		"local":{"command":"/nonexistent/server","env":{"API_SECRET":"`+secrets[3]+`"}}}}`)
	sb.trust()
	srv := fake(t, fakellm.OpenAI,
		toolCall("read_file", `{"path":".env"}`),
		toolCall("read_file", `{"path":".mcp.json"}`),
		shellTurn("cat .env .mcp.json"),
		finalAnswer("done"))
	trace := filepath.Join(sb.home, "trace.jsonl")
	o := sb.run(cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m",
		"--permission", "auto", "--verbose", "--trace", trace, "-p", "read the config"}})
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("got %d requests, want 4\n%s", len(reqs), o.stderr)
	}
	last := string(reqs[3].Body)
	if strings.Count(last, "[REDACTED]") < 2*len(secrets)-2 {
		t.Errorf("the model should see each value redacted by read_file, and those of .mcp.json by cat too:\n%s", last)
	}
	places := map[string]string{"stderr": o.stderr, "stdout": o.stdout}
	for i, r := range reqs {
		places["request "+string(rune('1'+i))] = string(r.Body)
	}
	for _, f := range append(sb.sessions(), trace) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		places[filepath.Base(f)] = string(b)
	}
	for where, text := range places {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s holds %q", where, s)
			}
		}
	}
}
