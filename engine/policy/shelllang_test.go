package policy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// autoVerdict decides a call as auto mode does: deny, allow, or
// "unchecked" when a deny rule cannot be checked against the line.
func autoVerdict(rules []Rule, command string) string {
	switch o := (Policy{Mode: ModeAuto, Rules: rules}).Decide(Call{Tool: "shell_cmd", Args: map[string]any{"command": command}, Mutating: true}).Outcome; o {
	case Denied:
		return "deny"
	case Allowed:
		return "allow"
	case Unchecked:
		return "unchecked"
	default:
		return "outcome " + string(rune('0'+o))
	}
}

// TestShellLanguageIsBash: lines are read as bash reads them, since bash
// runs them. `((...))` is arithmetic, as it is to bash, and a line bash
// would read otherwise than the checker does not parse (and so is never
// allowed by a command pattern and always seen by deny rules).
func TestShellLanguageIsBash(t *testing.T) {
	const (
		denyRm = "deny shell_cmd(command=rm *)"
		echoCd = "allow shell_cmd(command=echo *) | allow shell_cmd(command=cd *)"
	)
	cases := []struct {
		rules, cmd string
		ask, auto  string // ruleVerdict in ask mode, autoVerdict in auto mode
	}{
		// bash: arithmetic, which runs nothing.
		{denyRm, "((rm +v1))", "ask", "allow"},
		{denyRm, "((rm -rf * x))", "ask", "allow"},
		{echoCd, "echo hi; cd keep && ((rm -rf * x))", "allow", "allow"},
		// Not arithmetic to bash, and not parsed here: deny rules see the
		// pieces, allow rules never cover the line.
		{denyRm, "((rm x))", "deny", "deny"},
		{denyRm, "((rm x) )", "deny", "deny"},
		{denyRm, "( (rm x) )", "deny", "deny"},
		{echoCd, "(( echo hi ) )", "ask", "allow"},
		{echoCd, "echo $((rm x) )", "ask", "allow"},
		// Bash syntax is understood.
		{echoCd, "[[ -f x ]] && echo hi", "allow", "allow"},
		{denyRm, "[[ $(rm x) ]]", "deny", "deny"},
		{denyRm, "a=(1 2); echo ${a[@]}", "ask", "allow"},
		{denyRm, "echo $'rm\\x20x'", "ask", "allow"},
		{denyRm, "$'rm' x", "ask", "unchecked"},
		{denyRm, "coproc rm x", "deny", "deny"},
		{denyRm, "echo hi |& rm x", "deny", "deny"},
		{denyRm, "case a in a) rm x;& b) ;; esac", "deny", "deny"},
	}
	for _, tc := range cases {
		rules := parseRules(t, tc.rules)
		if got := ruleVerdict(rules, "shell_cmd", map[string]any{"command": tc.cmd}); got != tc.ask {
			t.Errorf("ask mode, rules %q, command %q: got %s, want %s", tc.rules, tc.cmd, got, tc.ask)
		}
		if got := autoVerdict(rules, tc.cmd); got != tc.auto {
			t.Errorf("auto mode, rules %q, command %q: got %s, want %s", tc.rules, tc.cmd, got, tc.auto)
		}
	}
}

