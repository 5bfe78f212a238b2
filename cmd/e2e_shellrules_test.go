package cmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// rulesRun has the model make one call and then answer, under the rule
// flags given, with the sandbox off so that only the rules stand between
// the call and the workspace. It returns what the model heard back.
func rulesRun(t *testing.T, sb *sandbox, call scripted.Turn, flags ...string) string {
	t.Helper()
	srv := fake(t, fakellm.OpenAI, call, finalAnswer("done"))
	o := openaiRun(sb, srv, append([]string{"--sandbox", "off", "--no-session", "-p", "go"}, flags...)...)
	o.want(t, 0)
	return lastRequestText(t, srv)
}

// TestShellRulesOneLanguage: the rule checker reads a line as the shell
// that runs it does, so `((...))`, which bash reads as arithmetic and sh
// as two subshells, cannot run a command a rule forbids or none allows.
func TestShellRulesOneLanguage(t *testing.T) {
	t.Parallel()
	denyRm := []string{"--permission", "auto", "--deny", "shell_cmd(command=rm *)"}
	for _, tc := range []struct{ victim, line string }{
		{"+v1", "((rm +v1))"},
		{"x", "((rm x))"},
		{"x", "((rm -rf * x))"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			sb.write(tc.victim, "keep me")
			rulesRun(t, sb, shellTurn(tc.line), denyRm...)
			if _, err := os.Stat(filepath.Join(sb.work, tc.victim)); err != nil {
				t.Errorf("%q under --deny 'shell_cmd(command=rm *)' removed %s", tc.line, tc.victim)
			}
		})
	}
	t.Run("allowed echo and cd", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		sb.write("keep/a.txt", "a")
		sb.write("keep/b.txt", "b")
		line := "echo hi; cd keep && ((rm -rf * x))"
		rulesRun(t, sb, shellTurn(line), "--permission", "ask",
			"--allow", "shell_cmd(command=echo *)", "--allow", "shell_cmd(command=cd *)")
		if left, _ := os.ReadDir(filepath.Join(sb.work, "keep")); len(left) != 2 {
			t.Errorf("%q with only echo and cd allowed left %d files of 2 in keep", line, len(left))
		}
	})
}

// TestShellRulesPipedScripts: a script a shell reads from its input, a
// descriptor or a here-document is "a script piped to a shell" in every
// spelling: under a deny rule in auto mode, with no one to ask, it is
// refused, and allow rules for the commands around it do not let it run.
func TestShellRulesPipedScripts(t *testing.T) {
	t.Parallel()
	lines := []string{
		". /dev/stdin <<EOF\nrm w\nEOF",
		"echo 'rm w' | . /dev/stdin",
		"sh 3<<EOF /dev/fd/3\nrm w\nEOF",
		"bash 3<<EOF /dev/fd/3\nrm w\nEOF",
		"bash <(echo rm w)",
		"source <(echo rm w)",
		"source /dev/fd/0 <<< 'rm w'",
		"echo 'rm w' | source /dev/stdin",
		"echo 'rm w' | bash /dev/stdin",
		"echo 'rm w' | bash /proc/self/fd/0",
		"exec 3<<EOF\nrm w\nEOF\n. /dev/fd/3",
		"echo 'rm w' | xargs -I{} sh -c {}",
		"echo 'rm w' | BASH_ENV=/dev/stdin bash -c true",
		"export BASH_ENV=/dev/stdin; echo 'rm w' | bash -c true",
		"x=/dev/stdin; echo 'rm w' | . $x",
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			sb.write("w", "keep me")
			heard := rulesRun(t, sb, shellTurn(line), "--permission", "auto", "--deny", "shell_cmd(command=rm *)")
			if _, err := os.Stat(filepath.Join(sb.work, "w")); err != nil {
				t.Errorf("%q under --deny 'shell_cmd(command=rm *)' removed w", line)
			}
			if !contains(heard, "permission denied") {
				t.Errorf("%q: the model should hear the call was refused: %.600s", line, heard)
			}
		})
	}
	t.Run("allowed echo and source", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		sb.write("w", "keep me")
		line := "echo 'rm w' | . /dev/stdin"
		rulesRun(t, sb, shellTurn(line), "--permission", "ask",
			"--allow", "shell_cmd(command=echo *)", "--allow", "shell_cmd(command=. *)", "--allow", "shell_cmd(command=source *)")
		if _, err := os.Stat(filepath.Join(sb.work, "w")); err != nil {
			t.Errorf("%q with echo and . allowed ran without asking", line)
		}
	})
}

