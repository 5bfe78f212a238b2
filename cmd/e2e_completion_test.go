package cmd_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestShellCompletionOfValues: completion offers the values of flags and
// arguments, not only flag names.
func TestShellCompletionOfValues(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("hi"))
	openaiRun(sb, srv, "-p", "a session to complete").want(t, 0)
	id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--provider", ""}, []string{"openai\n", "anthropic\n", "ollama\n", "scripted\n"}},
		{[]string{"run", "--permission", ""}, []string{"ask\n", "auto\n", "read\n"}},
		{[]string{"run", "--api", ""}, []string{"responses\n", "chat\n"}},
		{[]string{"run", "-o", ""}, []string{"stream-json\n"}},
		{[]string{"run", "--sandbox", ""}, []string{"workspace-write\n"}},
		{[]string{"run", "--tools", "read_file,"}, []string{"read_file,shell_cmd\n", "read_file,run_code\n"}},
		{[]string{"run", "--resume", ""}, []string{id + "\ta session to complete"}},
		{[]string{"sessions", "show", ""}, []string{id + "\t"}},
		{[]string{"tools", "call", ""}, []string{"read_file\n", "spawn_agent\n"}},
	}
	for _, c := range cases {
		o := sb.run(cli{args: append([]string{"__complete"}, c.args...)})
		o.want(t, 0)
		for _, w := range c.want {
			if !strings.Contains(o.stdout, w) {
				t.Errorf("completing %q should offer %q, got:\n%s", c.args, w, o.stdout)
			}
		}
	}
}
