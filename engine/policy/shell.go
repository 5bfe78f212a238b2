package policy

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shellLine is what a command line would run, as permission rules see it:
// every simple command in it, wherever it sits (after ;, && or ||, in a
// pipe, a subshell, $(...) or backticks, a function or loop body, a
// `bash -c` string, behind env, sudo, timeout and similar wrappers).
type shellLine struct {
	parts []shellPart
	// denyForms are further texts only deny rules match: a wrapped
	// command written with its wrapper, a program named by its path.
	denyForms []string
	// writes reports a redirection to a file (>, >>, &>, >|, <>), which no
	// command-pattern allow rule covers.
	writes bool
	// invalid reports a line (or a nested `sh -c` string) that does not
	// parse: nothing in it is known, so no allow rule covers it.
	invalid bool
	// piped reports a shell, or `.`, reading its script from its input, a
	// descriptor or a path known only when it runs. inputs are the line's
	// here-documents and here-strings, read as lines of their own when it
	// is set, so deny rules see the commands they feed it.
	piped  bool
	inputs []shellInput
	// scriptFiles are the parts that run a script file (bash x.sh, .
	// x.sh), by index; inputPaths reports a line naming /dev/stdin,
	// /dev/fd, /proc and the like, which a script file may be.
	scriptFiles []int
	inputPaths  bool
	// values follows what bash may evaluate as code; evalWhy, once the
	// line is read, says why it might.
	values  values
	evalWhy string
}

// shellInput is the text of a here-document or here-string.
type shellInput struct {
	text  string
	depth int
}

// shellPart is one simple command of a line.
type shellPart struct {
	// text is the command as an allow rule must match it: its words with
	// quotes removed, joined by spaces, with any VAR=value prefix.
	text string
	// prog is the program as written; env reports a VAR=value prefix.
	prog string
	env  bool
	// unknown reports a program decided only when the line runs ($CMD, a
	// glob or brace, `bash -c "$X"`), or a script piped to a shell: no
	// allow rule covers it. why says which, when it is not the program.
	unknown bool
	why     string
}

// maxShellDepth bounds nested `sh -c` strings.
const maxShellDepth = 8

// parseShellLine splits a shell command line into what it runs. The
// line is read as bash reads it: shell_cmd runs it with bash.
func parseShellLine(src string) *shellLine {
	l := &shellLine{}
	l.addSource(src, 0)
	l.finish()
	return l
}

// finish settles what only the whole line tells: a script file may be a
// descriptor the line names, a script piped to a shell may come from the
// line's here-documents, and a value may reach a place bash evaluates.
func (l *shellLine) finish() {
	for done := 0; ; {
		if l.inputPaths {
			for _, i := range l.scriptFiles {
				l.parts[i].unknown = true
				l.parts[i].why = fmt.Sprintf("%q may read its script from a descriptor or device the line names", l.parts[i].text)
				l.piped = true
			}
		}
		if !l.piped || done == len(l.inputs) {
			break
		}
		in := l.inputs[done]
		done++
		l.addSource(in.text, in.depth+1)
	}
	l.evalWhy = l.values.check()
}

// execLine is the exec form of a command (program plus arguments, no
// shell): one simple command, seen through the same wrappers.
func execLine(words []string) *shellLine {
	l := &shellLine{}
	ws := make([]word, len(words))
	for i, w := range words {
		ws[i] = word{text: w, fixed: true}
	}
	if len(ws) > 0 {
		l.addCommand(nil, ws, 0)
	}
	l.finish()
	return l
}

// allowable reports whether command-pattern allow rules may cover the
// line at all.
func (l *shellLine) allowable() bool {
	if l.invalid || l.writes || l.evalWhy != "" || len(l.parts) == 0 {
		return false
	}
	for _, p := range l.parts {
		if p.unknown {
			return false
		}
	}
	return true
}

// opaque reports a line whose commands are not all known before it runs,
// and says what hides them: it does not parse, or a program is decided
// at run time.
func (l *shellLine) opaque() (string, bool) {
	if l.invalid {
		return "the line does not parse", true
	}
	if l.evalWhy != "" {
		return l.evalWhy, true
	}
	for _, p := range l.parts {
		if p.unknown && p.why != "" {
			return p.why, true
		}
		if p.unknown {
			return fmt.Sprintf("the program of %q is decided only when it runs", p.text), true
		}
	}
	return "", false
}

func (l *shellLine) addSource(src string, depth int) {
	if depth > maxShellDepth {
		l.invalid = true
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		// A shell may still run the commands before the syntax error, so
		// deny rules see the pieces between separators.
		l.invalid = true
		for _, piece := range strings.FieldsFunc(src, func(r rune) bool { return strings.ContainsRune(";&|\n(){}`", r) }) {
			if piece = strings.TrimSpace(piece); piece != "" {
				l.denyForms = append(l.denyForms, piece)
			}
		}
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		l.noteValueNode(src, n, depth)
		switch n := n.(type) {
		case *syntax.Redirect:
			if writesFile(src, n) {
				l.writes = true
			}
			l.noteRedirect(src, n, depth)
		case *syntax.CallExpr:
			l.addCall(src, n, depth)
		case *syntax.DeclClause:
			// export, local, declare, readonly: a command of its own that
			// changes the environment of the commands after it.
			l.parts = append(l.parts, shellPart{text: slice(src, n), prog: n.Variant.Value})
		}
		return true
	})
}

