package mcp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/llmrt/llmrt/tools"
)

// content turns an answer into the object the server asked for. declined
// is true when the person chose to decline.
func (f *form) content(a tools.Answer) (out map[string]any, declined bool, err error) {
	out = map[string]any{}
	for _, fd := range f.fields {
		v, set, err := fd.value(a.Selected[fd.Name], strings.TrimSpace(a.Other[fd.Name]))
		if errors.Is(err, errDeclined) {
			return nil, true, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("%s: %v", cmpOr(fd.Title, fd.Name), err)
		}
		if !set && fd.required {
			return nil, false, fmt.Errorf("%s is required", cmpOr(fd.Title, fd.Name))
		}
		if set {
			out[fd.Name] = v
		}
	}
	return out, false, nil
}

// errDeclined is a field answered with the Decline choice.
var errDeclined = errors.New("declined")

// value is a field's answer: the picked choice, or the free text read as
// the field's type.
func (f *field) value(picked []string, other string) (any, bool, error) {
	if other != "" {
		return f.parse(other)
	}
	if len(picked) == 0 {
		return nil, false, nil
	}
	switch id := picked[0]; id {
	case optDecline:
		return nil, false, errDeclined
	case optEmpty:
		return nil, false, nil
	case optDefault:
		return f.typed(f.Default), true, nil
	default:
		i, err := strconv.Atoi(strings.TrimPrefix(id, "v"))
		if err != nil || i < 0 || i >= len(f.values) {
			return nil, false, fmt.Errorf("no choice %q", id)
		}
		if f.Type == "array" {
			return []any{f.values[i]}, true, nil
		}
		return f.values[i], true, nil
	}
}

// typed gives a JSON default its field's Go type: an integer stays an
// integer.
func (f *field) typed(v any) any {
	if n, ok := v.(float64); ok && f.Type == "integer" && n == float64(int64(n)) {
		return int64(n)
	}
	return v
}

// parse reads free text as the field's type.
func (f *field) parse(s string) (any, bool, error) {
	switch f.Type {
	case "integer":
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, false, fmt.Errorf("%q is not a whole number", s)
		}
		return n, true, nil
	case "number":
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, false, fmt.Errorf("%q is not a number", s)
		}
		return n, true, nil
	case "boolean":
		switch strings.ToLower(s) {
		case "yes", "y", "true":
			return true, true, nil
		case "no", "n", "false":
			return false, true, nil
		}
		return nil, false, fmt.Errorf("%q is not yes or no", s)
	case "array":
		var list []any
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				list = append(list, p)
			}
		}
		return list, len(list) > 0, nil
	}
	return s, true, nil
}
