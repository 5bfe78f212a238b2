package policy

import "strings"

// wrapper describes a program that runs another command given as its
// remaining arguments (env, sudo, timeout, xargs, ...), enough to find
// where that command starts.
type wrapper struct {
	// valued lists the short options that take a value (attached, or as
	// the next word); long lists the long options that take the next word
	// as their value when written without '='.
	valued string
	long   []string
	// operands counts words between the options and the command
	// (timeout's duration).
	operands int
	// assigns: NAME=value words may come before the command (env).
	assigns bool
	// numeric: -N is an option (nice -10).
	numeric bool
	// query lists short options after which no command runs (command -v,
	// sudo -l).
	query string
	// hides lists options whose value is itself a command line split by
	// the wrapper, not the shell (env -S): the command is unknown.
	hides string
	// own: the wrapper changes how the command runs (privileges, its
	// environment, arguments read from input), so it is a part of its
	// own that an allow rule must cover too. ownWithArgs: only when it was
	// given options or assignments (env).
	own, ownWithArgs bool
	// script lists the short options, and scriptLong the long ones, whose
	// value is a shell command line (su -c, flock -c); onlyScript: without
	// one the wrapper runs no command of the line (script, su).
	script     string
	scriptLong []string
	onlyScript bool
	// joined: the command's words are joined into a line for a shell
	// (watch, sg), unless noJoin, an option, is given (watch -x).
	joined bool
	noJoin string
}