// TestPipedScripts: a shell or `.` that reads its script from its input,
// a descriptor, a here-document or a path known only when it runs is a
// script piped to a shell: never allowed by a command pattern, unchecked
// under a deny rule in auto mode, and denied when a here-document or
// here-string the line feeds it holds a denied command.
func TestPipedScripts(t *testing.T) {
	const denyRm = "deny shell_cmd(command=rm *)"
	cases := []struct {
		cmd, auto string
	}{
		{". /dev/stdin <<EOF\nrm w\nEOF", "deny"},
		{"source /dev/stdin <<'EOF'\nrm w\nEOF", "deny"},
		{"echo 'rm w' | . /dev/stdin", "unchecked"},
		{"echo 'rm w' | source /dev/stdin", "unchecked"},
		{"source /dev/fd/0 <<< 'rm w'", "deny"},
		{". /proc/self/fd/0 <<< 'rm w'", "deny"},
		{". /dev//stdin <<< 'rm w'", "deny"},
		{"sh 3<<EOF /dev/fd/3\nrm w\nEOF", "deny"},
		{"bash /dev/fd/3 3<<EOF\nrm w\nEOF", "deny"},
		{"bash -x /dev/stdin <<< 'rm w'", "deny"},
		{"bash -- /dev/stdin <<< 'rm w'", "deny"},
		{"echo 'rm w' | bash /dev/stdin", "unchecked"},
		{"echo 'rm w' | sh", "unchecked"},
		{"echo 'rm w' | sh -s", "unchecked"},
		{"echo 'rm w' | bash -", "unchecked"},
		{"bash <<< 'rm w'", "deny"},
		{"sudo bash <<EOF\nrm w\nEOF", "deny"},
		{"( bash ) <<EOF\nrm w\nEOF", "deny"},
		{"bash -c 'bash' <<EOF\nrm w\nEOF", "deny"},
		{"bash <(echo rm w)", "unchecked"},
		{"source <(echo rm w)", "unchecked"},
		{". $F", "unchecked"},
		{"x=/dev/stdin; echo 'rm w' | . $x", "unchecked"},
		{"bash $SCRIPT", "unchecked"},
		{"exec 3<<EOF\nrm w\nEOF\n. /dev/fd/3", "deny"},
		{"cd /dev; echo 'rm w' | . stdin", "unchecked"},
		{"cd /proc/self/fd && . 0 <<< 'rm w'", "deny"},
		{"echo 'rm w' | xargs -I{} sh -c {}", "unchecked"},
		{"echo 'rm w' | xargs -I % bash -c %", "unchecked"},
		{"echo 'rm w' | xargs --replace sh -c {}", "unchecked"},
		{"find . -name '*.sh' -exec sh -c {} \\;", "unchecked"},
		{"find . -exec {} \\;", "unchecked"},
		{"echo 'rm w' | bash --rcfile /dev/stdin -ic true", "unchecked"},
		{"echo 'rm w' | bash --init-file=/dev/stdin -i", "unchecked"},
		{"echo 'rm w' | BASH_ENV=/dev/stdin bash -c true", "unchecked"},
		{"export BASH_ENV=/dev/stdin; echo 'rm w' | bash -c true", "unchecked"},
		{"echo 'rm w' | env BASH_ENV=/dev/stdin bash -c true", "unchecked"},
		{"env 'BASH_FUNC_ls%%=() { rm w; }' bash -c ls", "unchecked"},
		{"ENV=/dev/stdin sh -i", "unchecked"},
		{"echo 'rm w' | ENV=/dev/stdin sh -ic true", "unchecked"},
		{"echo 'rm w' | sudo BASH_ENV=/dev/stdin bash -c true", "unchecked"},
		{"ENV=prod make deploy", "allow"},
		// A script file is a program like any other.
		{"bash build.sh", "allow"},
		{". ./env.sh", "allow"},
		{"source venv/bin/activate && go test ./...", "allow"},
		{"bash build.sh < /dev/null", "allow"},
		{"bash build.sh > /dev/tty 2>&1", "allow"},
		{"bash build.sh < /dev/stdin", "unchecked"},
		{"find . -exec rm {} \\;", "deny"},
		{"ls | xargs -I{} rm {}", "deny"},
		{"ls | xargs -I{} echo {}", "allow"},
	}
	for _, tc := range cases {
		rules := parseRules(t, denyRm)
		if got := autoVerdict(rules, tc.cmd); got != tc.auto {
			t.Errorf("auto mode, %s, command %q: got %s, want %s", denyRm, tc.cmd, got, tc.auto)
		}
		l := parseShellLine(tc.cmd)
		if tc.auto != "allow" && tc.auto != "deny" && l.allowable() {
			t.Errorf("%q: allow rules may cover it, want not", tc.cmd)
		}
	}
	// Allow rules for the commands around a piped script do not cover it.
	allow := parseRules(t, "allow shell_cmd(command=echo *) | allow shell_cmd(command=. *) | allow shell_cmd(command=source *) | allow shell_cmd(command=bash *) | allow shell_cmd(command=true)")
	for _, cmd := range []string{"echo 'rm w' | . /dev/stdin", "echo 'rm w' | source /dev/fd/0", "echo 'rm w' | bash /dev/stdin",
		"echo 'rm w' | BASH_ENV=/dev/stdin bash -c true"} {
		if got := ruleVerdict(allow, "shell_cmd", map[string]any{"command": cmd}); got != "ask" {
			t.Errorf("allow echo, ., source, bash, true: command %q: got %s, want ask", cmd, got)
		}
	}
	if got := ruleVerdict(allow, "shell_cmd", map[string]any{"command": "bash build.sh && . ./env.sh"}); got != "allow" {
		t.Errorf("allow bash *, . *: bash build.sh && . ./env.sh: got %s, want allow", got)
	}
	// A shell that reads a start-up file, or gets a VAR=value prefix,
	// needs a rule of its own, not only one for its -c line.
	echoTrue := parseRules(t, "allow shell_cmd(command=echo *) | allow shell_cmd(command=true)")
	for _, cmd := range []string{"bash --rcfile x.sh -ic true", "bash -ic true", "FOO=1 bash -c true"} {
		if got := ruleVerdict(echoTrue, "shell_cmd", map[string]any{"command": cmd}); got != "ask" {
			t.Errorf("allow echo, true: command %q: got %s, want ask", cmd, got)
		}
	}
	if got := ruleVerdict(echoTrue, "shell_cmd", map[string]any{"command": "bash -lc true"}); got != "allow" {
		t.Errorf("allow echo, true: command %q: got %s, want allow", "bash -lc true", got)
	}
}

