package cmd_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestSecretsNeverReachTheModel: a command the model composes sees no
// provider key and no variable that looks like a secret, neither in its
// own environment nor in llmrt's (/proc/$PPID/environ), and the key's
// value is in no request, session, trace or stderr byte.
func TestSecretsNeverReachTheModel(t *testing.T) {
	t.Parallel()
	const key, token = "sk-e2e-secret-value-0123456789", "ghp-e2e-token-value-987"
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, shellTurn("echo key=$OPENAI_API_KEY; env; echo PARENT; tr '\\0' '\\n' < /proc/$PPID/environ"), finalAnswer("done"))
	trace := filepath.Join(sb.home, "trace.jsonl")
	o := sb.run(cli{
		args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m",
			"--permission", "auto", "--trace", trace, "--verbose", "-p", "show me"},
		env: map[string]string{"OPENAI_API_KEY": key, "GITHUB_TOKEN": token, "VISIBLE_VAR": "seen"},
	})
	o.want(t, 0)
	reqs := srv.Requests()
	_, result, _ := strings.Cut(string(reqs[len(reqs)-1].Body), `"type":"function_call_output"`)
	own, parent, _ := strings.Cut(result, "PARENT")
	// llmrt's own environment is either readable with its secrets blanked
	// or, where the sandbox drops the command's capabilities, not
	// readable at all.
	readable, refused := strings.Contains(parent, "VISIBLE_VAR=seen"), strings.Contains(parent, "Permission denied")
	if !strings.Contains(own, "VISIBLE_VAR=seen") || !strings.Contains(own, `key=\\n`) || !readable && !refused {
		t.Fatalf("the command should run with the other variables and an empty key, and llmrt's should be blanked or refused: %s", result)
	}
	for _, leak := range []string{key, token, "GITHUB_TOKEN", "OPENAI_API_KEY"} {
		if strings.Contains(own, leak) {
			t.Errorf("the model saw %q in the command's environment", leak)
		}
	}
	for _, leak := range []string{key, token} {
		if strings.Contains(parent, leak) {
			t.Errorf("the model saw %q in llmrt's environment", leak)
		}
	}
	files := append(sb.sessions(), trace)
	if len(files) < 2 {
		t.Fatalf("want a session and a trace, got %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(key)) || bytes.Contains(b, []byte(token)) {
			t.Errorf("%s holds a secret value", filepath.Base(f))
		}
	}
	if strings.Contains(o.stderr, key) || strings.Contains(o.stdout, key) {
		t.Errorf("the key reached the terminal:\n%s", o.stderr)
	}
}

// TestShellEnvPassesNamedVariables: shell_env in the project config lets a
// named variable through (its value is still kept from the model), and a
// malformed shell_env is a clear error.
func TestShellEnvPassesNamedVariables(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write(".llmrt/config.json", `{"shell_env": {"pass": ["GITHUB_TOKEN"], "set": {"CI": "1"}}}`)
	sb.trust()
	srv := fake(t, fakellm.OpenAI, shellTurn(`test "$GITHUB_TOKEN" = passed-through && echo tok=ok ci=$CI; echo $GITHUB_TOKEN`), finalAnswer("done"))
	o := sb.run(cli{
		args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "--permission", "auto", "-p", "x"},
		env:  map[string]string{"OPENAI_API_KEY": "k", "GITHUB_TOKEN": "passed-through"},
	})
	o.want(t, 0)
	if reqs := srv.Requests(); !contains(string(reqs[len(reqs)-1].Body), `tok=ok ci=1\\n[REDACTED]`) {
		t.Errorf("shell_env should pass GITHUB_TOKEN and set CI, and the model not see the token: %s", reqs[len(reqs)-1].Body)
	}
	sb.write(".llmrt/config.json", `{"shell_env": {"inherit": "some"}}`)
	sb.trust()
	o = sb.run(cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "-p", "x"},
		env: map[string]string{"OPENAI_API_KEY": "k"}})
	if o.code != 2 || !strings.Contains(o.stderr, "shell_env") || !strings.Contains(o.stderr, "all, core or none") {
		t.Errorf("a bad shell_env should be a usage error naming it, got %d: %s", o.code, o.stderr)
	}
}

