package policy

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash reads some values again, as code. Arithmetic ($((x)), ((x)), let,
// for ((...)), [[ x -eq y ]], array subscripts, ${s:offset}, integer
// variables) evaluates a variable's value as an expression, and an array
// subscript in that expression runs the $(...) it holds:
// x='a[$(rm f)]'; echo $((x)) runs rm. So do variable names given as
// values (printf -v, read, unset, [[ -v ]], ${!x}, declare -n), prompt
// strings (PS4 under set -x, ${x@P}) and BASH_ENV. A line that hands bash
// such a value without its being plainly known is "unknown": the rules
// cannot see what it runs.

// values follows the variables of a line far enough to tell which uses
// of them bash may run as code.
type values struct {
	// tainted maps a variable the line assigns to whether any value it
	// gets may hold code: anything but plain text, numbers and arithmetic.
	tainted map[string]bool
	// ints are the variables declared integer (declare -i): every value
	// given to them is evaluated as arithmetic.
	ints map[string]bool
	sets []valueSet
	uses []valueUse
	// positional: $1, $@ ... may hold anything, as the line defines
	// functions or sets them. sourced: the line sources a file, which
	// may give any variable any value.
	positional, sourced bool
	// env reports ENV set, and interactive an interactive shell (sh -i),
	// which reads $ENV as a script: together, a script the rules cannot
	// see. ENV alone is a common variable (ENV=prod).
	env, interactive bool
	// why is the first reason found that needs no variable's history.
	why string
}

// valueSet is one assignment: plain reports a value that is known text
// without $, ` or brackets, a number, or the result of arithmetic.
type valueSet struct {
	name  string
	plain bool
}

// valueUse is a variable whose value bash evaluates as code.
type valueUse struct {
	name  string
	depth int
	how   string
}

func (v *values) set(name string, plain bool) {
	v.env = v.env || name == "ENV"
	if v.tainted == nil {
		v.tainted = make(map[string]bool)
	}
	v.tainted[name] = v.tainted[name] || !plain
	v.sets = append(v.sets, valueSet{name: name, plain: plain})
}

func (v *values) use(name string, depth int, how string) {
	v.uses = append(v.uses, valueUse{name: name, depth: depth, how: how})
}

func (v *values) fail(why string) {
	if v.why == "" {
		v.why = why
	}
}

// check returns why the line is unknown, or "".
func (v *values) check() string {
	if v.why != "" {
		return v.why
	}
	if v.env && v.interactive {
		return "it sets ENV and starts an interactive shell, which reads $ENV as a script first"
	}
	for _, s := range v.sets {
		if v.ints[s.name] && !s.plain {
			return fmt.Sprintf("%s is an integer variable, so bash evaluates the value given to it as arithmetic, which can run commands", s.name)
		}
	}
	for _, u := range v.uses {
		if v.mayHoldCode(u.name, u.depth) {
			return fmt.Sprintf("bash evaluates the value of %s %s, which can run the commands in it, and that value is known only when the line runs", displayVar(u.name), u.how)
		}
	}
	return ""
}

func displayVar(name string) string {
	if name == "@" || name == "*" || isDigits(name) {
		return "$" + name
	}
	return name
}

// mayHoldCode reports a variable whose value at run time may be more than
// plain text or a number. Variables the line never assigns come from the
// environment llmrt gives commands, which the model does not write.
func (v *values) mayHoldCode(name string, depth int) bool {
	switch name {
	case "#", "?", "$", "!", "0", "-":
		return false
	}
	if v.sourced {
		return true
	}
	if t, ok := v.tainted[name]; ok {
		return t
	}
	if name == "@" || name == "*" || isDigits(name) {
		return v.positional || depth > 0
	}
	return dynamicVars[name]
}

// dynamicVars are set by bash from what commands read or print.
var dynamicVars = map[string]bool{
	"_": true, "PWD": true, "OLDPWD": true, "REPLY": true, "MAPFILE": true, "OPTARG": true,
	"BASH_REMATCH": true, "BASH_ARGV": true, "BASH_COMMAND": true, "COMPREPLY": true,
	"READLINE_LINE": true, "DIRSTACK": true, "FUNCNAME": true, "BASH_SOURCE": true,
}

// codeVar says why assigning a variable runs code, or "" when it does
// not: bash sources $BASH_ENV before a script, imports BASH_FUNC_name%%
// as a function, and expands PS4 (under set -x) and the prompts, $(...)
// included. ENV, read only by interactive shells, is left to check.
func codeVar(name string, plain bool) string {
	switch {
	case name == "BASH_ENV":
		return "it sets BASH_ENV, a script every bash it starts reads first"
	case strings.HasPrefix(name, "BASH_FUNC_"):
		return fmt.Sprintf("it sets %s, which a bash it starts imports as a function", name)
	case name == "PROMPT_COMMAND":
		return "it sets PROMPT_COMMAND, which bash runs before a prompt"
	case !plain && (name == "PS0" || name == "PS1" || name == "PS2" || name == "PS3" || name == "PS4"):
		return fmt.Sprintf("it sets %s, which bash expands, running any $(...) in it, when it prompts or traces", name)
	}
	return ""
}

// noteAssign records an assignment (x=v, x+=v, x=(a b), a[i]=v, and the
// ones of declare, export, local, readonly and typeset).
func (l *shellLine) noteAssign(a *syntax.Assign) {
	if a.Naked || a.Name == nil {
		return
	}
	plain := a.Value == nil || plainValue(a.Value)
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			plain = plain && (e.Value == nil || plainValue(e.Value))
		}
	}
	if why := codeVar(a.Name.Value, plain); why != "" {
		l.values.fail(why)
	}
	l.values.set(a.Name.Value, plain)
}

