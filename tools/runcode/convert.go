package runcode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"

	"go.starlark.net/starlark"
)

// toJSON converts a Starlark value to JSON-ready Go data.
func toJSON(v starlark.Value) (any, error) {
	switch v := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(v), nil
	case starlark.Int:
		if i, ok := v.Int64(); ok {
			return i, nil
		}
		return json.Number(v.String()), nil
	case starlark.Float:
		f := float64(v)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("%v cannot be sent as JSON", v)
		}
		return f, nil
	case starlark.String:
		return string(v), nil
	case *starlark.Dict:
		m := make(map[string]any, v.Len())
		for _, item := range v.Items() {
			k, ok := item[0].(starlark.String)
			if !ok {
				return nil, fmt.Errorf("dict key %s is a %s; JSON object keys must be strings", item[0], item[0].Type())
			}
			x, err := toJSON(item[1])
			if err != nil {
				return nil, err
			}
			m[string(k)] = x
		}
		return m, nil
	case starlark.Indexable: // list, tuple
		out := make([]any, v.Len())
		for i := range out {
			x, err := toJSON(v.Index(i))
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case *toolError:
		return map[string]any{"error": v.msg}, nil
	}
	return nil, fmt.Errorf("a %s cannot be sent as JSON", v.Type())
}

// kwargsJSON turns the keyword arguments of a call of the function name
// into a JSON object; positional arguments are refused with an example
// of a call.
func kwargsJSON(name string, pos starlark.Tuple, kwargs []starlark.Tuple, example string) (json.RawMessage, error) {
	if len(pos) > 0 {
		return nil, fmt.Errorf("%s: pass arguments by name, e.g. %s", name, example)
	}
	m := make(map[string]any, len(kwargs))
	for _, kv := range kwargs {
		v, err := toJSON(kv[1])
		if err != nil {
			return nil, fmt.Errorf("%s: argument %s: %v", name, kv[0], err)
		}
		m[string(kv[0].(starlark.String))] = v
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return raw, nil
}

// fromGo converts Go data to Starlark through its JSON encoding.
func fromGo(v any) (starlark.Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	return fromJSON(x), nil
}

// fromJSONText parses a tool result: JSON becomes Starlark data, anything
// else stays a string.
func fromJSONText(s string) starlark.Value {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil || dec.More() {
		return starlark.String(s)
	}
	return fromJSON(x)
}

func fromJSON(x any) starlark.Value {
	switch x := x.(type) {
	case nil:
		return starlark.None
	case bool:
		return starlark.Bool(x)
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return starlark.MakeInt64(i)
		}
		if b, ok := new(big.Int).SetString(string(x), 10); ok {
			return starlark.MakeBigInt(b)
		}
		f, _ := x.Float64()
		return starlark.Float(f)
	case string:
		return starlark.String(x)
	case []any:
		l := make([]starlark.Value, len(x))
		for i, e := range x {
			l[i] = fromJSON(e)
		}
		return starlark.NewList(l)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d := starlark.NewDict(len(x))
		for _, k := range keys {
			_ = d.SetKey(starlark.String(k), fromJSON(x[k]))
		}
		return d
	}
	return starlark.String(fmt.Sprint(x))
}

// toolError is what a failed tool call returns to the program: falsy, with
// the message as .error and as its string form.
type toolError struct {
	tool, msg string
}

var _ starlark.HasAttrs = (*toolError)(nil)

func (e *toolError) String() string        { return e.msg }
func (e *toolError) Type() string          { return "tool_error" }
func (e *toolError) Freeze()               {}
func (e *toolError) Truth() starlark.Bool  { return false }
func (e *toolError) Hash() (uint32, error) { return starlark.String(e.msg).Hash() }
func (e *toolError) AttrNames() []string   { return []string{"error", "tool"} }
func (e *toolError) Attr(name string) (starlark.Value, error) {
	switch name {
	case "error":
		return starlark.String(e.msg), nil
	case "tool":
		return starlark.String(e.tool), nil
	}
	return nil, nil
}
