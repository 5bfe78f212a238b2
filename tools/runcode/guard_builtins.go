package runcode

import (
	"math"
	"math/bits"
	"strings"

	starjson "go.starlark.net/lib/json"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// Sizes the guards charge, roughly what Go takes for them: a value in a
// list or tuple (an interface), a string split out of another (its header
// boxed, the bytes shared), an entry of a dict or set, a pair of
// enumerate.
const (
	valueSize = 16
	pieceSize = 32
	entrySize = 64
	pairSize  = 48
)

// guards returns the builtins of a guarded program that charge m: the
// guards the rewritten program calls, and in place of Starlark's own, the
// builtins that size their result from their argument (list, sorted, ...)
// or render values (str, print, json.encode, ...).
func guards(m *memory) starlark.StringDict {
	d := starlark.StringDict{
		guardMul:    operator(m, syntax.STAR),
		guardAdd:    operator(m, syntax.PLUS),
		guardMod:    operator(m, syntax.PERCENT),
		guardIMul:   operator(m, syntax.STAR),
		guardIAdd:   inplaceAdd(m),
		guardIMod:   operator(m, syntax.PERCENT),
		guardMethod: method(m),
	}
	for name, per := range map[string]uint64{"list": valueSize, "tuple": valueSize, "sorted": valueSize, "reversed": valueSize,
		"set": entrySize, "dict": entrySize, "enumerate": pairSize, "zip": pairSize} {
		d[name] = sized(m, name, per)
	}
	for _, name := range []string{"str", "repr", "print"} {
		d[name] = rendering(m, name, starlark.Universe[name], 1)
	}
	members := starlark.StringDict{}
	for name, v := range starjson.Module.Members {
		members[name] = v
	}
	members["encode"] = rendering(m, "json.encode", members["encode"], 1)
	members["encode_indent"] = rendering(m, "json.encode_indent", members["encode_indent"], 4)
	members["indent"] = rendering(m, "json.indent", members["indent"], 4)
	d["json"] = &starlarkstruct.Module{Name: "json", Members: members}
	return d
}

// operator is the guard of a binary operator: it charges the size of x op
// y, then computes it as Starlark does.
func operator(m *memory, op syntax.Token) *starlark.Builtin {
	return starlark.NewBuiltin(op.String(), func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		x, y := args[0], args[1]
		if err := m.charge(operatorSize(op, x, y, m.limit)); err != nil {
			return nil, err
		}
		return starlark.Binary(op, x, y)
	})
}

// inplaceAdd is the guard of x += y: a list is extended in place, as
// Starlark does; anything else is x + y.
func inplaceAdd(m *memory) *starlark.Builtin {
	return starlark.NewBuiltin("+=", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		x, y := args[0], args[1]
		if list, ok := x.(*starlark.List); ok {
			if _, ok := y.(starlark.Iterable); ok {
				if err := m.charge(times(uint64(max(starlark.Len(y), 0)), valueSize)); err != nil {
					return nil, err
				}
				extend, err := list.Attr("extend")
				if err != nil {
					return nil, err
				}
				if _, err := starlark.Call(thread, extend, starlark.Tuple{y}, nil); err != nil {
					return nil, err
				}
				return list, nil
			}
		}
		if err := m.charge(operatorSize(syntax.PLUS, x, y, m.limit)); err != nil {
			return nil, err
		}
		return starlark.Binary(syntax.PLUS, x, y)
	})
}

// operatorSize is what x op y allocates, 0 when it is small or unknown.
func operatorSize(op syntax.Token, x, y starlark.Value, limit uint64) uint64 {
	switch op {
	case syntax.STAR:
		if n, ok := y.(starlark.Int); ok {
			if size, ok := repeatSize(x, n); ok {
				return size
			}
		}
		if n, ok := x.(starlark.Int); ok {
			if size, ok := repeatSize(y, n); ok {
				return size
			}
			if m, ok := y.(starlark.Int); ok {
				return (intBits(n) + intBits(m)) / 8
			}
		}
	case syntax.PLUS:
		return lenOf(x) + lenOf(y)
	case syntax.PERCENT:
		if s, ok := x.(starlark.String); ok {
			return uint64(len(s)) + rendered(y, limit)
		}
	}
	return 0
}

