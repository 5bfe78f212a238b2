package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/tools"
)

// ToolSource supplies tools from outside a request: the tools of MCP
// servers, the load_skill tool of a skill catalogue. A Runtime consults its
// sources before every model call, so a source whose tool list changes (an
// MCP server's list_changed notification) is seen by the next call. Tools
// should therefore be cheap, and return the same slice while the list is
// unchanged: the engine rebuilds a run's tool surface only when a source
// returns a different slice (or different instructions).
//
// A source's tools join the surface after the built-ins and the host's
// tools. A source tool whose name is taken (by a built-in, a host tool, a
// control tool or an earlier source's tool) or whose schema does not
// compile is left out with a diagnostic; it is not an error. An error from
// Tools is a diagnostic too, and the source offers nothing to that call.
//
// A source may also implement Starter (started by Runtime.Start),
// Diagnoser (problems to report, such as a server that failed to start),
// Instructor (text for the managed system prompt, such as a skill
// catalogue) and io.Closer (released by Runtime.Close).
type ToolSource interface {
	Tools(ctx context.Context) ([]tools.Tool, error)
}

// Starter is implemented by tool sources that must be started before their
// tools can be listed, such as an MCP server process. ctx bounds the
// start-up only: it may be the context of the first run, so a source must
// not tie what it starts to it (no exec.CommandContext with it); Close
// ends it.
type Starter interface {
	Start(ctx context.Context) error
}

// Diagnoser is implemented by tool sources that found problems which do not
// stop a run.
type Diagnoser interface {
	Diagnostics() []tools.Diagnostic
}

// Instructor is implemented by tool sources that add text to the managed
// system prompt of every model call.
type Instructor interface {
	Instructions() string
}

// sourceState is what the runtime's sources offered at one poll.
type sourceState struct {
	lists        [][]tools.Tool
	instructions string
	diags        []Diagnostic
}

// pollSources asks every started source for its tools, instructions and
// diagnostics.
func (rt *Runtime) pollSources(ctx context.Context) sourceState {
	st := sourceState{diags: append([]Diagnostic(nil), rt.startDiags...)}
	if len(rt.active) == 0 {
		return st
	}
	st.lists = make([][]tools.Tool, len(rt.active))
	var texts []string
	for i, src := range rt.active {
		list, err := src.Tools(ctx)
		if err != nil {
			st.diags = append(st.diags, Diagnostic{Level: DiagnosticError, Kind: DiagSourceList,
				Source: "tool source", Message: "listing tools failed: " + err.Error()})
		}
		st.lists[i] = list
		if in, ok := src.(Instructor); ok {
			if t := strings.TrimSpace(in.Instructions()); t != "" {
				texts = append(texts, t)
			}
		}
		if d, ok := src.(Diagnoser); ok {
			st.diags = append(st.diags, normalized(d.Diagnostics(), DiagSource)...)
		}
	}
	st.instructions = strings.Join(texts, "\n\n")
	return st
}

// refreshTools polls the runtime's tool sources before a model call and
// rebuilds the surface (and the system prompt) when they changed.
func (r *run) refreshTools(ctx context.Context) {
	if len(r.rt.active) == 0 {
		return
	}
	st := r.rt.pollSources(ctx)
	if r.tools.sameSources(st) {
		r.diagnose(st.diags)
		return
	}
	r.tools = r.rt.assemble(r.tools.own, r.tools.skills, st, r.tools.control, r.tools.only)
	r.rt.finishRunCode(r.tools)
	r.tools.shape(&r.req)
	r.diagnose(r.tools.diags)
	r.conv.setSystem(r.systemMessage())
}

// diagnose records diagnostics once each, for Result.Diagnostics, and
// shows the new ones of a loop run that has started.
func (r *run) diagnose(ds []Diagnostic) {
	for _, d := range r.tally.addDiagnostics(ds) {
		if r.out != nil && r.looping {
			r.warnDiagnostic(d)
		}
	}
}

// warnDiagnostic shows a diagnostic as a warning event, as it is found:
// those found preparing the run right after run_start, the others when
// they come up.
func (r *run) warnDiagnostic(d Diagnostic) {
	msg := d.Message
	if d.Source != "" {
		msg = d.Source + ": " + msg
	}
	r.out.emit(Event{Type: EventWarning, Warning: &Warning{Code: WarningDiagnostic, Message: msg}})
}

// WarningDiagnostic is the code of the warning events that show the
// run's diagnostics as they are found (Result.Diagnostics lists them
// too).
const WarningDiagnostic = "diagnostic"

// sameSources reports whether a poll offers the tools and instructions a
// toolset was built from, comparing the slices by identity.
func (ts *toolset) sameSources(st sourceState) bool {
	if ts.instructions != st.instructions || len(ts.lists) != len(st.lists) {
		return false
	}
	for i, l := range st.lists {
		old := ts.lists[i]
		if len(l) != len(old) || len(l) > 0 && &l[0] != &old[0] {
			return false
		}
	}
	return true
}

// addSourceTools appends the sources' tools to ts in source order, leaving
// out, with a diagnostic, tools whose names are taken or whose schemas do
// not compile.
func (rt *Runtime) addSourceTools(ts *toolset, st sourceState) {
	ts.lists, ts.instructions = st.lists, st.instructions
	for _, list := range st.lists {
		for _, t := range list {
			if t.Name == LoadSkillTool && !ts.skills {
				continue // the request's selection leaves it out
			}
			if ts.only != nil && !ts.only[t.Name] {
				continue // an agent's sub-run that does not name it
			}
			if why := rt.refuseSourceTool(ts, t); why != "" {
				ts.diags = append(ts.diags, Diagnostic{Level: DiagnosticWarning, Kind: DiagToolLeftOut, Source: cmpOr(t.Source, "tool source"),
					Message: fmt.Sprintf("tool %q is not offered: %s", t.Name, why)})
				continue
			}
			if t.Kind == "" {
				t.Kind = tools.KindExternalAction
			}
			ts.add(t)
		}
	}
}

func (rt *Runtime) refuseSourceTool(ts *toolset, t tools.Tool) string {
	if t.Name == "" {
		return "it has no name"
	}
	if isControl(t.Name) {
		return "the name is reserved for a control tool"
	}
	if i, taken := ts.index[t.Name]; taken {
		return fmt.Sprintf("the name is taken by a %s tool", cmpOr(ts.list[i].Source, "source"))
	}
	if _, err := rt.schema(t.Schema); err != nil {
		return err.Error()
	}
	return ""
}
