package policy

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// How a shell invocation gets its script.
const (
	scriptFile    = iota // a script file operand: the shell is a program like any other
	scriptText           // -c with fixed text: the text is parsed as a line
	scriptUnknown        // -c with an expansion, or commands read from stdin (-s, a pipe, a here-document)
)

// shellRun is how a shell invocation gets its script.
type shellRun struct {
	mode int
	// script is the -c text (scriptText); file the script file operand
	// (scriptFile).
	script string
	file   word
	// own: the shell also reads a start-up file the line names
	// (--rcfile, --init-file) or its user's (-i, interactive), so it is
	// a part of its own that an allow rule must cover.
	own, interactive bool
}

// shellScript finds the script of a shell invocation (its arguments after
// the program name). A script operand or -c text known only at run time
// may be /dev/stdin or <(...): unknown.
func shellScript(args []word) shellRun {
	var r shellRun
	c, stdin := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.fixed {
			r.mode = scriptUnknown
			return r
		}
		t := a.text
		switch {
		case t == "--" || t == "-":
			continue
		case strings.HasPrefix(t, "--"):
			name, value, hasValue := strings.Cut(t, "=")
			if name != "--rcfile" && name != "--init-file" {
				continue
			}
			r.own = true
			if !hasValue {
				i++
				if i == len(args) {
					continue
				}
				if !args[i].fixed {
					r.mode = scriptUnknown
					return r
				}
				value = args[i].text
			}
			if namesInput(value) {
				r.mode = scriptUnknown
				return r
			}
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			if t[0] == '-' {
				c = c || strings.ContainsRune(t[1:], 'c')
				stdin = stdin || strings.ContainsRune(t[1:], 's')
				r.interactive = r.interactive || strings.ContainsRune(t[1:], 'i')
				r.own = r.own || r.interactive
			}
			if last := t[len(t)-1]; last == 'o' || last == 'O' {
				i++
			}
		case c:
			r.mode, r.script = scriptText, t
			return r
		case stdin:
			r.mode = scriptUnknown
			return r
		default:
			r.mode, r.file = scriptFile, a
			return r
		}
	}
	r.mode = scriptUnknown
	return r
}

// addShell records a shell (sh, bash, ...) or `.`/source: the line of
// its -c text, or a script file run as a program like any other, or a
// script it reads from its input, a descriptor or a path known only at
// run time, which no rule can see into.
func (l *shellLine) addShell(env []string, name string, part shellPart, words []word, depth int) {
	var run shellRun
	if isShell(name) {
		run = shellScript(words[1:])
		l.values.interactive = l.values.interactive || run.interactive
	} else {
		args := words[1:]
		if len(args) > 0 && args[0].fixed && args[0].text == "--" {
			args = args[1:]
		}
		run.mode = scriptUnknown
		if len(args) > 0 && args[0].fixed {
			run.mode, run.file = scriptFile, args[0]
		}
	}
	switch {
	case run.mode == scriptText:
		l.denyForms = append(l.denyForms, part.text)
		if run.own || len(env) > 0 {
			l.parts = append(l.parts, part)
		}
		l.addSource(run.script, depth+1)
	case run.mode == scriptUnknown || run.file.pattern || namesInput(run.file.text):
		l.piped = true
		part.why = fmt.Sprintf("%q reads a script from its input, a descriptor or a path known only when it runs", part.text)
		l.addUnknown(part, words)
	default:
		l.scriptFiles = append(l.scriptFiles, len(l.parts))
		l.parts = append(l.parts, part)
		// A sourced file runs in this shell: any variable may hold
		// anything after it.
		l.values.sourced = l.values.sourced || !isShell(name)
	}
}

// noteRedirect keeps the text of here-documents and here-strings, which
// a shell may read as its script, and notes input redirected from a path
// a script file may turn out to be (/dev/stdin, /dev/fd/N).
func (l *shellLine) noteRedirect(src string, r *syntax.Redirect, depth int) {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Hdoc != nil {
			l.inputs = append(l.inputs, shellInput{text: wordOf(src, r.Hdoc).text, depth: depth})
		}
		return
	case syntax.WordHdoc:
		l.inputs = append(l.inputs, shellInput{text: wordOf(src, r.Word).text, depth: depth})
		return
	}
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
		if w := wordOf(src, r.Word); w.fixed && namesInput(w.text) {
			l.inputPaths = true
		}
	}
}

