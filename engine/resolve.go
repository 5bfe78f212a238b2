package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// toolset is the resolved tool surface of one run.
type toolset struct {
	list  []tools.Tool
	index map[string]int
	specs []providers.ToolSpec

	own          []tools.Tool    // the request's built-ins and host tools
	actions      []string        // the host tools among own that change things
	skills       bool            // the selection allows the sources' load_skill
	only         map[string]bool // nil, or the only sources' tools offered (Request.only)
	control      bool            // control tools are part of the surface
	lists        [][]tools.Tool  // the sources' lists it was built from
	instructions string          // the sources' text for the system prompt
	diags        []Diagnostic    // the sources' problems and left-out tools
}

func (ts *toolset) get(name string) (*tools.Tool, bool) {
	i, ok := ts.index[name]
	if !ok {
		return nil, false
	}
	return &ts.list[i], true
}

// isAction reports whether name is one of the request's host actions.
func (ts *toolset) isAction(name string) bool {
	for _, a := range ts.actions {
		if a == name {
			return true
		}
	}
	return false
}

func (ts *toolset) add(t tools.Tool) {
	ts.index[t.Name] = len(ts.list)
	ts.list = append(ts.list, t)
}

// resolveTools builds the surface a request sees: selected built-ins, host
// tools, the runtime's sources' tools and, for loop runs, the control
// tools. ws may be nil when only the surface's shape is needed.
func (rt *Runtime) resolveTools(ctx context.Context, req *Request, ws *tools.Workspace, withControl bool) (*toolset, error) {
	own, skills, err := rt.ownTools(req, ws)
	if err != nil {
		return nil, err
	}
	ts := rt.assemble(own, skills, rt.pollSources(ctx), withControl, req.only)
	rt.finishRunCode(ts)
	ts.shape(req)
	if len(req.Permission.Rules) > 0 {
		// A rule that can never apply is a typo the host should hear of.
		ts.diags = append(ts.diags, CheckRules(req.Permission.Rules, toolInfos(ts.list))...)
	}
	return ts, nil
}

// ownTools checks and collects the request's built-ins and host tools; a
// host tool replaces nothing but an executable ask_user_input. skills
// reports whether the selection allows load_skill, which the runtime's
// skill catalogue supplies.
func (rt *Runtime) ownTools(req *Request, ws *tools.Workspace) (own []tools.Tool, skills bool, err error) {
	builtins := append(tools.Builtins(ws, rt.cfg.BuiltinOptions), rt.engineBuiltins()...)
	selected, skills, err := selectBuiltins(builtins, req.BuiltIns)
	if err != nil {
		return nil, false, err
	}
	hostNames := make(map[string]bool, len(req.Tools))
	for _, t := range req.Tools {
		if err := rt.checkHostTool(t, builtins); err != nil {
			return nil, false, err
		}
		if hostNames[t.Name] {
			return nil, false, invalidRequest("host tool %q is defined twice", t.Name)
		}
		hostNames[t.Name] = true
	}
	own = make([]tools.Tool, 0, len(selected)+len(req.Tools))
	for _, t := range selected {
		if !hostNames[t.Name] {
			own = append(own, t)
		}
	}
	for _, t := range req.Tools {
		if t.Kind == "" {
			t.Kind = tools.KindExternalAction
		}
		if t.Source == "" {
			t.Source = tools.SourceHost
		}
		own = append(own, t)
	}
	return own, skills, nil
}

// assemble orders a surface: the request's own tools, the sources' tools,
// then the control tools.
func (rt *Runtime) assemble(own []tools.Tool, skills bool, st sourceState, withControl bool, only map[string]bool) *toolset {
	ts := &toolset{index: make(map[string]int, len(own)+len(controlTools)), own: own, control: withControl,
		actions: hostActions(own), skills: skills, only: only}
	for _, t := range own {
		ts.add(t)
	}
	ts.diags = st.diags
	rt.addSourceTools(ts, st)
	if withControl {
		for _, t := range controlTools {
			ts.add(t)
		}
	}
	ts.specs = make([]providers.ToolSpec, len(ts.list))
	for i, t := range ts.list {
		ts.specs[i] = t.Spec()
	}
	return ts
}

// selectBuiltins picks the named built-ins from all. load_skill is named
// like them but comes from a tool source; skills reports whether the
// selection allows it (the default one does).
func selectBuiltins(all []tools.Tool, names []string) (out []tools.Tool, skills bool, err error) {
	if names == nil {
		names, skills = defaultBuiltIns, true
	}
	out = make([]tools.Tool, 0, len(names))
	for _, n := range names {
		if n == LoadSkillTool {
			skills = true
			continue
		}
		i := slices.IndexFunc(all, func(t tools.Tool) bool { return t.Name == n })
		if i < 0 {
			known := make([]string, len(all), len(all)+1)
			for j, t := range all {
				known[j] = t.Name
			}
			known = append(known, LoadSkillTool)
			return nil, false, invalidRequest("unknown built-in tool %q (known: %s)", n, strings.Join(known, ", "))
		}
		out = append(out, all[i])
	}
	return out, skills, nil
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
	sch *jsonschema.Resolved
	err error
}

func (rt *Runtime) schema(raw json.RawMessage) (*jsonschema.Resolved, error) {
	key := string(raw)
	if v, ok := rt.schemas.m.Load(key); ok {
		c := v.(compiled)
		return c.sch, c.err
	}
	c := compileSchema(raw)
	rt.schemas.m.Store(key, c)
	return c.sch, c.err
}

// validateArgs parses and validates a call's arguments. It returns the
// arguments as a map (for permission rules) or the outcome to send back.
func (rt *Runtime) validateArgs(t *tools.Tool, raw string) (map[string]any, *ToolOutcome) {
	if strings.TrimSpace(raw) == "" {
		raw = "{}"
	}
	var inst any
	if err := json.Unmarshal([]byte(raw), &inst); err != nil {
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