// TestValuesAsCode: bash evaluates some values as code (arithmetic and
// array subscripts run the $(...) in a value, as do variable names given
// as values and prompt strings), so a line that hands bash such a value
// it does not plainly know is opaque. Plain uses stay checkable.
func TestValuesAsCode(t *testing.T) {
	cases := []struct {
		cmd    string
		opaque bool
	}{
		{"x='a[$(rm w)]'; echo $((x))", true},
		{"x='a[$(rm w)]'; echo $(( $x ))", true},
		{"x='a[$(rm w)]'; (( x ))", true},
		{"x='a[$(rm w)]'; let x", true},
		{"x='a[$(rm w)]'; echo $[x]", true},
		{"x='a[$(rm w)]'; [[ $x -eq 1 ]]", true},
		{"x='a[$(rm w)]'; [[ x -gt 1 ]]", true},
		{"x='a[$(rm w)]'; y=(1); echo ${y[x]}", true},
		{"x='a[$(rm w)]'; echo ${s:x}", true},
		{"x='a[$(rm w)]'; b[x]=1", true},
		{"x='a[$(rm w)]'; for ((i=0; i<x; i++)); do :; done", true},
		{"x='a[$(rm w)]'; echo ${!x}", true},
		{"x='a[$(rm w)]'; echo ${x@P}", true},
		{"x='a[$'; y='(rm w)]'; echo $(( $x$y ))", true},
		{"x='a[$(rm w)]'; declare -i y; y=$x", true},
		{"declare -i y; y='a[$(rm w)]'", true},
		{"x=$(cat f); echo $((x + 1))", true},
		{"read -r x < f; echo $((x))", true},
		{"mapfile -t a < f; echo $(( a[0] ))", true},
		{"for x in $(cat f); do echo $((x)); done", true},
		{"for f in *; do echo $((f)); done", true},
		{"echo $(( $(cat f) ))", true},
		{"f() { echo $(($1)); }; f 'a[$(rm w)]'", true},
		{"set -- 'a[$(rm w)]'; echo $(($1))", true},
		{"bash -c 'echo $(($1))' _ \"$v\"", true},
		{"printf -v 'a[$(rm w)]' 1", true},
		{"read 'a[$(rm w)]' < f", true},
		{"unset 'a[$(rm w)]'", true},
		{"[[ -v 'a[$(rm w)]' ]]", true},
		{"[ -v 'a[$(rm w)]' ]", true},
		{"test -v \"$x\"", true},
		{"unset \"$name\"", true},
		{"export \"$name\"", true},
		{"declare -n r=\"$x\"", true},
		{"PS4='$(rm w)'; set -x; true", true},
		{"PS4='+ $(rm w) '; set -x; true", true},
		{"PROMPT_COMMAND=ls bash -i", true},
		{"compgen -W '$(rm w)'", true},
		{"compgen -W \"$x\"", true},
		{"mapfile -C eval -c 1 < f", true},
		{"mapfile -C \"$cb\" < f", true},
		{"read PS4 < f; set -x; true", true},
		{"cd 'a'; echo $((PWD))", true},
		{"v=$(cat f); [[ \"v\" -eq 1 ]]", true},
		{"v=$(cat f); let 'y = v + 1'", true},
		{"let 'a[$(rm w)]'", true},
		{"x=y; y=$(cat f); echo $(( ${!x} ))", true},
		{": ${v:=$(cat f)}; echo $((v))", true},
		{". ./env.sh; echo $((N + 1))", true},
		{"declare -n r=y; y=$(cat f); echo $((r))", true},
		{"declare -i n; read n < f", true},
		// Plain values and numbers are known.
		{"x=5; echo $((x * 2))", false},
		{"i=0; while [ $i -lt 3 ]; do i=$((i+1)); done", false},
		{"for i in 1 2 3; do echo $((i * 2)); done", false},
		{"for ((i=0; i<10; i++)); do echo $i; done", false},
		{"n=${#s}; echo $((n + 1))", false},
		{"echo $((HOME))", false},
		{"[[ $# -gt 0 ]] && echo args", false},
		{"[ \"$n\" -gt 5 ] && echo big", false},
		{"n=$(wc -l < f); [ \"$n\" -gt 5 ] && echo big", false},
		{"while read -r line; do echo \"$line\"; done < f", false},
		{"for f in *.go; do echo \"$f\" ${#f}; done", false},
		{"set -euo pipefail; echo $(($1 + 1))", false},
		{"PS4='+ '; set -x; make", false},
		{"x=(a b); echo ${x[1]} ${#x[@]}", false},
		{"compgen -W 'start stop' -- st", false},
		{"mapfile -t lines < f; echo ${#lines[@]}", false},
		{"unset x; [[ -v x ]] || echo unset", false},
		{"echo $(( 0x1f + 2#101 + 10#08 ))", false},
		{"[[ \"$#\" -eq 0 ]] && echo none", false},
		{": ${N:=4}; echo $((N * 2))", false},
	}
	for _, tc := range cases {
		why, got := parseShellLine(tc.cmd).opaque()
		if got != tc.opaque {
			t.Errorf("%q: got opaque %v (%q), want %v", tc.cmd, got, why, tc.opaque)
		}
	}
}

