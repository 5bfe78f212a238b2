package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// Caller lets a tool that is executing inside a run use that run. The
// engine puts one on the context of every tool call; CallerFrom returns it.
// Its CallTool is also installed as the context's tools.Caller, for tools
// that do not import the engine.
//
// A run_code tool calls the run's other tools with CallTool: each inner
// call is validated against its schema and goes through the run's deny
// rules and permission policy (asking the run's Approver when needed),
// exactly as a call of the model would, and its tool_start, tool_result
// or tool_error events carry the calling call's id as Call.ParentID. Inner
// results go back to the calling tool only; they are not appended to the
// conversation, but they count as the run's evidence (a successful inner
// write lets a plain-text reply finish the run).
//
// A spawn_agent tool runs a child run with Runtime().CompleteWith, setting
// the child request's ParentID to RunID() and passing Forward as the
// child's sink, so the child's events reach the parent's consumer with
// their own run id.
type Caller struct {
	r      *run
	parent *plan

	mu sync.Mutex
	n  int // inner calls made so far
}

type callerKey struct{}

func withCaller(ctx context.Context, c *Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the Caller of the tool call whose context ctx is, or
// nil outside a tool call made by a run.
func CallerFrom(ctx context.Context) *Caller {
	c, _ := ctx.Value(callerKey{}).(*Caller)
	return c
}

// RunID is the id of the run the calling tool belongs to.
func (c *Caller) RunID() string { return c.r.out.runID }

// CallID is the id of the calling tool's own call.
func (c *Caller) CallID() string { return c.parent.call.ID }

// Runtime is the runtime executing the run.
func (c *Caller) Runtime() *Runtime { return c.r.rt }

// Tools lists the tools CallTool accepts: the run's tool surface without
// the control tools.
func (c *Caller) Tools() []ToolInfo {
	list := make([]tools.Tool, 0, len(c.r.tools.list))
	for _, t := range c.r.tools.list {
		if t.Source != tools.SourceControl {
			list = append(list, t)
		}
	}
	return toolInfos(list)
}

// CallTool calls a tool of the run on behalf of the calling tool and
// returns its outcome. Invalid arguments, unknown tools and refused calls
// are outcomes, as they are for the model; a host-owned tool is not run
// unless it is ask_user_input and the run can ask a person.
func (c *Caller) CallTool(ctx context.Context, name string, args json.RawMessage) ToolOutcome {
	c.mu.Lock()
	i := c.n
	c.n++
	c.mu.Unlock()
	call := ToolCall{ID: providers.NewCallID(), Name: name, Arguments: string(args)}
	r := c.r
	if isControl(name) {
		o := ToolOutcome{Content: fmt.Sprintf("%s ends the run and cannot be called from inside a tool", name), IsError: true, Code: OutcomeNotRun}
		r.out.emit(Event{Type: EventToolError, Call: &CallInfo{Index: i, ID: call.ID, Name: name, ParentID: c.CallID()}, Outcome: &o})
		return o
	}
	p := r.plan(i, call, c.CallID())
	r.exec(ctx, p)
	// A successful write inside a program is evidence of work like a
	// direct one; the tallies take it under their own lock, since running
	// tools of one batch call concurrently.
	r.noteEvidence(p)
	return *p.outcome
}

// toolResult is CallTool in the form of tools.Caller, which tools that do
// not import the engine (run_code) find on their context.
func (c *Caller) toolResult(ctx context.Context, name string, args json.RawMessage) tools.Result {
	o := c.CallTool(ctx, name, args)
	return tools.Result{Content: o.Content, Parts: o.Parts, IsError: o.IsError}
}

// Forward hands an event of a sub-run to this run's consumer unchanged,
// keeping its own run id; an event without a parent id gets this run's.
func (c *Caller) Forward(ev Event) {
	if ev.ParentID == "" {
		ev.ParentID = c.RunID()
	}
	c.r.out.forward(ev)
}