// addCall records a simple command. A bare assignment (PATH=.:$PATH)
// changes what later commands run, so it is a part of its own.
func (l *shellLine) addCall(src string, c *syntax.CallExpr, depth int) {
	env := make([]string, len(c.Assigns))
	for i, a := range c.Assigns {
		env[i] = slice(src, a)
	}
	if len(c.Args) == 0 {
		l.parts = append(l.parts, shellPart{text: strings.Join(env, " "), env: true})
		return
	}
	words := make([]word, len(c.Args))
	for i, a := range c.Args {
		words[i] = wordOf(src, a)
	}
	l.addCommand(env, words, depth)
}

// addCommand records one command given as words, looking through
// wrappers and nested shells.
func (l *shellLine) addCommand(env []string, words []word, depth int) {
	text := joinWords(env, words)
	prog := words[0]
	part := shellPart{text: text, prog: prog.text, env: len(env) > 0}
	if !prog.fixed || prog.pattern {
		l.addUnknown(part, words)
		return
	}
	name := path.Base(prog.text)
	for _, w := range words {
		l.inputPaths = l.inputPaths || w.fixed && namesInput(w.text)
	}
	l.noteValueBuiltin(name, words, depth)
	if name != prog.text || len(env) > 0 {
		// Deny rules name programs, not paths, and hold with or without a
		// VAR=value prefix.
		l.denyForms = append(l.denyForms, joinWords(nil, append([]word{{text: name, fixed: true}}, words[1:]...)))
	}
	switch {
	case isShell(name) || name == "." || name == "source":
		l.addShell(env, name, part, words, depth)
		return
	case name == "eval":
		script, known := joinFixed(words[1:])
		l.denyForms = append(l.denyForms, text)
		if !known {
			l.addUnknown(part, words)
			return
		}
		l.addSource(script, depth+1)
		return
	case l.addBuiltin(name, part, words, depth):
		return
	case name == "find":
		l.parts = append(l.parts, part)
		for _, inner := range findExecs(words[1:]) {
			// {} is a file name, known only when find runs.
			l.addCommand(nil, runtimeWords(inner, "{}"), depth)
		}
		return
	}
	if w, ok := wrapperFor(name); ok {
		// Deny rules see every command the wrapper's words could start
		// with, so an option this table does not know cannot hide one.
		l.addTails(words[1:])
		if line, found := w.scriptOf(words[1:]); found {
			if line == nil {
				l.addUnknown(part, words)
				return
			}
			if w.own {
				l.parts = append(l.parts, part)
			} else {
				l.denyForms = append(l.denyForms, text)
			}
			l.addSource(line.text, depth+1)
			return
		}
		if w.onlyScript {
			l.parts = append(l.parts, part)
			return
		}
		if inner, own, ok := w.unwrap(words[1:]); ok {
			if inner == nil {
				// The wrapper hides the command (env -S, an option given
				// as $VAR): unknown.
				l.addUnknown(part, words)
				return
			}
			if own {
				l.parts = append(l.parts, part)
			} else {
				l.denyForms = append(l.denyForms, text)
			}
			if name == "xargs" {
				// Words holding xargs's replace-string are what it reads.
				inner = runtimeWords(inner, xargsReplace(words[1:len(words)-len(inner)]))
			}
			l.addCommand(env, inner, depth)
			return
		}
	}
	l.parts = append(l.parts, part)
}

// addTails lets deny rules see each tail of words that starts with a
// fixed word other than an option.
func (l *shellLine) addTails(words []word) {
	for i, w := range words {
		if w.fixed && w.text != "" && w.text[0] != '-' {
			l.denyForms = append(l.denyForms, joinWords(nil, words[i:]))
		}
	}
}

// addUnknown records a command whose program is known only at run time.
// Deny rules also see every tail of its words that starts with a fixed
// word, so `$SUDO rm x` and `sudo $OPTS rm x` are still seen to run rm.
func (l *shellLine) addUnknown(part shellPart, words []word) {
	part.unknown = true
	l.parts = append(l.parts, part)
	for i := 1; i < len(words); i++ {
		if words[i].fixed {
			l.denyForms = append(l.denyForms, joinWords(nil, words[i:]))
		}
	}
}

// writesFile reports a redirection that writes to a file. Duplicating or
// closing a descriptor (2>&1, >&-) and the terminal's own files
// (/dev/null, /dev/stderr) are not writes.
func writesFile(src string, r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.RdrClob, syntax.AppClob,
		syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
	case syntax.DplOut:
		// >&2 and >&- duplicate or close; bash reads >&file as &>file.
		t := wordOf(src, r.Word)
		if t.fixed && (t.text == "-" || isDigits(t.text)) {
			return false
		}
	default:
		return false
	}
	t := wordOf(src, r.Word)
	if !t.fixed || t.pattern {
		return true
	}
	switch t.text {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2":
		return false
	}
	return true
}