// TestCheckerSeesWhatBashRuns runs lines under bash with stand-ins for
// the programs they name, and checks that for every program bash started
// a deny rule naming it holds against the line (it is denied, or it
// cannot be checked, and so is asked about or refused), and that allow
// rules must cover it. This is the promise "the checker parses the
// language of the shell that runs the line", tested against the shell
// itself.
func TestCheckerSeesWhatBashRuns(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on this system")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	log := filepath.Join(dir, "ran")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	spies := []string{"rm", "zap", "boom"}
	for _, name := range spies {
		script := "#!/bin/sh\necho " + name + " >> " + log + "\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("a[$(zap)]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		"((rm +v1))", "((rm -rf * x))", "((rm x))", "((rm x) )", "( (rm x) )", "(( zap ) )", "echo $((zap) )",
		"((zap)) || ((boom))", "echo $(( (zap) ))", "((a)) ; zap", "echo $((zap)|(boom))", "((zap)|(boom))",
		"((zap)||(boom))", "((zap);(boom))", "echo $((zap) ; (boom))", "((zap) && (boom))", "((zap) |(boom))",
		"echo $((`zap`))", "((x=$(zap)))", "echo $[$(zap)]",
		"cat <<EOF; zap\nx\nEOF", "cat <<-EOF\n\tx\n\tEOF\nzap", "cat <<EOF\n${x:-$(zap)}\nEOF", "cat <<EOF | zap\nx\nEOF",
		"x=$(cat <<EOF\nhi\nEOF\n) zap", "[[ x =~ ( $(zap) ) ]]", "echo a#$(zap)", "echo {a,b}$(zap)",
		"echo hi >&$(zap)", "exec {fd}> >(zap); echo >&$fd", "declare a[$(zap)]=1",
		". /dev/stdin <<EOF\nzap\nEOF", "echo zap | . /dev/stdin", "sh 3<<EOF /dev/fd/3\nzap\nEOF",
		"bash <(echo zap)", "source /dev/fd/0 <<< zap", "echo zap | bash /proc/self/fd/0",
		"exec 3<<EOF\nzap\nEOF\n. /dev/fd/3", "echo zap | xargs -I{} sh -c {}",
		"echo zap | BASH_ENV=/dev/stdin bash -c true", "export BASH_ENV=/dev/stdin; echo zap | bash -c true",
		"echo zap | ENV=/dev/stdin bash --posix -ic true", "echo zap | ENV=/dev/stdin sh -ic true",
		"x='a[$(zap)]'; echo $((x))", "printf -v 'a[$(zap)]' 1", "PS4='$(zap)'; set -x; true",
		"v=$(cat f); echo $((v))", "read -r v < f; [[ $v -eq 1 ]]", "x='a[$(zap)]'; echo ${!x}",
		"f() { echo $(($1)); }; f 'a[$(zap)]'", "mapfile -C 'zap #' -c 1 < f", "compgen -W '$(zap)'",
		"env 'BASH_FUNC_ls%%=() { zap; }' bash -c ls", "alias ls=zap\nshopt -s expand_aliases\nls",
		"trap zap EXIT", "x=zap; $x", "echo $(boom) `zap`", "coproc zap; wait",
		"case a in a) zap;& b) boom;; esac", "a=([$(zap)]=1)", "declare -A m=([k]=$(zap))",
		"[[ -n $(zap) ]]", "cat <(zap) >/dev/null", "{ zap; } 2>/dev/null", "echo hi |& zap",
		"time zap", "! zap", "zap &", "for ((i=$(zap); i<1; i++)); do :; done",
		"v=$(cat f); [[ \"v\" -eq 1 ]]", "v=$(cat f); let 'y = v + 1'", "let 'a[$(zap)]'",
		"x=y; y=$(cat f); echo $(( ${!x} ))", ": ${v:=$(cat f)}; echo $((v))", "declare -n r=y; y=$(cat f); echo $((r))",
		"declare -i n; read n < f", "x='a[$(zap)]'; echo ${x@P}", "mapfile -t b < f; echo $(( b[0] ))",
		"for x in $(cat f); do echo $((x)); done", "echo $(( $(cat f) ))", "set -- \"$(cat f)\"; echo $(($1))",
		"bash -c 'echo $(($1))' _ \"$(cat f)\"", "read 'a[$(zap)]' < f", "unset 'a[$(zap)]'",
		"[[ -v 'a[$(zap)]' ]]", "[ -v 'a[$(zap)]' ]", "test -v \"$(cat f)\"", "x='a[$(zap)]'; declare -i y; y=$x",
	}
	for _, line := range lines {
		os.Remove(log)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, bash, "-c", line)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "HOME=" + dir}
		cmd.Run()
		cancel()
		b, _ := os.ReadFile(log)
		l := parseShellLine(line)
		for _, ran := range strings.Fields(string(b)) {
			rules := parseRules(t, "deny shell_cmd(command="+ran+" *)")
			if got := autoVerdict(rules, line); got == "allow" {
				t.Errorf("bash ran %s for %q, but deny %s(command=%s *) allows the line", ran, line, "shell_cmd", ran)
			}
			// Allow rules must cover it too: it is one of the commands an
			// allow rule has to match, or none may allow the line.
			covered := false
			for _, p := range l.parts {
				covered = covered || filepath.Base(p.prog) == ran || matchCommand(ran+" *", p.text)
			}
			if l.allowable() && !covered {
				t.Errorf("bash ran %s for %q, but allow rules may cover the line without it (parts %v)", ran, line, l.parts)
			}
		}
	}
}
