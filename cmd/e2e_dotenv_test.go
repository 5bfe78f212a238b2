package cmd_test

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	ossandbox "github.com/llmrt/llmrt/tools/sandbox"
)

// TestConfinedCommandsCannotReadDotenv: the .env llmrt reads keys from is
// hidden from confined commands, for root and for every other user: cat,
// rev and base64 give the model nothing of it, and read_file still
// redacts its values.
func TestConfinedCommandsCannotReadDotenv(t *testing.T) {
	t.Parallel()
	if err := ossandbox.Available(); err != nil {
		t.Skipf("this kernel cannot confine commands: %v", err)
	}
	const secret = "sk-dotenv-hidden-0123456789"
	line := "SERVICE_TOKEN=" + secret
	rev := []rune(line)
	slices.Reverse(rev)
	leaks := []string{secret, string(rev), base64.StdEncoding.EncodeToString([]byte(line + "\n"))[:20]}
	for name, cred := range users(t) {
		t.Run(name, func(t *testing.T) {
			sb := newSandbox(t)
			openTo(t, cred, sb.home, sb.work)
			sb.write(".env", line+"\n")
			srv := fake(t, fakellm.OpenAI,
				shellTurn("cat .env; rev .env; base64 .env; echo listed; ls -a"),
				toolCall("read_file", `{"path":".env"}`),
				finalAnswer("done"))
			o := runAs(t, sb, cred, srv, "--permission", "auto", "-p", "look")
			o.want(t, 0)
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("got %d requests, want 3\n%s", len(reqs), o.stderr)
			}
			shell, read := string(reqs[1].Body), string(reqs[2].Body)
			if !strings.Contains(shell, "listed") || !strings.Contains(shell, ".env") {
				t.Errorf("the command should run and list the file: %s", shell)
			}
			if !strings.Contains(read, "SERVICE_TOKEN=[REDACTED]") {
				t.Errorf("read_file should show the file with its value redacted: %s", read)
			}
			for _, leak := range leaks {
				if strings.Contains(shell, leak) || strings.Contains(read, leak) {
					t.Errorf("the model saw %q", leak)
				}
			}
		})
	}
}