// running lists the live processes whose command line contains s.
func running(s string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := bytes.LastIndexByte(stat, ')'); i < 0 || bytes.HasPrefix(bytes.TrimSpace(stat[i+1:]), []byte("Z")) {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if strings.Contains(strings.ReplaceAll(string(cmdline), "\x00", " "), s) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func killAll(pids []int) {
	for _, p := range pids {
		syscall.Kill(p, syscall.SIGKILL)
	}
}

// TestNoProcessOutlivesACall: background jobs, nohup and setsid children,
// with the call's marker in their environment or without it, are gone
// once shell_cmd returns (a second call looks for them), and once llmrt is
// stopped mid-call.
func TestNoProcessOutlivesACall(t *testing.T) {
	t.Parallel()
	lines := []string{
		"sleep %s &",
		"nohup sleep %s >/dev/null 2>&1 &",
		"setsid sleep %s >/dev/null 2>&1 &",
		"env -i setsid sleep %s >/dev/null 2>&1 & sleep 0.3;",
		"unset LLMRT_CALL; setsid sleep %s >/dev/null 2>&1 & sleep 0.3;",
		"env -i bash -c 'set -m; sleep %s >/dev/null 2>&1 &';",
		"(env -i setsid sleep %s >/dev/null 2>&1 &); sleep 0.3;",
	}
	for _, line := range lines {
		t.Run(strings.ReplaceAll(line, "%s", "N"), func(t *testing.T) {
			t.Parallel()
			secs := uniqueMark()
			command := strings.ReplaceAll(line, "%s", secs)
			sb := newSandbox(t)
			look := "pgrep -f 'slee[p] " + secs + "' || echo none-left"
			srv := fake(t, fakellm.OpenAI, shellTurn(command+" echo started"), shellTurn(look), finalAnswer("done"))
			sandboxRun(t, sb, srv, "--permission", "auto", "-p", "x").want(t, 0)
			if left := running("sleep " + secs); len(left) > 0 {
				killAll(left)
				t.Fatalf("%q left %v running", command, left)
			}
			reqs := srv.Requests()
			if !contains(string(reqs[1].Body), "stopped when it returned") {
				t.Errorf("the model should be told its background process was stopped")
			}
			body := string(reqs[2].Body)
			if result := body[strings.LastIndex(body, `"type":"function_call_output"`):]; !contains(result, `none-left\\n`) {
				t.Errorf("%q: the next call still found the process: %s", command, result)
			}
		})
	}
	t.Run("SIGTERM mid-call", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		mark := "sleep " + uniqueMark()
		srv := fake(t, fakellm.OpenAI, shellTurn("setsid "+mark+" >/dev/null 2>&1 & nohup "+mark+" >/dev/null 2>&1 & "+mark), finalAnswer("done"))
		cmd := sb.command(context.Background(), cli{
			args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "--permission", "auto", "-p", "x"},
			env:  map[string]string{"OPENAI_API_KEY": "k"},
		})
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { killAll(running(mark)) }()
		waitRunning(t, mark, 3)
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
				t.Errorf("SIGTERM should end the run with exit 130, got %v", err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatal("llmrt did not exit after SIGTERM")
		}
		if left := running(mark); len(left) > 0 {
			t.Errorf("processes survived llmrt: %v", left)
		}
	})
}

// TestSpecialFilesDoNotBlock: a named pipe in the workspace neither blocks
// read_file, search_files and list_files nor stops SIGTERM working.
func TestSpecialFilesDoNotBlock(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write("a.txt", "needle\n")
	if err := syscall.Mkfifo(filepath.Join(sb.work, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI,
		toolCall("read_file", `{"path":"fifo"}`),
		toolCall("search_files", `{"content":"needle"}`),
		toolCall("list_files", `{}`),
		finalAnswer("done"))
	o := sandboxRun(t, sb, srv, "--permission", "auto", "-p", "x")
	o.want(t, 0)
	if o.took > 20*time.Second {
		t.Errorf("took %s", o.took)
	}
	reqs := srv.Requests()
	if !contains(string(reqs[1].Body), "named pipe") || !contains(string(reqs[2].Body), "a.txt") || !contains(string(reqs[3].Body), "fifo") {
		t.Errorf("read_file should refuse the pipe, search find a.txt, list show the pipe:\n%s\n%s\n%s", reqs[1].Body, reqs[2].Body, reqs[3].Body)
	}
}
