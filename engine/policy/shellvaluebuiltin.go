package policy

import "strings"

// noteValueBuiltin records the builtins that assign the variables named
// in their arguments from what they read (read, mapfile, printf -v,
// getopts, wait -p), test whether a named variable is set (test -v),
// evaluate a value (compgen -W), set variables for the command they run
// (env, sudo) or the positional parameters (set); a callback given as
// text (mapfile -C, compgen -C) is read as a line of its own.
func (l *shellLine) noteValueBuiltin(name string, words []word, depth int) {
	args := words[1:]
	switch name {
	case "read":
		l.readNames(args)
	case "mapfile", "readarray":
		l.mapfileNames(name, args, depth)
	case "printf":
		if len(args) > 1 && args[0].text == "-v" {
			l.nameWord(args[1], "printf -v", true)
		}
	case "getopts":
		if len(args) > 1 {
			l.nameWord(args[1], "getopts", true)
		}
	case "wait":
		for i := 0; i+1 < len(args); i++ {
			if args[i].text == "-p" {
				l.nameWord(args[i+1], "wait -p", true)
			}
		}
	case "unset":
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") {
				l.nameWord(a, "unset", false)
			}
		}
	case "test", "[":
		for i := 0; i+1 < len(args); i++ {
			if args[i].text == "-v" || args[i].text == "-R" {
				l.nameWord(args[i+1], name+" "+args[i].text, false)
			}
		}
	case "compgen", "complete":
		l.completionWords(name, args, depth)
	case "env", "sudo":
		l.commandAssigns(name, args)
	case "set":
		l.setPositional(args)
	}
}

// readNames records the variables read assigns: its operands and the
// array of -a.
func (l *shellLine) readNames(args []word) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "-a" && i+1 < len(args):
			i++
			l.nameWord(args[i], "read -a", true)
		case len(t) > 1 && t[0] == '-' && args[i].fixed:
			// An option that takes a value: -d, -i, -n, -N, -p, -t, -u.
			if last := t[len(t)-1]; strings.IndexByte("dinNptu", last) >= 0 && i+1 < len(args) {
				i++
			}
		default:
			l.nameWord(args[i], "read", true)
		}
	}
}

// mapfileNames records the array mapfile fills and reads its callback
// (-C), which runs as `callback index line` with the line read at run
// time.
func (l *shellLine) mapfileNames(name string, args []word, depth int) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "-C" && i+1 < len(args):
			i++
			if !args[i].fixed {
				l.values.fail(name + " -C is given a callback known only when the line runs")
				continue
			}
			l.addSource(args[i].text+` "$1" "$2"`, depth+1)
		case len(t) > 1 && t[0] == '-' && args[i].fixed:
			if last := t[len(t)-1]; strings.IndexByte("dnOsuc", last) >= 0 && i+1 < len(args) {
				i++
			}
		default:
			l.nameWord(args[i], name, true)
		}
	}
}

// completionWords reads compgen's and complete's -W word list, which is
// expanded again ($(...) included), and -C command.
func (l *shellLine) completionWords(name string, args []word, depth int) {
	for i := 0; i+1 < len(args); i++ {
		w := args[i+1]
		switch args[i].text {
		case "-W":
			if !w.fixed || strings.ContainsAny(w.text, "$`") {
				l.values.fail(name + " -W expands its word list again, running any $(...) in it")
			}
		case "-C":
			if !w.fixed {
				l.values.fail(name + " -C is given a command known only when the line runs")
				continue
			}
			l.addSource(w.text, depth+1)
		}
	}
}

// commandAssigns records the NAME=value words env (any word with '='
// before the command) and sudo give the command they run.
func (l *shellLine) commandAssigns(name string, args []word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		n, v, ok := strings.Cut(a.text, "=")
		switch {
		case name == "sudo" && !(ok && isName(n)):
			continue
		case name == "env" && !ok:
			switch a.text {
			case "-u", "-C", "-S", "--unset", "--chdir", "--split-string":
				i++
				continue
			}
			if strings.HasPrefix(a.text, "-") {
				continue
			}
			return // the command
		}
		plain := a.fixed && !strings.ContainsAny(v, "$`[]")
		if why := codeVar(n, plain); why != "" {
			l.values.fail(why)
		}
		l.values.set(n, plain)
	}
}

// setPositional notes `set -- a b` or `set a b`, which give the
// positional parameters values.
func (l *shellLine) setPositional(args []word) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--" || !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+"):
			l.values.positional = true
			return
		case strings.HasSuffix(t, "o"):
			i++ // set -o pipefail
		}
	}
}
