package runcode

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"
)

// Describe returns run_code's description for Starlark programs: how to
// write one and the functions it may call, each with its parameters
// (required first, then optional ones with "=None") and the first
// sentence of its tool's description, then the host's globals.
func (s Starlark) Describe(env Env) string {
	var b strings.Builder
	b.WriteString("Run a Starlark program (a Python dialect: def, for, while, if, comprehensions, str/list/dict methods; no imports, classes or try/except) ")
	b.WriteString("that calls the other tools as functions. Use it to make many tool calls in one step: loop over files, filter results, combine outputs. ")
	b.WriteString("Call functions with keyword arguments only. Each returns the tool's result parsed from JSON (dicts, lists, strings, numbers) or its text. ")
	b.WriteString("A failed call returns a value v with failed(v) == True and the message in v.error; test it, as there are no exceptions. ")
	b.WriteString("print() output is returned as stdout; json.encode and json.decode are available. An error stops the program and reports its line. ")
	fmt.Fprintf(&b, "Time limit: timeout_ms (default %d ms); the number of steps is bounded too, and so is memory (%s): a program that would pass it stops with an error. ",
		cmpOr(env.Timeout, defaultTimeout).Milliseconds(), mebibytes(cmpOr(s.MaxMemoryBytes, defaultMemory)))
	b.WriteString("Each call is checked against the run's permissions like a direct call.\nFunctions:\n")
	for _, f := range starlarkFunctions(env.Functions) {
		fmt.Fprintf(&b, "- %s", signature(f))
		if s := firstSentence(f.Description); s != "" {
			b.WriteString(": " + s)
		}
		b.WriteString("\n")
	}
	if names := starlarkGlobals(env.Globals); len(names) > 0 {
		sort.Strings(names)
		for i, name := range names {
			if isFunc(env.Globals[name]) {
				names[i] += "()"
			}
		}
		fmt.Fprintf(&b, "Also defined by the host (functions take keyword arguments): %s\n", strings.Join(names, ", "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// signature renders name(required, optional=None) from the tool's schema.
func signature(f Function) string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	_ = json.Unmarshal(f.Schema, &s)
	req := map[string]bool{}
	var params []string
	for _, r := range s.Required {
		if _, ok := s.Properties[r]; ok {
			req[r] = true
			params = append(params, r)
		}
	}
	var opt []string
	for p := range s.Properties {
		if !req[p] {
			opt = append(opt, p)
		}
	}
	sort.Strings(opt)
	for _, p := range opt {
		params = append(params, p+"=None")
	}
	return f.Name + "(" + strings.Join(params, ", ") + ")"
}

// isFunc reports whether a global is a function for Starlark.
func isFunc(v any) bool {
	switch v.(type) {
	case Func, func(context.Context, json.RawMessage) (any, error), starlark.Callable:
		return true
	}
	return false
}

func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}