// repeatSize is what seq * n allocates; ok is false when seq is not a
// sequence that repeats.
func repeatSize(seq starlark.Value, n starlark.Int) (uint64, bool) {
	switch seq.(type) {
	case starlark.String, starlark.Bytes, *starlark.List, starlark.Tuple:
	default:
		return 0, false
	}
	k, ok := n.Int64()
	switch {
	case !ok && n.Sign() > 0:
		return math.MaxUint64, true
	case k <= 0:
		return 0, true
	}
	return times(lenOf(seq), uint64(k)), true
}

// lenOf is the size of a string's bytes or a list's or tuple's values.
func lenOf(v starlark.Value) uint64 {
	switch v := v.(type) {
	case starlark.String:
		return uint64(len(v))
	case starlark.Bytes:
		return uint64(len(v))
	case *starlark.List:
		return uint64(v.Len()) * valueSize
	case starlark.Tuple:
		return uint64(len(v)) * valueSize
	}
	return 0
}

// intBits is the length of i in bits.
func intBits(i starlark.Int) uint64 {
	if v, ok := i.Int64(); ok {
		if v < 0 {
			v = -v
		}
		return uint64(bits.Len64(uint64(v)))
	}
	return uint64(i.BigInt().BitLen())
}

// times is a*b, or the largest uint64 when that overflows.
func times(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

// sized stands for Starlark's builtin name, whose result holds per bytes
// for each element of its argument: it charges them first.
func sized(m *memory, name string, per uint64) *starlark.Builtin {
	orig := starlark.Universe[name]
	return starlark.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		n := -1
		for _, a := range args {
			if l := starlark.Len(a); l >= 0 && (n < 0 || l < n || name != "zip") {
				n = l
			}
		}
		if err := m.charge(times(uint64(max(n, 0)+len(kwargs)), per)); err != nil {
			return nil, err
		}
		return starlark.Call(thread, orig, args, kwargs)
	})
}

// rendering stands for orig, which renders its arguments as text: it
// charges factor times the size of that text first.
func rendering(m *memory, name string, orig starlark.Value, factor uint64) *starlark.Builtin {
	return starlark.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var n uint64
		for _, a := range args {
			n += rendered(a, m.limit)
		}
		if err := m.charge(times(n, factor)); err != nil {
			return nil, err
		}
		return starlark.Call(thread, orig, args, kwargs)
	})
}

// method is the guard of a call of a method that can allocate much:
// _llmrt_method(x, name, args...) charges the result's size, then calls
// x.name(args...).
func method(m *memory) *starlark.Builtin {
	return starlark.NewBuiltin("method", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		recv, name, rest := args[0], string(args[1].(starlark.String)), args[2:]
		fn, err := attr(recv, name)
		if err != nil {
			return nil, err
		}
		if err := m.charge(methodSize(recv, name, rest, kwargs, m.limit)); err != nil {
			return nil, err
		}
		return starlark.Call(thread, fn, rest, kwargs)
	})
}

// attr is x.name, failing as Starlark's x.name does.
func attr(x starlark.Value, name string) (starlark.Value, error) {
	if h, ok := x.(starlark.HasAttrs); ok {
		v, err := h.Attr(name)
		if nsa, ok := err.(starlark.NoSuchAttrError); ok {
			return nil, nsa
		}
		if err != nil || v != nil {
			return v, err
		}
	}
	return nil, starlark.NoSuchAttrError(x.Type() + " has no ." + name + " field or method")
}

