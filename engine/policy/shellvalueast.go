package policy

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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