// noteDecl records what a declare-like builtin does beyond assigning:
// integer variables (-i) evaluate their values, namerefs (-n) name a
// variable, and a name given by an expansion is known only at run time.
func (l *shellLine) noteDecl(src string, d *syntax.DeclClause) {
	integer, nameref := false, false
	for _, a := range d.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			w := wordOf(src, a.Value)
			if w.fixed && strings.HasPrefix(w.text, "-") {
				integer = integer || strings.ContainsRune(w.text, 'i')
				nameref = nameref || strings.ContainsRune(w.text, 'n')
				continue
			}
			// declare "$name=value": the name is decided when it runs.
			l.values.fail(fmt.Sprintf("%s is given a variable name known only when the line runs", d.Variant.Value))
			continue
		}
		if a.Name == nil {
			continue
		}
		if integer {
			if l.values.ints == nil {
				l.values.ints = make(map[string]bool)
			}
			l.values.ints[a.Name.Value] = true
		}
		if nameref {
			// A nameref reads the variable it names: what that holds is
			// not followed here.
			l.values.set(a.Name.Value, false)
			if a.Value != nil {
				l.nameWord(wordOf(src, a.Value), d.Variant.Value+" -n", false)
			}
		}
	}
}

// nameWord checks a word bash takes as a variable name: a subscript in
// it is evaluated, so it must be plain. assigns: the builtin gives the
// variable a value read at run time.
func (l *shellLine) nameWord(w word, what string, assigns bool) {
	switch {
	case !w.fixed:
		l.values.fail(fmt.Sprintf("%s is given a variable name known only when the line runs", what))
	case strings.ContainsAny(w.text, "$`") || strings.Contains(w.text, "[") && !plainSubscript(w.text):
		l.values.fail(fmt.Sprintf("%s is given the variable name %q, whose subscript bash evaluates as code", what, w.text))
	default:
		name, _, _ := strings.Cut(w.text, "[")
		if !assigns {
			return
		}
		if why := codeVar(name, false); why != "" {
			l.values.fail(why)
		}
		l.values.set(name, false)
	}
}

// plainSubscript reports name[digits].
func plainSubscript(s string) bool {
	_, sub, _ := strings.Cut(s, "[")
	return strings.HasSuffix(sub, "]") && isDigits(strings.TrimSuffix(sub, "]"))
}

// plainValue reports a value that cannot hold code: text without $, `
// or brackets, arithmetic, or a length.
func plainValue(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if !plainPart(p) {
			return false
		}
	}
	return true
}

func plainPart(p syntax.WordPart) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		return !strings.ContainsAny(p.Value, "$`[]")
	case *syntax.SglQuoted:
		return !p.Dollar && !strings.ContainsAny(p.Value, "$`[]")
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			if !plainPart(q) {
				return false
			}
		}
		return true
	case *syntax.ArithmExp:
		return true
	case *syntax.ParamExp:
		return p.Length
	}
	return false
}

