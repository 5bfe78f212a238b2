package cmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestShellRulesFromOutside: a rule for one command does not allow a line
// that runs another after it, and a deny rule holds against a later
// command of a line, a wrapped one, and a line whose program it cannot
// know before it runs (`llmrt tools call`, no terminal).
func TestShellRulesFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	call := func(command string, flags ...string) outcome {
		args := append([]string{"tools", "call", "shell_cmd", "--args", `{"command":` + quoteJSON(command) + `}`}, flags...)
		return sb.run(cli{args: args})
	}
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(sb.work, name))
		return err == nil
	}
	goTest := []string{"--permission", "ask", "--allow", "shell_cmd(command=go test *)"}
	o := call("go test ./... ; touch x", goTest...)
	if o.code == 0 || exists("x") {
		t.Fatalf("go test ./... ; touch x under --allow 'shell_cmd(command=go test *)': exit %d, x exists %v, want refused\nstderr: %s", o.code, exists("x"), o.stderr)
	}
	if !contains(o.stderr, "needs approval") {
		t.Errorf("stderr should say the call needs approval:\n%s", o.stderr)
	}
	if !contains(o.stderr, "shell_cmd(command=go test ./... ; touch x)") {
		t.Errorf("the suggested rule should be the exact line, not a program pattern:\n%s", o.stderr)
	}
	// The same rule still allows what it names.
	o = call("echo ok", "--permission", "ask", "--allow", "shell_cmd(command=echo *)")
	if o.code != 0 || !contains(o.stdout, "ok") {
		t.Errorf("echo ok under --allow 'shell_cmd(command=echo *)': exit %d, stdout %q, stderr %q", o.code, o.stdout, o.stderr)
	}

	sb.write("victim.txt", "keep me")
	for _, line := range []string{"true && rm victim.txt", "sudo rm victim.txt", "sh -c 'rm victim.txt'",
		"flock /tmp/lock rm victim.txt", "trap 'rm victim.txt' EXIT", "su -c 'rm victim.txt'", "x=rm; $x victim.txt", "/bin/r? victim.txt"} {
		o = call(line, "--permission", "auto", "--deny", "shell_cmd(command=rm *)")
		if o.code == 0 || !exists("victim.txt") || !contains(o.stderr, "deny shell_cmd(command=rm *)") {
			t.Errorf("%q under --deny 'shell_cmd(command=rm *)': exit %d, victim exists %v, stderr %q", line, o.code, exists("victim.txt"), o.stderr)
		}
	}
}

// TestMisspeltRuleFromOutside: a rule naming no tool of the run is a
// warning, and an error under --strict.
func TestMisspeltRuleFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	args := []string{"tools", "call", "shell_cmd", "--args", `{"command":"echo ok"}`, "--permission", "auto", "--allow", "shel_cmd(command=echo *)"}
	o := sb.run(cli{args: args})
	if o.code != 0 || !contains(o.stderr, "did you mean shell_cmd?") {
		t.Errorf("misspelt rule: exit %d, stderr %q, want a warning naming shell_cmd", o.code, o.stderr)
	}
	o = sb.run(cli{args: append(args, "--strict")})
	if o.code != 2 || !contains(o.stderr, "shel_cmd") {
		t.Errorf("misspelt rule with --strict: exit %d, stderr %q, want exit 2 naming the rule", o.code, o.stderr)
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