// methodSize is what x.name(args) allocates, 0 when small or unknown.
func methodSize(x starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple, limit uint64) uint64 {
	arg := func(i int, key string) starlark.Value {
		for _, kv := range kwargs {
			if string(kv[0].(starlark.String)) == key {
				return kv[1]
			}
		}
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	if s, ok := x.(starlark.String); ok {
		return stringMethodSize(string(s), name, arg, args, kwargs, limit)
	}
	var n uint64
	switch name {
	case "extend", "update", "union":
		for _, a := range args {
			n += uint64(max(starlark.Len(a), 0))
		}
		return times(n+uint64(len(kwargs)), entrySize)
	}
	return 0
}

// stringMethodSize is methodSize for a string's methods.
func stringMethodSize(s, name string, arg func(int, string) starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple, limit uint64) uint64 {
	str := func(v starlark.Value) (string, bool) {
		t, ok := v.(starlark.String)
		return string(t), ok
	}
	switch name {
	case "replace":
		old, ok1 := str(arg(0, "old"))
		repl, ok2 := str(arg(1, "new"))
		if !ok1 || !ok2 || len(repl) <= len(old) {
			return 0
		}
		n := uint64(strings.Count(s, old))
		if c, ok := arg(2, "count").(starlark.Int); ok {
			if k, ok := c.Int64(); ok && k >= 0 {
				n = min(n, uint64(k))
			}
		}
		return uint64(len(s)) + times(n, uint64(len(repl)-len(old)))
	case "split", "rsplit", "splitlines":
		pieces := uint64(len(s)/2 + 1) // split on whitespace: at most every other byte
		if sep, ok := str(arg(0, "sep")); ok && sep != "" && name != "splitlines" {
			pieces = uint64(strings.Count(s, sep) + 1)
		} else if name == "splitlines" {
			pieces = uint64(strings.Count(s, "\n") + 1)
		}
		return times(pieces, pieceSize)
	case "join":
		if len(args) == 0 {
			return 0
		}
		n, count := uint64(0), uint64(0)
		iter := starlark.Iterate(args[0])
		if iter == nil {
			return 0
		}
		defer iter.Done()
		var v starlark.Value
		for iter.Next(&v) && n <= limit {
			if t, ok := v.(starlark.String); ok {
				n += uint64(len(t))
			}
			count++
		}
		return n + times(count, uint64(len(s)))
	case "format":
		n := uint64(len(s))
		for _, a := range args {
			n += rendered(a, limit)
		}
		for _, kv := range kwargs {
			n += rendered(kv[1], limit)
		}
		return n
	}
	return 0
}

// rendered estimates the length of v as text (str, repr, JSON), counting
// a value as often as it appears, and stops counting once past limit.
// Values of other types count as a few bytes.
func rendered(v starlark.Value, limit uint64) uint64 {
	var n uint64
	var walk func(v starlark.Value, depth int)
	walk = func(v starlark.Value, depth int) {
		if n > limit || depth > 256 {
			n += 8
			return
		}
		switch v := v.(type) {
		case starlark.String:
			n += uint64(len(v)) + 2
		case starlark.Bytes:
			n += 4*uint64(len(v)) + 3
		case starlark.Int:
			n += intBits(v)/3 + 2
		case *starlark.List:
			n += 2
			for i := 0; i < v.Len() && n <= limit; i++ {
				walk(v.Index(i), depth+1)
				n += 2
			}
		case starlark.Tuple:
			n += 2
			for _, e := range v {
				if n > limit {
					break
				}
				walk(e, depth+1)
				n += 2
			}
		case *starlark.Dict:
			n += 2
			iter := v.Iterate()
			var k starlark.Value
			for n <= limit && iter.Next(&k) {
				val, _, _ := v.Get(k)
				walk(k, depth+1)
				walk(val, depth+1)
				n += 4
			}
			iter.Done()
		case *starlark.Set:
			n += 5
			iter := v.Iterate()
			var k starlark.Value
			for n <= limit && iter.Next(&k) {
				walk(k, depth+1)
				n += 2
			}
			iter.Done()
		default:
			n += 24
		}
	}
	walk(v, 0)
	return n
}