// wrapperFor returns the wrapper named name.
func wrapperFor(name string) (wrapper, bool) {
	switch name {
	case "env":
		return wrapper{valued: "uCS", long: []string{"unset", "chdir", "split-string"}, assigns: true, hides: "S", ownWithArgs: true}, true
	case "timeout":
		return wrapper{valued: "sk", long: []string{"signal", "kill-after"}, operands: 1}, true
	case "nice":
		return wrapper{valued: "n", long: []string{"adjustment"}, numeric: true}, true
	case "nohup", "builtin", "setsid":
		return wrapper{}, true
	case "command":
		return wrapper{query: "vV"}, true
	case "exec":
		return wrapper{valued: "a"}, true
	case "time":
		return wrapper{valued: "fo", long: []string{"format", "output"}}, true
	case "stdbuf":
		return wrapper{valued: "ioe", long: []string{"input", "output", "error"}}, true
	case "ionice":
		return wrapper{valued: "cn", long: []string{"class", "classdata"}, query: "pPu"}, true
	case "xargs":
		return wrapper{valued: "adEILnPs", long: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"}, own: true}, true
	case "sudo":
		return wrapper{valued: "ugCDhprtTU", long: []string{"user", "group", "close-from", "chdir", "host", "prompt", "role", "type", "command-timeout", "other-user"}, query: "elVvK", own: true}, true
	case "doas":
		return wrapper{valued: "uC", query: "L", own: true}, true
	case "pkexec":
		return wrapper{long: []string{"user"}, own: true}, true
	case "su":
		return wrapper{valued: "gGsw", long: []string{"group", "supp-group", "shell", "whitelist-environment"},
			script: "c", scriptLong: []string{"command", "session-command"}, onlyScript: true, own: true}, true
	case "runuser":
		return wrapper{valued: "ugGsw", long: []string{"user", "group", "supp-group", "shell", "whitelist-environment"},
			script: "c", scriptLong: []string{"command", "session-command"}, own: true}, true
	case "script":
		return wrapper{valued: "EIBOTm", long: []string{"echo", "log-in", "log-out", "log-io", "log-timing", "logging-format", "output-limit", "timing"},
			script: "c", scriptLong: []string{"command"}, onlyScript: true, own: true}, true
	case "flock":
		return wrapper{valued: "wE", long: []string{"wait", "timeout", "conflict-exit-code"}, operands: 1, script: "c", scriptLong: []string{"command"}}, true
	case "chrt":
		return wrapper{valued: "TPD", long: []string{"sched-runtime", "sched-period", "sched-deadline"}, operands: 1, query: "pm"}, true
	case "taskset":
		return wrapper{operands: 1, query: "p"}, true
	case "prlimit":
		return wrapper{valued: "p", long: []string{"pid", "output"}, query: "p"}, true
	case "strace":
		return wrapper{valued: "abeEIoOpPsSuUX", long: []string{"output", "attach", "user", "env"}}, true
	case "busybox", "toybox":
		return wrapper{}, true
	case "unshare":
		return wrapper{valued: "SGRw", long: []string{"setuid", "setgid", "root", "wd"}, own: true}, true
	case "nsenter":
		return wrapper{valued: "tSG", long: []string{"target", "setuid", "setgid"}, own: true}, true
	case "setpriv":
		return wrapper{long: []string{"reuid", "regid", "ruid", "rgid", "euid", "egid", "groups", "inh-caps", "ambient-caps", "bounding-set",
			"securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule"}, query: "d", own: true}, true
	case "chroot":
		return wrapper{long: []string{"userspec", "groups"}, operands: 1, own: true}, true
	case "systemd-run":
		return wrapper{valued: "pEuHMs", long: []string{"unit", "property", "description", "slice", "uid", "gid", "nice", "working-directory",
			"setenv", "machine", "host", "service-type", "on-active", "on-boot", "on-startup", "on-unit-active", "on-unit-inactive", "on-calendar"}, own: true}, true
	case "watch":
		return wrapper{valued: "nq", long: []string{"interval"}, joined: true, noJoin: "x"}, true
	case "sg":
		return wrapper{operands: 1, joined: true, script: "c"}, true
	}
	return wrapper{}, false
}

// unwrap finds the wrapped command in the wrapper's arguments. ok is false
// when no command runs (a query, or nothing after the options); inner is
// nil when the command exists but cannot be known. own says whether the
// wrapper is a part of its own.
func (w wrapper) unwrap(args []word) (inner []word, own, ok bool) {
	own = w.own
	operands := w.operands
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.fixed {
			if operands > 0 {
				operands--
				continue
			}
			// An option or the command itself decided at run time: the
			// command cannot be found with confidence.
			return nil, true, true
		}
		t := a.text
		switch {
		case t == "--":
			i++
			for operands > 0 && i < len(args) {
				operands--
				i++
			}
			return w.rest(args[i:], own)
		case strings.HasPrefix(t, "--"):
			own = own || w.ownWithArgs
			name, _, hasValue := strings.Cut(t[2:], "=")
			for _, l := range w.long {
				if l == name && !hasValue {
					i++
				}
			}
			if w.hides != "" && name == "split-string" {
				return nil, true, true
			}
		case len(t) > 1 && t[0] == '-' && !(w.numeric && isDigits(t[1:])):
			own = own || w.ownWithArgs
			skip, hidden, query := w.shortOptions(t[1:])
			if query {
				return nil, false, false
			}
			if hidden {
				return nil, true, true
			}
			if skip {
				i++
			}
		case len(t) > 1 && t[0] == '-':
			// nice -10
		case w.assigns && isAssignment(t):
			own = own || w.ownWithArgs
		case operands > 0:
			operands--
		default:
			return w.rest(args[i:], own)
		}
	}
	return nil, false, false
}

func (w wrapper) rest(args []word, own bool) ([]word, bool, bool) {
	if len(args) == 0 {
		return nil, false, false
	}
	return args, own, true
}

// shortOptions reads one cluster of short options (without its '-'):
// skip reports that the next word is the value of its last option.
func (w wrapper) shortOptions(cluster string) (skip, hidden, query bool) {
	for j := 0; j < len(cluster); j++ {
		c := cluster[j]
		switch {
		case strings.IndexByte(w.query, c) >= 0:
			return false, false, true
		case strings.IndexByte(w.hides, c) >= 0:
			return false, true, false
		case strings.IndexByte(w.valued, c) >= 0:
			return j == len(cluster)-1, false, false
		}
	}
	return false, false, false
}

func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "rbash", "dash", "zsh", "ksh", "mksh", "ash", "posh", "yash":
		return true
	}
	return false
}
