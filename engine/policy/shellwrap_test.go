package policy

import "testing"

// TestShellRulesMoreWrappers: deny rules hold through the wrappers that
// run a command given as words (flock, chrt, taskset, prlimit, unshare,
// setpriv, runuser, chroot, busybox, strace, systemd-run, pkexec), the
// ones that run a shell line (su -c, script -c, flock -c, runuser -c,
// sg, watch) and trap; and through options the wrapper table does not
// know. Allow rules still must cover the wrapped command.
func TestShellRulesMoreWrappers(t *testing.T) {
	const (
		denyRm = "deny shell_cmd(command=rm *)"
		goTest = "allow shell_cmd(command=go test *)"
	)
	cases := []struct {
		rules, cmd, want string
	}{
		{denyRm, "flock /tmp/lock rm x", "deny"},
		{denyRm, "flock -w 5 /tmp/lock rm x", "deny"},
		{denyRm, "flock /tmp/lock -c 'rm x'", "deny"},
		{denyRm, "flock --command='rm x' /tmp/lock", "deny"},
		{denyRm, "chrt -o 0 rm x", "deny"},
		{denyRm, "chrt --sched-runtime 5 0 rm x", "deny"},
		{denyRm, "chrt --unknown-option 5 0 rm x", "deny"},
		{denyRm, "taskset 1 rm x", "deny"},
		{denyRm, "taskset -c 0,1 rm x", "deny"},
		{denyRm, "prlimit --nofile=100 rm x", "deny"},
		{denyRm, "unshare -r rm x", "deny"},
		{denyRm, "setpriv --reuid 1000 rm x", "deny"},
		{denyRm, "runuser -u root -- rm x", "deny"},
		{denyRm, "runuser root -c 'rm x'", "deny"},
		{denyRm, "su -c 'rm x' root", "deny"},
		{denyRm, "su - root -c 'true; rm x'", "deny"},
		{denyRm, "su -lc 'rm x'", "deny"},
		{denyRm, "su --command='rm x'", "deny"},
		{denyRm, "script -qc 'rm x' /dev/null", "deny"},
		{denyRm, "script -q -c 'rm x' /dev/null", "deny"},
		{denyRm, "sg staff 'rm x'", "deny"},
		{denyRm, "watch -n1 rm x", "deny"},
		{denyRm, "watch 'true && rm x'", "deny"},
		{denyRm, "chroot / rm x", "deny"},
		{denyRm, "busybox rm x", "deny"},
		{denyRm, "toybox rm x", "deny"},
		{denyRm, "strace -f -o /dev/null rm x", "deny"},
		{denyRm, "systemd-run --user rm x", "deny"},
		{denyRm, "pkexec rm x", "deny"},
		{denyRm, "nsenter -t 1 -m rm x", "deny"},
		{denyRm, "trap 'rm x' EXIT", "deny"},
		{denyRm, "trap \"echo; rm x\" INT TERM", "deny"},
		{denyRm, "trap - EXIT", "ask"},
		{denyRm, "alias r=rm\nr x", "deny"},
		{denyRm, "alias ll='ls -l' r='rm -rf'\nr x", "deny"},
		{denyRm, "bash -c 'shopt -s expand_aliases\nalias true=rm\ntrue x'", "deny"},
		{denyRm, "alias ll='ls -l'", "ask"},
		{denyRm, "hash -p /bin/rm ls; ls x", "deny"},
		{denyRm, "su -c \"$CMD\"", "ask"},
		{denyRm, "echo 'rm x'", "ask"},
		{denyRm, "git rm x", "ask"},
		// Allow rules: the wrapped command must be allowed, and wrappers
		// that change privileges need a rule of their own.
		{goTest, "flock /tmp/lock go test ./...", "allow"},
		{goTest, "taskset 1 go test ./...", "allow"},
		{goTest, "watch go test ./...", "allow"},
		{goTest, "watch 'go test ./... && touch pwned'", "ask"},
		{goTest, "flock /tmp/lock -c 'go test ./...; touch pwned'", "ask"},
		{goTest, "su -c 'go test ./...'", "ask"},
		{goTest, "script -c 'go test ./...' /dev/null", "ask"},
		{goTest, "unshare go test ./...", "ask"},
		{goTest, "trap 'touch pwned' EXIT; go test ./...", "ask"},
	}
	for _, tc := range cases {
		if got := ruleVerdict(parseRules(t, tc.rules), "shell_cmd", map[string]any{"command": tc.cmd}); got != tc.want {
			t.Errorf("rules %q, command %q: got %s, want %s", tc.rules, tc.cmd, got, tc.want)
		}
	}
}

// TestOpaqueLines: a line whose programs are not all known before it runs
// is opaque, and says why; a known line is not.
func TestOpaqueLines(t *testing.T) {
	cases := []struct {
		cmd    string
		opaque bool
	}{
		{"rm x", false},
		{"go test ./... && echo ok", false},
		{"ls $DIR", false},
		{"bash build.sh", false},
		{"$x victim", true},
		{"/bin/r? victim", true},
		{"$(echo rm) victim", true},
		{"`echo rm` victim", true},
		{"${x:-rm} victim", true},
		{"echo rm victim | sh", true},
		{"bash -c \"$(cat cmd)\"", true},
		{"eval $CMD", true},
		{"env -S 'rm x'", true},
		{"rm x; \"", true},
	}
	for _, tc := range cases {
		why, got := parseShellLine(tc.cmd).opaque()
		if got != tc.opaque || got == (why == "") {
			t.Errorf("%q: got opaque %v (%q), want %v", tc.cmd, got, why, tc.opaque)
		}
	}
}
