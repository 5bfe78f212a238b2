package cmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// TestWorkspaceEscapeFromOutside: a model that asks to write ../escape.txt
// writes nothing outside the workspace and gets the refusal.
func TestWorkspaceEscapeFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	outside := filepath.Join(filepath.Dir(sb.work), "escape.txt")
	os.Remove(outside)
	srv := fake(t, fakellm.OpenAI, toolCall("write_file", `{"path":"../escape.txt","content":"gotcha"}`), finalAnswer("ok"))
	o := openaiRun(sb, srv, "--permission", "auto", "-p", "write it")
	o.want(t, 0)
	if _, err := os.Stat(outside); err == nil {
		os.Remove(outside)
		t.Fatal("a file was written outside the workspace")
	}
	if body := string(srv.Requests()[1].Body); !strings.Contains(body, "outside the workspace") {
		t.Errorf("the model should get the refusal: %s", body)
	}
}

// TestPermissionModesFromOutside checks read mode and the non-terminal ask
// mode through the binary.
func TestPermissionModesFromOutside(t *testing.T) {
	t.Parallel()
	t.Run("read mode stops every mutating call, shell included", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI,
			scripted.Turn{ToolCalls: []scripted.Call{
				toolCall("write_file", `{"path":"a.txt","content":"x"}`).ToolCalls[0],
				toolCall("shell_cmd", `{"command":"touch shell-was-here"}`).ToolCalls[0],
				toolCall("create_directory", `{"path":"d"}`).ToolCalls[0],
			}},
			finalAnswer("nothing changed"))
		o := openaiRun(sb, srv, "--permission", "read", "--allow", "shell_cmd", "-p", "change things")
		o.want(t, 0)
		for _, p := range []string{"a.txt", "shell-was-here", "d"} {
			if _, err := os.Stat(filepath.Join(sb.work, p)); err == nil {
				t.Errorf("%s exists: read mode must refuse every mutating call", p)
			}
		}
		if n := strings.Count(string(srv.Requests()[1].Body), "read-only"); n != 3 {
			t.Errorf("the model should see 3 refusals, saw %d", n)
		}
	})
	t.Run("ask mode without a terminal denies writes unless a rule allows them", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		write := toolCall("write_file", `{"path":"out/report.txt","content":"done\n"}`)
		srv := fake(t, fakellm.OpenAI, write, finalAnswer("could not write"))
		o := openaiRun(sb, srv, "-p", "write the report")
		o.want(t, 0)
		if _, err := os.Stat(filepath.Join(sb.work, "out", "report.txt")); err == nil {
			t.Fatal("the write should have been denied")
		}
		if !contains(o.stderr, "--allow 'write_file(path=out/**)'") {
			t.Errorf("stderr should name the rule that would allow the write:\n%s", o.stderr)
		}
		srv = fake(t, fakellm.OpenAI, write, finalAnswer("written"))
		o = openaiRun(sb, srv, "--allow", "write_file(path=out/**)", "-p", "write the report")
		o.want(t, 0)
		if data, err := os.ReadFile(filepath.Join(sb.work, "out", "report.txt")); err != nil || string(data) != "done\n" {
			t.Errorf("with the rule the write should happen: %v %q", err, data)
		}
	})
}

// TestShellTimeoutFromOutside: shell_cmd with timeout_ms 1000 on sleep 30
// returns within seconds and leaves no process behind.
func TestShellTimeoutFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	// A unique duration marks this test's sleepers; a backgrounded one
	// must die with the group too.
	marker := "sleep " + uniqueMark()
	cmdline := marker + " & " + marker
	srv := fake(t, fakellm.OpenAI, toolCall("shell_cmd", `{"command":"`+cmdline+`","timeout_ms":1000}`), finalAnswer("it timed out"))
	o := openaiRun(sb, srv, "--permission", "auto", "-p", "sleep")
	o.want(t, 0)
	// The sleepers would run for years: a run that ends at all ended by
	// the timeout. The bound is loose because a loaded CI machine takes
	// seconds to start the binary and the confined command (10 s was
	// seen); alone it takes about 2 s.
	if o.took > 45*time.Second {
		t.Errorf("took %s, want the 1 s timeout to end the command", o.took)
	}
	if body := string(srv.Requests()[1].Body); !strings.Contains(body, `timed_out\":true`) {
		t.Errorf("the result should say it timed out: %s", body)
	}
	waitGone(t, marker)
}