// arith records the variables an arithmetic expression (or a word bash
// evaluates as one) reads: every name in its text, quoted or not, and
// every expansion. The output of a command in it, an indirect value
// (${!x}) or a $ in quoted text is evaluated too, and cannot be
// followed here.
func (l *shellLine) arith(src string, n syntax.Node, depth int, how string) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Lit:
			l.arithText(n.Value, depth, how)
		case *syntax.SglQuoted:
			l.arithText(n.Value, depth, how)
		case *syntax.ParamExp:
			if n.Excl {
				l.values.fail("bash evaluates an indirect value (${!...}) as arithmetic, which can run the commands in it")
			}
			if n.Param != nil && !n.Length {
				l.values.use(n.Param.Value, depth, how)
			}
			// The name itself is not a variable read as arithmetic.
			if n.Index != nil {
				l.arith(src, n.Index, depth, how)
			}
			if n.Exp != nil && n.Exp.Word != nil {
				l.arith(src, n.Exp.Word, depth, how)
			}
			if n.Slice != nil {
				l.arith(src, n.Slice.Offset, depth, how)
				l.arith(src, n.Slice.Length, depth, how)
			}
			return false
		case *syntax.CmdSubst, *syntax.ProcSubst:
			l.values.fail("bash evaluates the output of a command as arithmetic, which can run the commands in it")
			return false
		}
		return true
	})
}

// arithText records the names in literal text bash evaluates as
// arithmetic; a $ or ` in it is expanded again in a subscript.
func (l *shellLine) arithText(text string, depth int, how string) {
	if strings.ContainsAny(text, "$`") {
		l.values.fail(fmt.Sprintf("bash evaluates the text %q as arithmetic, which runs the commands in it", text))
		return
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			// A number, in any base (0x1f, 2#101, 64#_a).
			for i < len(text) && (isNameByte(text[i]) || text[i] == '#' || text[i] == '@') {
				i++
			}
		case isNameByte(c):
			j := i
			for j < len(text) && isNameByte(text[j]) {
				j++
			}
			l.values.use(text[i:j], depth, how)
			i = j
		default:
			i++
		}
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// paramExp records what a parameter expansion evaluates: its subscript
// and slice as arithmetic, ${!x} the value of x as a name, ${x@P} the
// value of x as a prompt.
func (l *shellLine) paramExp(src string, p *syntax.ParamExp, depth int) {
	if p.Index != nil {
		l.arith(src, p.Index, depth, "as an array subscript")
	}
	if p.Slice != nil {
		l.arith(src, p.Slice.Offset, depth, "as arithmetic")
		l.arith(src, p.Slice.Length, depth, "as arithmetic")
	}
	if p.Param == nil {
		return
	}
	if p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) {
		// ${x:=value} assigns x.
		plain := p.Exp.Word == nil || plainValue(p.Exp.Word)
		if why := codeVar(p.Param.Value, plain); why != "" {
			l.values.fail(why)
		}
		l.values.set(p.Param.Value, plain)
	}
	if p.Excl && p.Index == nil && p.Names == 0 {
		l.values.use(p.Param.Value, depth, "as a variable name (${!...})")
	}
	if p.Exp != nil && p.Exp.Op == syntax.OtherParamOps && p.Exp.Word != nil && strings.Contains(p.Exp.Word.Lit(), "P") {
		l.values.use(p.Param.Value, depth, "as a prompt (${...@P})")
	}
}

// noteValueNode records what one node of a line does with values.
func (l *shellLine) noteValueNode(src string, n syntax.Node, depth int) {
	switch n := n.(type) {
	case *syntax.Assign:
		l.noteAssign(n)
		if n.Index != nil {
			l.arith(src, n.Index, depth, "as an array subscript")
		}
	case *syntax.ArrayElem:
		if n.Index != nil {
			l.arith(src, n.Index, depth, "as an array subscript")
		}
	case *syntax.DeclClause:
		l.noteDecl(src, n)
	case *syntax.ArithmExp:
		l.arith(src, n.X, depth, "as arithmetic")
	case *syntax.ArithmCmd:
		l.arith(src, n.X, depth, "as arithmetic")
	case *syntax.LetClause:
		for _, e := range n.Exprs {
			l.arith(src, e, depth, "as arithmetic")
		}
	case *syntax.CStyleLoop:
		l.arith(src, n.Init, depth, "as arithmetic")
		l.arith(src, n.Cond, depth, "as arithmetic")
		l.arith(src, n.Post, depth, "as arithmetic")
	case *syntax.ParamExp:
		l.paramExp(src, n, depth)
	case *syntax.BinaryTest:
		switch n.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			l.arith(src, n.X, depth, "as arithmetic")
			l.arith(src, n.Y, depth, "as arithmetic")
		}
	case *syntax.UnaryTest:
		if n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar {
			if w, ok := n.X.(*syntax.Word); ok {
				l.nameWord(wordOf(src, w), "[[ "+n.Op.String()+" ]]", false)
			}
		}
	case *syntax.WordIter:
		plain := len(n.Items) > 0
		for _, w := range n.Items {
			plain = plain && plainValue(w) && !wordOf(src, w).pattern
		}
		l.values.set(n.Name.Value, plain)
	case *syntax.FuncDecl:
		l.values.positional = true
	}
}

