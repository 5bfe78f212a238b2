package runcode

import (
	"fmt"
	"strconv"
	"strings"

	"go.starlark.net/syntax"
)

// A program is rewritten before it is compiled so that the operators and
// methods that can allocate much in one step go through guarded builtins
// (see memory): x * y becomes _llmrt_mul(x, y), x += y becomes
// x = _llmrt_iadd(x, y), s.replace(a, b) becomes
// _llmrt_method(s, "replace", a, b). The guards charge what the result
// will take, then do exactly what Starlark does.
//
// An augmented assignment to an element or a field (a[k] *= 2) evaluates
// a and k twice; Starlark evaluates them once. Nothing else changes.

// guardPrefix starts the names of the guards; a program may not use it.
const guardPrefix = "_llmrt_"

// Names of the guards a rewritten program calls.
const (
	guardMul    = guardPrefix + "mul"
	guardAdd    = guardPrefix + "add"
	guardMod    = guardPrefix + "mod"
	guardIMul   = guardPrefix + "imul"
	guardIAdd   = guardPrefix + "iadd"
	guardIMod   = guardPrefix + "imod"
	guardMethod = guardPrefix + "method"
)

// binaryGuards and augmentedGuards name the guard of each operator.
var (
	binaryGuards    = map[syntax.Token]string{syntax.STAR: guardMul, syntax.PLUS: guardAdd, syntax.PERCENT: guardMod}
	augmentedGuards = map[syntax.Token]string{syntax.STAR_EQ: guardIMul, syntax.PLUS_EQ: guardIAdd, syntax.PERCENT_EQ: guardIMod}
)

// guardedMethods are the methods whose calls go through guardMethod.
var guardedMethods = map[string]bool{
	"replace": true, "join": true, "split": true, "rsplit": true, "splitlines": true, "format": true,
	"extend": true, "update": true, "union": true,
}

// guardProgram rewrites f in place (see above). It refuses a program
// that uses a guard's name itself.
func guardProgram(f *syntax.File) error {
	var err error
	for _, s := range f.Stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Ident:
				if strings.HasPrefix(n.Name, guardPrefix) {
					err = syntax.Error{Pos: n.NamePos, Msg: fmt.Sprintf("names starting with %s are reserved", guardPrefix)}
				}
			case *syntax.AssignStmt:
				if _, ok := augmentedGuards[n.Op]; ok && !cloneable(n.LHS) {
					err = syntax.Error{Pos: n.OpPos, Msg: fmt.Sprintf("write this as x = x %s y: the target of an augmented assignment may not hold a comprehension, lambda or dict", strings.TrimSuffix(n.Op.String(), "="))}
				}
			}
			return err == nil
		})
		if err != nil {
			return err
		}
	}
	f.Stmts = guardStmts(f.Stmts)
	return nil
}

func guardStmts(stmts []syntax.Stmt) []syntax.Stmt {
	for i, s := range stmts {
		stmts[i] = guardStmt(s)
	}
	return stmts
}

func guardStmt(s syntax.Stmt) syntax.Stmt {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		s.RHS = guardExpr(s.RHS)
		if name, ok := augmentedGuards[s.Op]; ok {
			use := cloneExpr(s.LHS)
			s.LHS = guardTarget(s.LHS)
			s.RHS = guardCall(name, s.OpPos, guardTarget(use), s.RHS)
			s.Op = syntax.EQ
			return s
		}
		s.LHS = guardTarget(s.LHS)
	case *syntax.DefStmt:
		s.Params = guardParams(s.Params)
		s.Body = guardStmts(s.Body)
	case *syntax.ExprStmt:
		s.X = guardExpr(s.X)
	case *syntax.ForStmt:
		s.Vars, s.X = guardTarget(s.Vars), guardExpr(s.X)
		s.Body = guardStmts(s.Body)
	case *syntax.WhileStmt:
		s.Cond = guardExpr(s.Cond)
		s.Body = guardStmts(s.Body)
	case *syntax.IfStmt:
		s.Cond = guardExpr(s.Cond)
		s.True, s.False = guardStmts(s.True), guardStmts(s.False)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = guardExpr(s.Result)
		}
	}
	return s
}

// guardTarget guards the expressions inside an assignment's target (the
// index of a[i * 2] = x), not the target itself.
func guardTarget(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.IndexExpr:
		e.X, e.Y = guardExpr(e.X), guardExpr(e.Y)
	case *syntax.DotExpr:
		e.X = guardExpr(e.X)
	case *syntax.TupleExpr:
		for i, x := range e.List {
			e.List[i] = guardTarget(x)
		}
	case *syntax.ListExpr:
		for i, x := range e.List {
			e.List[i] = guardTarget(x)
		}
	case *syntax.ParenExpr:
		e.X = guardTarget(e.X)
	}
	return e
}

// guardParams guards the default values of a function's parameters.
func guardParams(params []syntax.Expr) []syntax.Expr {
	for _, p := range params {
		if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
			b.Y = guardExpr(b.Y)
		}
	}
	return params
}

func guardExprs(es []syntax.Expr) []syntax.Expr {
	for i, e := range es {
		es[i] = guardExpr(e)
	}
	return es
}

// guardArgs guards a call's arguments: the values of keyword arguments,
// not their names.
func guardArgs(args []syntax.Expr) []syntax.Expr {
	for i, a := range args {
		if b, ok := a.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
			b.Y = guardExpr(b.Y)
			continue
		}
		args[i] = guardExpr(a)
	}
	return args
}