// namesInput reports a path that is a process's input rather than a
// script file: /dev/stdin, /dev/fd/N, a terminal, anything in /proc (its
// fd/N), or one of their directories.
func namesInput(p string) bool {
	p = path.Clean(p)
	if p == "/dev" {
		return true
	}
	for _, d := range []string{"/dev/stdin", "/dev/fd", "/dev/tty", "/dev/pts", "/proc"} {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// runtimeWords marks the words holding s (find's {}, xargs's
// replace-string) as known only at run time.
func runtimeWords(words []word, s string) []word {
	if s == "" {
		return words
	}
	out := make([]word, len(words))
	for i, w := range words {
		if strings.Contains(w.text, s) {
			w.fixed = false
		}
		out[i] = w
	}
	return out
}

// xargsReplace returns the replace-string xargs's options set (-I R, -i,
// --replace), or "".
func xargsReplace(opts []word) string {
	for i, o := range opts {
		t := o.text
		switch {
		case t == "-I" && i+1 < len(opts):
			return opts[i+1].text
		case t == "-i" || t == "--replace":
			return "{}"
		case strings.HasPrefix(t, "-I") || strings.HasPrefix(t, "-i"):
			return t[2:]
		case strings.HasPrefix(t, "--replace="):
			return strings.TrimPrefix(t, "--replace=")
		}
	}
	return ""
}

// findExecs returns the commands of find's -exec, -execdir, -ok and
// -okdir actions.
func findExecs(args []word) [][]word {
	var out [][]word
	for i := 0; i < len(args); i++ {
		switch args[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		for j < len(args) && args[j].text != ";" && args[j].text != "+" {
			j++
		}
		if j > i+1 {
			out = append(out, args[i+1:j])
		}
		i = j
	}
	return out
}

// scriptOf finds the shell command line a wrapper runs, if it runs one:
// the value of a script option (su -c 'line'), or its command words
// joined (watch make test). found is false when the wrapper runs a
// command as words, or none; line is nil when the line is decided only
// when it runs.
func (w wrapper) scriptOf(args []word) (line *word, found bool) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if !args[i].fixed || t == "--" || len(t) < 2 || t[0] != '-' {
			continue
		}
		if name, value, hasValue := strings.Cut(strings.TrimPrefix(t, "--"), "="); strings.HasPrefix(t, "--") {
			for _, l := range w.scriptLong {
				switch {
				case l == name && hasValue:
					return &word{text: value, fixed: true}, true
				case l == name && i+1 < len(args):
					return wordOrNil(args[i+1]), true
				case l == name:
					return nil, true
				}
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte(w.valued, t[j]) >= 0 {
				break // the rest of the cluster, or the next word, is its value
			}
			if strings.IndexByte(w.script, t[j]) < 0 {
				continue
			}
			if j+1 < len(t) {
				return &word{text: t[j+1:], fixed: true}, true
			}
			if i+1 < len(args) {
				return wordOrNil(args[i+1]), true
			}
			return nil, true
		}
	}
	if !w.joined {
		return nil, false
	}
	for _, a := range args {
		if a.fixed && len(a.text) > 1 && a.text[0] == '-' && a.text[1] != '-' && strings.ContainsAny(a.text[1:], w.noJoin) && w.noJoin != "" {
			return nil, false
		}
		if a.fixed && a.text == "--exec" {
			return nil, false
		}
	}
	inner, _, ok := w.unwrap(args)
	if !ok || inner == nil {
		return nil, ok
	}
	text, known := joinFixed(inner)
	if !known {
		return nil, true
	}
	return &word{text: text, fixed: true}, true
}

func wordOrNil(w word) *word {
	if !w.fixed {
		return nil
	}
	return &w
}
