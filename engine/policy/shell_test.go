package policy

import (
	"fmt"
	"strings"
	"testing"
)

// ruleVerdict decides a call by rules alone, as Decide does for a
// mutating call in ask mode: deny when a deny rule matches, allow when
// allow rules cover it, otherwise ask.
func ruleVerdict(rules []Rule, tool string, args map[string]any) string {
	switch o := (Policy{Mode: ModeAsk, Rules: rules}).Decide(Call{Tool: tool, Args: args, Mutating: true}).Outcome; o {
	case Denied:
		return "deny"
	case Allowed:
		return "allow"
	case Undecided:
		return "ask"
	default:
		return fmt.Sprintf("outcome %d", o)
	}
}

func parseRules(t *testing.T, specs string) []Rule {
	t.Helper()
	var rules []Rule
	for _, spec := range strings.Split(specs, " | ") {
		action, text, _ := strings.Cut(spec, " ")
		r, err := ParseRule(Action(action), text)
		if err != nil {
			t.Fatalf("rule %q: %v", spec, err)
		}
		rules = append(rules, r)
	}
	return rules
}

// TestShellRules runs command lines through allow and deny rules: a deny
// rule holds against any command in the line, an allow rule must cover
// every command, and a write to a file or an unknown program asks.
func TestShellRules(t *testing.T) {
	const (
		goTest  = "allow shell_cmd(command=go test *)"
		denyRm  = "deny shell_cmd(command=rm *)"
		echo    = "allow shell_cmd(command=echo *)"
		grep    = "allow shell_cmd(command=grep *)"
		goTestG = goTest + " | " + grep
	)
	cases := []struct {
		rules string
		cmd   string
		args  []any // exec form when set
		want  string
	}{
		// Allow rules cover every command or none.
		{goTest, "go test ./...", nil, "allow"},
		{goTest, "go test ./... ; touch pwned", nil, "ask"},
		{goTest, "go test ./... && touch pwned", nil, "ask"},
		{goTest, "go test ./... || touch pwned", nil, "ask"},
		{goTest, "go test ./...\ntouch pwned", nil, "ask"},
		{goTest, "go test ./... | tee log", nil, "ask"},
		{goTestG, "go test ./... | grep FAIL", nil, "allow"},
		{goTestG, "go test ./... 2>&1 | grep -v ok | grep FAIL", nil, "allow"},
		{goTest, "go test $(touch pwned)", nil, "ask"},
		{goTest, "go test `touch pwned`", nil, "ask"},
		{goTest, "go test <(touch pwned)", nil, "ask"},
		{goTest, "(go test ./...; touch pwned)", nil, "ask"},
		{goTest, "{ go test ./...; touch pwned; }", nil, "ask"},
		{goTest, "if go test ./...; then touch pwned; fi", nil, "ask"},
		{goTest, "go test ./... &", nil, "allow"},
		{goTest, "go test ./... # a comment", nil, "allow"},
		{"allow shell_cmd(command=go *)", "go vet ./... && go test ./...", nil, "allow"},
		// Redirections into files are writes; descriptors and /dev/null are not.
		{goTest, "go test ./... > out.txt", nil, "ask"},
		{goTest, "go test ./... >> out.txt", nil, "ask"},
		{goTest, "go test ./... &> out.txt", nil, "ask"},
		{goTest, "go test ./... &>> out.txt", nil, "ask"},
		{goTest, "go test ./... >| out.txt", nil, "ask"},
		{goTest, "go test ./... >& out.txt", nil, "ask"},
		{goTest, "go test ./... 3<> out.txt", nil, "ask"},
		{goTest, "go test ./... > $OUT", nil, "ask"},
		{goTest, "{ go test ./...; } > out.txt", nil, "ask"},
		{goTest, "go test ./... > /dev/null 2>&1", nil, "allow"},
		{goTest, "go test ./... 2>/dev/null", nil, "allow"},
		{goTest, "go test ./... >&2", nil, "allow"},
		{goTest, "go test ./... < input.txt", nil, "allow"},
		{goTest, "go test ./... <<< input", nil, "allow"},
		{echo, "echo hi", nil, "allow"},
		{echo, "echo \"$(touch pwned)\"", nil, "ask"},
		{echo, "echo ${X:-$(touch pwned)}", nil, "ask"},
		{echo, "echo $(( $(touch pwned) + 1 ))", nil, "ask"},
		{echo, "a=($(touch pwned)); echo $a", nil, "ask"},
		{echo, "[[ -n $(touch pwned) ]] && echo hi", nil, "ask"},
		{echo, "for x in $(touch pwned); do echo $x; done", nil, "ask"},
		{echo, "case $(touch pwned) in *) echo hi;; esac", nil, "ask"},
		{echo, "echo <<EOF\n$(touch pwned)\nEOF", nil, "ask"},
		{echo, "echo hi $HOME \"$USER\" 'x'", nil, "allow"},
		{echo, "echo hi > file", nil, "ask"},
		{echo, "echo 'a; rm x' \"b && c\"", nil, "allow"},
		{"allow shell_cmd", "echo hi > file", nil, "allow"},
		// Wrappers: harmless ones are seen through, ones that change
		// privileges or the environment need a rule of their own.
		{goTest, "timeout 60 go test ./...", nil, "allow"},
		{goTest, "nice -n 5 go test ./...", nil, "allow"},
		{goTest, "time go test ./...", nil, "allow"},
		{goTest, "timeout 60 touch pwned", nil, "ask"},
		{goTest, "sudo go test ./...", nil, "ask"},
		{goTest, "FOO=1 go test ./...", nil, "ask"},
		{goTest, "env FOO=1 go test ./...", nil, "ask"},
		{goTest, "PATH=.:$PATH; go test ./...", nil, "ask"},
		{goTest, "export PATH=.; go test ./...", nil, "ask"},
		{goTest, "bash -c 'go test ./...'", nil, "allow"},
		{goTest, "bash -c 'go test ./... && touch pwned'", nil, "ask"},
		{goTest, "bash -c \"$X\"", nil, "ask"},
		{"allow shell_cmd(command=bash *)", "bash -c \"$X\"", nil, "ask"},
		{"allow shell_cmd(command=[ *) | " + goTest, "[ -f go.mod ] && go test ./...", nil, "allow"},
		{"allow shell_cmd(command=ls *)", "ls *.go ~/src [ab]", nil, "allow"},
		{"allow shell_cmd(command=*)", "ls; ./[a]b", nil, "ask"},
		{"allow shell_cmd(command=*)", "~/bin/tool", nil, "ask"},
		// Unknown programs and unparseable lines are never allowed by a rule.
		{goTest, "$GO test ./...", nil, "ask"},
		{"allow shell_cmd(command=*)", "{rm,-rf,x}", nil, "ask"},
		{goTest, "go test ./... \"", nil, "ask"},
		{goTest, "go test ./... )", nil, "ask"},
		// An exact rule approves the line as written.
		{"allow shell_cmd(command=echo hi && rm -rf x)", "echo hi && rm -rf x", nil, "allow"},
		{"allow shell_cmd(command=git status)", "git status", nil, "allow"},
		{"allow shell_cmd(command=git status)", "git status; git push", nil, "ask"},
		// Deny rules hold against any command, however it is reached.
		{denyRm, "rm victim.txt", nil, "deny"},
		{denyRm, "true && rm victim.txt", nil, "deny"},
		{denyRm, "false || rm victim.txt", nil, "deny"},
		{denyRm, "echo hi; rm -rf x", nil, "deny"},
		{denyRm, "ls | rm x", nil, "deny"},
		{denyRm, "(rm x)", nil, "deny"},
		{denyRm, "echo $(rm x)", nil, "deny"},
		{denyRm, "echo `rm x`", nil, "deny"},
		{denyRm, "X=$(rm x)", nil, "deny"},
		{denyRm, "cat <(rm x)", nil, "deny"},
		{denyRm, "f() { rm x; }; f", nil, "deny"},
		{denyRm, "if true; then rm x; fi", nil, "deny"},
		{denyRm, "for f in a b; do rm $f; done", nil, "deny"},
		{denyRm, "while false; do rm x; done", nil, "deny"},
		{denyRm, "case a in a) rm x;; esac", nil, "deny"},
		{denyRm, "sudo rm -rf /", nil, "deny"},
		{denyRm, "sudo -u root -- rm x", nil, "deny"},
		{denyRm, "doas rm x", nil, "deny"},
		{denyRm, "env rm x", nil, "deny"},
		{denyRm, "env -i PATH=/bin FOO=1 rm x", nil, "deny"},
		{denyRm, "FOO=1 rm x", nil, "deny"},
		{denyRm, "timeout 5 rm x", nil, "deny"},
		{denyRm, "timeout -s KILL -k 1 5 rm x", nil, "deny"},
		{denyRm, "nice -n 10 rm x", nil, "deny"},
		{denyRm, "nice -10 rm x", nil, "deny"},
		{denyRm, "nohup rm x &", nil, "deny"},
		{denyRm, "xargs rm < list", nil, "deny"},
		{denyRm, "find . -name '*.o' -print0 | xargs -0 -n 1 rm -f", nil, "deny"},
		{denyRm, "xargs -I {} rm {}", nil, "deny"},
		{denyRm, "command rm x", nil, "deny"},
		{denyRm, "exec rm x", nil, "deny"},
		{denyRm, "time rm x", nil, "deny"},
		{denyRm, "stdbuf -o0 rm x", nil, "deny"},
		{denyRm, "/bin/rm x", nil, "deny"},
		{denyRm, `\rm x`, nil, "deny"},
		{denyRm, "'rm' x", nil, "deny"},
		{denyRm, `r""m x`, nil, "deny"},
		{denyRm, "rm 'a\nb'", nil, "deny"},
		{denyRm, "bash -c 'rm x'", nil, "deny"},
		{denyRm, "sh -c \"echo hi && rm x\"", nil, "deny"},
		{denyRm, "bash -lc 'rm x'", nil, "deny"},
		{denyRm, "bash -o pipefail -c 'rm x'", nil, "deny"},
		{denyRm, `bash -c 'bash -c "rm x"'`, nil, "deny"},
		{denyRm, "sudo sh -c 'rm x'", nil, "deny"},
		{denyRm, "eval 'rm x'", nil, "deny"},
		{denyRm, "sh <<'EOF'\nrm x\nEOF", nil, "deny"},
		{denyRm, "bash <<EOF\necho hi; rm x\nEOF", nil, "deny"},
		{"allow shell_cmd(command=sh *)", "echo 'rm x' | sh -s", nil, "ask"},
		{"allow shell_cmd(command=*)", "echo hi | sh", nil, "ask"},
		{"allow shell_cmd(command=*)", "echo hi > f", nil, "ask"},
		{"allow shell_cmd(command=*)", "echo hi | tee f", nil, "allow"},
		{"allow shell_cmd(command=bash *)", "bash build.sh", nil, "allow"},
		{denyRm, "eval rm x", nil, "deny"},
		{denyRm, `find . -exec rm {} \;`, nil, "deny"},
		{denyRm, "find . -execdir rm {} +", nil, "deny"},
		{denyRm, "timeout $T rm x", nil, "deny"},
		{denyRm, "sudo $OPTS rm x", nil, "deny"},
		{denyRm, "$SUDO rm x", nil, "deny"},
		{denyRm, "env -S 'rm x'", nil, "deny"},
		{denyRm, "rm x; \"", nil, "deny"},
		{denyRm, "echo a\nrm x\n(", nil, "deny"},
		{denyRm, "bash -c 'rm x; \"'", nil, "deny"},
		{denyRm, "echo 'rm x'", nil, "ask"},
		{denyRm + " | " + echo, "echo 'rm x'", nil, "allow"},
		{"deny shell_cmd(command=git push *)", "git status && git push origin main", nil, "deny"},
		{"deny shell_cmd(command=*rm -rf*)", "echo; rm -rf x", nil, "deny"},
		// Exec form: one command, no shell, the same wrappers.
		{goTest, "go", []any{"test", "./..."}, "allow"},
		{goTest, "go", []any{"test", "; touch pwned"}, "allow"},
		{goTest, "go", []any{"build"}, "ask"},
		{goTest, "sudo", []any{"go", "test", "./..."}, "ask"},
		{denyRm, "rm", []any{"x"}, "deny"},
		{denyRm, "sudo", []any{"rm", "x"}, "deny"},
		{denyRm, "bash", []any{"-c", "rm x"}, "deny"},
		{denyRm, "/usr/bin/env", []any{"rm", "x"}, "deny"},
	}
	for _, tc := range cases {
		args := map[string]any{"command": tc.cmd}
		if tc.args != nil {
			args["args"] = tc.args
		}
		if got := ruleVerdict(parseRules(t, tc.rules), "shell_cmd", args); got != tc.want {
			t.Errorf("rules %q, command %q %v: got %s, want %s", tc.rules, tc.cmd, tc.args, got, tc.want)
		}
	}
}