func guardExpr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.BinaryExpr:
		e.X, e.Y = guardExpr(e.X), guardExpr(e.Y)
		if name, ok := binaryGuards[e.Op]; ok {
			return guardCall(name, e.OpPos, e.X, e.Y)
		}
	case *syntax.CallExpr:
		e.Args = guardArgs(e.Args)
		if dot, ok := e.Fn.(*syntax.DotExpr); ok && guardedMethods[dot.Name.Name] {
			name := &syntax.Literal{Token: syntax.STRING, TokenPos: dot.NamePos, Raw: strconv.Quote(dot.Name.Name), Value: dot.Name.Name}
			call := guardCall(guardMethod, e.Lparen, guardExpr(dot.X), name)
			call.Args = append(call.Args, e.Args...)
			call.Rparen = e.Rparen
			return call
		}
		e.Fn = guardExpr(e.Fn)
	case *syntax.Comprehension:
		e.Body = guardExpr(e.Body)
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				c.Vars, c.X = guardTarget(c.Vars), guardExpr(c.X)
			case *syntax.IfClause:
				c.Cond = guardExpr(c.Cond)
			}
		}
	case *syntax.CondExpr:
		e.Cond, e.True, e.False = guardExpr(e.Cond), guardExpr(e.True), guardExpr(e.False)
	case *syntax.DictExpr:
		for _, entry := range e.List {
			if d, ok := entry.(*syntax.DictEntry); ok {
				d.Key, d.Value = guardExpr(d.Key), guardExpr(d.Value)
			}
		}
	case *syntax.DotExpr:
		e.X = guardExpr(e.X)
	case *syntax.IndexExpr:
		e.X, e.Y = guardExpr(e.X), guardExpr(e.Y)
	case *syntax.LambdaExpr:
		e.Params = guardParams(e.Params)
		e.Body = guardExpr(e.Body)
	case *syntax.ListExpr:
		e.List = guardExprs(e.List)
	case *syntax.TupleExpr:
		e.List = guardExprs(e.List)
	case *syntax.ParenExpr:
		e.X = guardExpr(e.X)
	case *syntax.SliceExpr:
		e.X = guardExpr(e.X)
		for _, p := range []*syntax.Expr{&e.Lo, &e.Hi, &e.Step} {
			if *p != nil {
				*p = guardExpr(*p)
			}
		}
	case *syntax.UnaryExpr:
		if e.X != nil {
			e.X = guardExpr(e.X)
		}
	}
	return e
}

// guardCall is a call of the guard name at pos (where an error in it is
// reported) with args.
func guardCall(name string, pos syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: name}, Lparen: pos, Args: args, Rparen: pos}
}

// cloneable reports whether cloneExpr can copy e: it holds no
// comprehension, lambda or dict, which bind names or are never targets.
func cloneable(e syntax.Expr) bool {
	ok := true
	syntax.Walk(e, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.Comprehension, *syntax.LambdaExpr, *syntax.DictExpr:
			ok = false
		}
		return ok
	})
	return ok
}

// cloneExpr copies an assignment target (cloneable), for the augmented
// assignment's use of it: the resolver annotates each identifier, so the
// two may not share nodes.
func cloneExpr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.Ident:
		return &syntax.Ident{NamePos: e.NamePos, Name: e.Name}
	case *syntax.IndexExpr:
		return &syntax.IndexExpr{X: cloneExpr(e.X), Lbrack: e.Lbrack, Y: cloneExpr(e.Y), Rbrack: e.Rbrack}
	case *syntax.DotExpr:
		return &syntax.DotExpr{X: cloneExpr(e.X), Dot: e.Dot, NamePos: e.NamePos, Name: &syntax.Ident{NamePos: e.Name.NamePos, Name: e.Name.Name}}
	case *syntax.ParenExpr:
		return &syntax.ParenExpr{Lparen: e.Lparen, X: cloneExpr(e.X), Rparen: e.Rparen}
	case *syntax.Literal:
		c := *e
		return &c
	case *syntax.BinaryExpr:
		return &syntax.BinaryExpr{X: cloneExpr(e.X), OpPos: e.OpPos, Op: e.Op, Y: cloneExpr(e.Y)}
	case *syntax.UnaryExpr:
		c := &syntax.UnaryExpr{OpPos: e.OpPos, Op: e.Op}
		if e.X != nil {
			c.X = cloneExpr(e.X)
		}
		return c
	case *syntax.CallExpr:
		return &syntax.CallExpr{Fn: cloneExpr(e.Fn), Lparen: e.Lparen, Args: cloneExprs(e.Args), Rparen: e.Rparen}
	case *syntax.TupleExpr:
		return &syntax.TupleExpr{Lparen: e.Lparen, List: cloneExprs(e.List), Rparen: e.Rparen}
	case *syntax.ListExpr:
		return &syntax.ListExpr{Lbrack: e.Lbrack, List: cloneExprs(e.List), Rbrack: e.Rbrack}
	case *syntax.SliceExpr:
		c := &syntax.SliceExpr{X: cloneExpr(e.X), Lbrack: e.Lbrack, Rbrack: e.Rbrack}
		c.Lo, c.Hi, c.Step = cloneOptional(e.Lo), cloneOptional(e.Hi), cloneOptional(e.Step)
		return c
	case *syntax.CondExpr:
		return &syntax.CondExpr{If: e.If, Cond: cloneExpr(e.Cond), True: cloneExpr(e.True), ElsePos: e.ElsePos, False: cloneExpr(e.False)}
	}
	return e // not reached for a cloneable expression
}

func cloneExprs(es []syntax.Expr) []syntax.Expr {
	out := make([]syntax.Expr, len(es))
	for i, e := range es {
		out[i] = cloneExpr(e)
	}
	return out
}

func cloneOptional(e syntax.Expr) syntax.Expr {
	if e == nil {
		return nil
	}
	return cloneExpr(e)
}
