package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// toolset is the resolved tool surface of one run.
type toolset struct {
	list  []tools.Tool
	index map[string]int
	specs []providers.ToolSpec
}

func (ts *toolset) get(name string) (*tools.Tool, bool) {
	i, ok := ts.index[name]
	if !ok {
		return nil, false
	}
	return &ts.list[i], true
}

// resolveTools builds the surface a request sees: selected built-ins, host
// tools and, for loop runs, the control tools. ws may be nil when only the
// surface's shape is needed.
func (rt *Runtime) resolveTools(req *Request, ws *tools.Workspace, withControl bool) (*toolset, error) {
	builtins := tools.Builtins(ws, rt.cfg.Tools)
	selected, err := selectBuiltins(builtins, req.BuiltIns)
	if err != nil {
		return nil, err
	}
	ts := &toolset{index: make(map[string]int)}
	add := func(t tools.Tool) {
		ts.index[t.Name] = len(ts.list)
		ts.list = append(ts.list, t)
	}
	hostNames := make(map[string]bool, len(req.Tools))
	for _, t := range req.Tools {
		if err := rt.checkHostTool(t, builtins); err != nil {
			return nil, err
		}
		if hostNames[t.Name] {
			return nil, invalidRequest("host tool %q is defined twice", t.Name)
		}
		hostNames[t.Name] = true
	}
	for _, t := range selected {
		if !hostNames[t.Name] {
			add(t)
		}
	}
	for _, t := range req.Tools {
		if t.Kind == "" {
			t.Kind = tools.KindExternalAction
		}
		if t.Source == "" {
			t.Source = tools.SourceHost
		}
		add(t)
	}
	if withControl {
		for _, t := range controlTools {
			add(t)
		}
	}
	ts.specs = make([]providers.ToolSpec, len(ts.list))
	for i, t := range ts.list {
		ts.specs[i] = t.Spec()
	}
	return ts, nil
}

func selectBuiltins(all []tools.Tool, names []string) ([]tools.Tool, error) {
	if names == nil {
		return all, nil
	}
	out := make([]tools.Tool, 0, len(names))
	for _, n := range names {
		i := slices.IndexFunc(all, func(t tools.Tool) bool { return t.Name == n })
		if i < 0 {
			known := make([]string, len(all))
			for j, t := range all {
				known[j] = t.Name
			}
			return nil, invalidRequest("unknown built-in tool %q (known: %s)", n, strings.Join(known, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

func (rt *Runtime) checkHostTool(t tools.Tool, builtins []tools.Tool) error {
	if t.Name == "" {
		return invalidRequest("a host tool has no name")
	}
	if isControl(t.Name) {
		return invalidRequest("host tool %q uses a reserved control tool name", t.Name)
	}
	isBuiltin := slices.ContainsFunc(builtins, func(b tools.Tool) bool { return b.Name == t.Name })
	if isBuiltin && !(t.Name == AskUserTool && t.Execute != nil) {
		return invalidRequest("host tool %q clashes with a built-in tool of that name", t.Name)
	}
	if _, err := rt.schema(t.Schema); err != nil {
		return invalidRequest("host tool %q: %v", t.Name, err)
	}
	return nil
}

func invalidRequest(format string, args ...any) *RunError {
	return &RunError{Code: CodeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

// schemaCache holds compiled argument schemas by their text, so each schema
// is compiled once per Runtime.
type schemaCache struct{ m sync.Map }

type compiled struct {
	sch *jsonschema.Schema
	err error
}

func (rt *Runtime) schema(raw json.RawMessage) (*jsonschema.Schema, error) {
	key := string(raw)
	if v, ok := rt.schemas.m.Load(key); ok {
		c := v.(compiled)
		return c.sch, c.err
	}
	c := compileSchema(raw)
	rt.schemas.m.Store(key, c)
	return c.sch, c.err
}

func compileSchema(raw json.RawMessage) compiled {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return compiled{err: fmt.Errorf("schema is not valid JSON: %w", err)}
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("tool.json", doc); err != nil {
		return compiled{err: fmt.Errorf("schema: %w", err)}
	}
	sch, err := c.Compile("tool.json")
	if err != nil {
		return compiled{err: fmt.Errorf("schema does not compile: %w", err)}
	}
	return compiled{sch: sch}
}

// validateArgs parses and validates a call's arguments. It returns the
// arguments as a map (for permission rules) or the outcome to send back.
func (rt *Runtime) validateArgs(t *tools.Tool, raw string) (map[string]any, *ToolOutcome) {
	if strings.TrimSpace(raw) == "" {
		raw = "{}"
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(raw))
	if err != nil {
		return nil, invalidArgs("arguments are not valid JSON (%v); send one JSON object matching the %s schema", err, t.Name)
	}
	obj, ok := inst.(map[string]any)
	if !ok {
		return nil, invalidArgs("arguments must be a JSON object matching the %s schema", t.Name)
	}
	sch, err := rt.schema(t.Schema)
	if err != nil {
		return nil, invalidArgs("tool %s has an unusable schema: %v", t.Name, err)
	}
	if err := sch.Validate(inst); err != nil {
		return nil, invalidArgs("arguments do not match the %s schema: %s", t.Name, describeValidation(err))
	}
	if t.Validate != nil {
		if err := t.Validate(json.RawMessage(raw)); err != nil {
			return nil, invalidArgs("invalid %s arguments: %v", t.Name, err)
		}
	}
	return obj, nil
}

func invalidArgs(format string, args ...any) *ToolOutcome {
	return &ToolOutcome{Content: fmt.Sprintf(format, args...), IsError: true, Code: OutcomeInvalidArguments}
}

// describeValidation flattens a validation error into "at /x: message"
// clauses a model can act on.
func describeValidation(err error) string {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return err.Error()
	}
	var parts []string
	var walk func(u jsonschema.OutputUnit)
	walk = func(u jsonschema.OutputUnit) {
		if u.Error != nil && len(u.Errors) == 0 {
			loc := u.InstanceLocation
			if loc == "" {
				loc = "/"
			}
			parts = append(parts, "at "+loc+": "+u.Error.String())
		}
		for _, c := range u.Errors {
			walk(c)
		}
	}
	walk(*ve.BasicOutput())
	if len(parts) == 0 {
		return ve.Error()
	}
	return strings.Join(parts, "; ")
}