// TestShellRulesAllowOnceAndOtherParams: every rule a line used is
// reported (allow_once rules get used up), and other parameters of a rule
// still have to match.
func TestShellRulesOtherParams(t *testing.T) {
	rules := parseRules(t, "allow shell_cmd(command=go test *, directory=sub) | allow shell_cmd(command=grep *)")
	args := map[string]any{"command": "go test ./... | grep FAIL", "directory": "sub"}
	ok, used := allowedBy(rules, nil, newCallView("shell_cmd", args))
	if !ok || len(used) != 2 {
		t.Errorf("in sub: got %v using %v, want allowed by both rules", ok, used)
	}
	args["directory"] = "other"
	if ok, _ := allowedBy(rules, nil, newCallView("shell_cmd", args)); ok {
		t.Errorf("in other: got allowed, want not (the go test rule is for sub)")
	}
	if ok, _ := allowedBy(rules, func(i int) bool { return i == 1 }, newCallView("shell_cmd", map[string]any{"command": "go test . | grep x", "directory": "sub"})); ok {
		t.Errorf("with the grep rule used up: got allowed, want not")
	}
}

func TestSuggestCommandRule(t *testing.T) {
	cases := []struct {
		cmd  string
		args []any
		want string
	}{
		{"go test ./...", nil, "go test *"},
		{"git push --force origin main", nil, "git push *"},
		{"npm run build", nil, "npm run *"},
		{"git -C sub status", nil, "git *"},
		{"ls -la", nil, "ls *"},
		{"echo hello world", nil, "echo *"},
		{"make", nil, "make"},
		{"echo hi && rm -rf x", nil, "echo hi && rm -rf x"},
		{"go test ./... ; touch pwned", nil, "go test ./... ; touch pwned"},
		{"echo hi > out.txt", nil, "echo hi > out.txt"},
		{"FOO=1 make", nil, "FOO=1 make"},
		{"sudo apt install x", nil, "sudo apt install x"},
		{"$EDITOR notes", nil, "$EDITOR notes"},
		{"go test $(ls)", nil, "go test $(ls)"},
		{"timeout 60 go test ./...", nil, "go test *"},
		{"  cargo build  ", nil, "cargo build *"},
		{"go", []any{"vet", "./..."}, "go vet *"},
	}
	for _, tc := range cases {
		args := map[string]any{"command": tc.cmd}
		if tc.args != nil {
			args["args"] = tc.args
		}
		got := Suggest("shell_cmd", args)
		if got.Params["command"] != tc.want {
			t.Errorf("Suggest(%q %v): got %s, want command=%s", tc.cmd, tc.args, got, tc.want)
		}
		// The suggestion allows the call it was made for.
		if ok, _ := allowedBy([]Rule{got}, nil, newCallView("shell_cmd", args)); !ok {
			t.Errorf("Suggest(%q %v) = %s does not allow the call", tc.cmd, tc.args, got)
		}
	}
}
