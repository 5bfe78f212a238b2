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
	"BASH_ALIASES": true, "BASH_CMDS": true,
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