// noteValueBuiltin records the builtins that assign the variables named
// in their arguments from what they read (read, mapfile, printf -v,
// getopts, wait -p), test whether a named variable is set (test -v), or
// evaluate a value (compgen -W); a callback given as text (mapfile -C,
// compgen -C) is read as a line of its own.
func (l *shellLine) noteValueBuiltin(name string, words []word, depth int) {
	args := words[1:]
	switch name {
	case "read":
		for i := 0; i < len(args); i++ {
			t := args[i].text
			switch {
			case t == "-a" && i+1 < len(args):
				i++
				l.nameWord(args[i], "read -a", true)
			case len(t) > 1 && t[0] == '-' && args[i].fixed:
				if last := t[len(t)-1]; strings.IndexByte("dinNptu", last) >= 0 && i+1 < len(args) {
					i++
				}
			default:
				l.nameWord(args[i], "read", true)
			}
		}
	case "mapfile", "readarray":
		for i := 0; i < len(args); i++ {
			t := args[i].text
			switch {
			case t == "-C" && i+1 < len(args):
				i++
				// The callback runs as `callback index line`, the line
				// read at run time.
				if !args[i].fixed {
					l.values.fail(name + " -C is given a callback known only when the line runs")
				} else {
					l.addSource(args[i].text+` "$1" "$2"`, depth+1)
				}
			case len(t) > 1 && t[0] == '-' && args[i].fixed:
				if last := t[len(t)-1]; strings.IndexByte("dnOsuc", last) >= 0 && i+1 < len(args) {
					i++
				}
			default:
				l.nameWord(args[i], name, true)
			}
		}
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
		for i := 0; i+1 < len(args); i++ {
			switch args[i].text {
			case "-W":
				// The word list is expanded again, $(...) included.
				if w := args[i+1]; !w.fixed || strings.ContainsAny(w.text, "$`") {
					l.values.fail(name + " -W expands its word list again, running any $(...) in it")
				}
			case "-C":
				if !args[i+1].fixed {
					l.values.fail(name + " -C is given a command known only when the line runs")
				} else {
					l.addSource(args[i+1].text, depth+1)
				}
			}
		}
	case "sudo":
		// sudo NAME=value cmd sets the variable, when sudoers lets it.
		for _, a := range args {
			if n, v, ok := strings.Cut(a.text, "="); ok && isName(n) {
				plain := a.fixed && !strings.ContainsAny(v, "$`[]")
				if why := codeVar(n, plain); why != "" {
					l.values.fail(why)
				}
				l.values.set(n, plain)
			}
		}
	case "env":
		// env's NAME=value words before the command: any word with '='.
		for i := 0; i < len(args); i++ {
			a := args[i]
			if !strings.Contains(a.text, "=") {
				switch a.text {
				case "-u", "-C", "-S", "--unset", "--chdir", "--split-string":
					i++
					continue
				}
				if strings.HasPrefix(a.text, "-") {
					continue
				}
				break
			}
			n, v, _ := strings.Cut(a.text, "=")
			plain := a.fixed && !strings.ContainsAny(v, "$`[]")
			if why := codeVar(n, plain); why != "" {
				l.values.fail(why)
			}
			l.values.set(n, plain)
		}
	case "set":
		// set -- a b, or set a b, gives the positional parameters values.
		for i := 0; i < len(args); i++ {
			t := args[i].text
			switch {
			case t == "--" || !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+"):
				l.values.positional = true
				return
			case strings.HasSuffix(t, "o"):
				i++
			}
		}
	}
}

// isName reports a shell variable name.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