// TestShellRulesValuesAsCode: bash runs the command substitutions in a
// value it evaluates as arithmetic or as a variable name, so a line that
// hands it such a value is not checked as plain text.
func TestShellRulesValuesAsCode(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"x='a[$(rm w)]'; echo $((x))",
		"printf -v 'a[$(rm w)]' 1",
		"PS4='$(rm w)'; set -x; true",
		"v=$(cat f); echo $((v))",
	} {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			sb.write("w", "keep me")
			sb.write("f", "a[$(rm w)]\n")
			rulesRun(t, sb, shellTurn(line), "--permission", "auto", "--deny", "shell_cmd(command=rm *)")
			if _, err := os.Stat(filepath.Join(sb.work, "w")); err != nil {
				t.Errorf("%q under --deny 'shell_cmd(command=rm *)' removed w", line)
			}
		})
	}
}

// TestFileRulesRealPath: a file tool's rule matches the workspace-relative
// clean path of the file, however the model spelled it: absolute, with
// ./, //, x/.. or through a symlinked directory.
func TestFileRulesRealPath(t *testing.T) {
	t.Parallel()
	const secret = "the launch code is 4711"
	for _, spell := range []string{
		"{work}/secrets/s.txt",
		"{work}//secrets/./s.txt",
		"./secrets/s.txt",
		"secrets//s.txt",
		"x/../secrets/s.txt",
		"link/s.txt",
		"{work}/link/s.txt",
	} {
		t.Run(spell, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			sb.write("secrets/s.txt", secret+"\n")
			if err := os.Symlink("secrets", filepath.Join(sb.work, "link")); err != nil {
				t.Fatal(err)
			}
			p := strings.ReplaceAll(spell, "{work}", sb.work)
			args, _ := json.Marshal(map[string]string{"path": p})
			heard := rulesRun(t, sb, toolCall("read_file", string(args)), "--permission", "auto", "--deny", "read_file(path=secrets/**)")
			if contains(heard, "launch code") {
				t.Errorf("read_file %s under --deny 'read_file(path=secrets/**)' returned the secret", p)
			}
			if !contains(heard, "permission denied") {
				t.Errorf("read_file %s: the model should hear the rule refused it: %.600s", p, heard)
			}
		})
	}
	t.Run("allow rule on the real path", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		if err := os.MkdirAll(filepath.Join(sb.work, "out"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(sb.work, "protected"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../protected", filepath.Join(sb.work, "out", "link")); err != nil {
			t.Fatal(err)
		}
		rulesRun(t, sb, toolCall("write_file", `{"path":"out/link/x.txt","content":"pwned"}`),
			"--permission", "ask", "--allow", "write_file(path=out/**)")
		if _, err := os.Stat(filepath.Join(sb.work, "protected", "x.txt")); err == nil {
			t.Error("write_file out/link/x.txt under --allow 'write_file(path=out/**)' wrote protected/x.txt through the symlink")
		}
		// The rule still allows what it names, spelled absolute.
		p, _ := json.Marshal(map[string]string{"path": filepath.Join(sb.work, "out", "y.txt"), "content": "ok"})
		rulesRun(t, sb, toolCall("write_file", string(p)), "--permission", "ask", "--allow", "write_file(path=out/**)")
		if _, err := os.Stat(filepath.Join(sb.work, "out", "y.txt")); err != nil {
			t.Errorf("write_file %s under --allow 'write_file(path=out/**)' was not allowed: %v", filepath.Join(sb.work, "out", "y.txt"), err)
		}
	})
}
