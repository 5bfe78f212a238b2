package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// DefaultSpawnDepth is how deep sub-runs may nest when Config.SpawnDepth
// is zero: a run's sub-run may start its own, and that one may not.
const DefaultSpawnDepth = 2

// spawnSchema is spawn_agent's schema; with agents defined it gains an
// agent argument whose values are their names.
func spawnSchema(agents []AgentDef) json.RawMessage {
	props := map[string]any{
		"task": map[string]any{"type": "string", "minLength": 1, "description": "The complete task for the sub-agent: what to do, what to return, and every fact it needs (it does not see this conversation)"},
		"tools": map[string]any{"type": "array", "items": map[string]any{"type": "string"},
			"description": "Names of the tools the sub-agent may use (default: the same tools as you, or the agent's own)"},
	}
	if len(agents) > 0 {
		names := make([]string, len(agents))
		for i, d := range agents {
			names[i] = d.Name
		}
		props["agent"] = map[string]any{"type": "string", "enum": names,
			"description": "The defined agent to run the task: it gets that agent's instructions, tools and model (default: a sub-agent like you)"}
	}
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": []string{"task"}, "additionalProperties": false})
	return b
}

// spawnDescription is spawn_agent's description, listing the defined
// agents so the model can choose one.
func spawnDescription(agents []AgentDef) string {
	d := "Hand a focused task to a sub-agent: a separate run with its own bounded loop, the same model and permissions, and the tools you give it. " +
		"It sees only the task text, not this conversation, and returns its final answer (or why it failed). " +
		"Use it for self-contained work whose details you do not need to see, e.g. surveying a directory or trying a fix in one area; several spawn_agent calls in one reply run at the same time."
	if len(agents) == 0 {
		return d
	}
	var b strings.Builder
	b.WriteString(d)
	b.WriteString("\n\nDefined agents (pass the name as agent when one fits the task):")
	for _, a := range agents {
		fmt.Fprintf(&b, "\n- %s: %s", a.Name, strings.Join(strings.Fields(a.Description), " "))
	}
	return b.String()
}

type spawnArgs struct {
	Task  string    `json:"task"`
	Tools *[]string `json:"tools"`
	Agent string    `json:"agent"`
}

// depthKey carries how deep the run a context belongs to is nested.
type depthKey struct{}

func spawnDepth(ctx context.Context) int {
	d, _ := ctx.Value(depthKey{}).(int)
	return d
}

func (rt *Runtime) spawnTool() tools.Tool {
	return tools.Tool{
		Name:        SpawnAgentTool,
		Description: spawnDescription(rt.cfg.Agents),
		Schema:      spawnSchema(rt.cfg.Agents),
		// Each of the sub-run's calls is checked like a direct one, so
		// starting it changes nothing by itself (see finishRunCode).
		Kind:   tools.KindRead,
		Source: tools.SourceBuiltin,
		Execute: func(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
			var a spawnArgs
			if err := json.Unmarshal(raw, &a); err != nil {
				return tools.Errorf("invalid arguments: %v", err), nil
			}
			c := CallerFrom(ctx)
			if c == nil {
				return tools.Errorf("spawn_agent runs only inside a run"), nil
			}
			return c.r.spawn(ctx, c, a), nil
		},
	}
}

// spawn runs a sub-run for a and reports how it ended.
func (r *run) spawn(ctx context.Context, c *Caller, a spawnArgs) tools.Result {
	limit := r.rt.cfg.SpawnDepth
	if limit == 0 {
		limit = DefaultSpawnDepth
	}
	depth := spawnDepth(ctx) + 1
	if limit < 0 || depth > limit {
		return tools.Errorf("refused: sub-runs may nest %d deep and this one would be at depth %d; do the task yourself", max(limit, 0), depth)
	}
	req, errRes := r.childRequest(a)
	if errRes != nil {
		return *errRes
	}
	sink := func(ev Event) bool {
		if ev.Type == EventRunStart && ev.ParentID == r.out.runID {
			// The sub-run's start names the call that started it, so a
			// consumer can place the sub-run's activity under that call.
			ev.Call = &CallInfo{ID: c.CallID(), Name: SpawnAgentTool}
		}
		c.Forward(ev)
		return true
	}
	child, cctx, err := r.rt.newRun(context.WithValue(ctx, depthKey{}, depth), req, sink, true)
	if err != nil {
		return tools.Errorf("the sub-run could not start: %v", err)
	}
	child.out.silent = r.out.silent // its events reach whoever sees the parent's
	child.delegate = true
	res := child.loop(cctx)
	r.adopt(child, len(req.Permission.Rules))
	return subRunResult(res)
}

// adopt takes into the parent what a finished sub-run adds to it: its
// usage (toward the parent's usage and budget), its evidence (a write the
// sub-run made is work done for the parent) and the rules a person added
// while it ran (allow always holds for the parent too). Concurrent
// sub-runs of one batch adopt under the run's locks.
func (r *run) adopt(child *run, inherited int) {
	r.tally.adopt(&child.tally)
	r.perm.adopt(&child.perm, inherited)
}

// childRequest is the parent's request narrowed to a: the parent's own
// system text, the task as the only user message, the tools it names (a
// subset of the parent's), and what is left of the token budget.
func (r *run) childRequest(a spawnArgs) (Request, *tools.Result) {
	child := r.req
	child.Messages = nil
	for _, m := range r.req.Messages {
		if m.Role != providers.RoleSystem {
			break
		}
		child.Messages = append(child.Messages, m)
	}
	child.Messages = append(child.Messages, providers.TextMessage(providers.RoleUser, a.Task))
	child.ParentID = r.out.runID
	child.Diagnostics = nil
	child.Strict = false // the parent's diagnostics were its to refuse
	// The parent's answer schema is its host's; a sub-agent answers its
	// parent in text.
	child.AnswerSchema = nil
	child.Permission.Rules = r.perm.inherited()
	r.onePersonAtATime(&child)
	var names []string // nil: the parent's tools
	if a.Tools != nil {
		names = []string{}
		for _, name := range *a.Tools {
			if t, ok := r.tools.get(name); !ok || t.Source == tools.SourceControl {
				return child, errResult("unknown tool %q for the sub-agent; choose from: %s", name, r.toolNames())
			}
			names = append(names, name)
		}
	}
	agentTools := false
	if a.Agent != "" {
		def, ok := r.rt.agent(a.Agent)
		if !ok {
			return child, errResult("unknown agent %q; the agents are: %s", a.Agent, r.rt.agentNames())
		}
		if names == nil && def.Tools != nil {
			names = r.surfaceNames()
		}
		names = r.applyAgent(&child, def, names)
		agentTools = def.Tools != nil
	}
	if names != nil {
		r.narrow(&child, names, agentTools)
	}
	if b := r.req.TokenBudget; b > 0 {
		left := b - r.tally.used().Total()
		if left <= 0 {
			return child, errResult("refused: the token budget of %d is spent", b)
		}
		child.TokenBudget = left
	}
	return child, nil
}

// onePersonAtATime makes a sub-run's approvals and questions wait for the
// parent's decisions (its permission lock), so sub-runs running side by
// side never put two prompts to the person at once. Locks are taken from
// a run up to its ancestors, never down, so nesting cannot deadlock.
func (r *run) onePersonAtATime(child *Request) {
	if ap := child.Permission.Approver; ap != nil {
		child.Permission.Approver = ApproverFunc(func(ctx context.Context, req PermissionRequest) (Decision, error) {
			r.perm.mu.Lock()
			defer r.perm.mu.Unlock()
			return ap.Approve(ctx, req)
		})
	}
	if as := child.Asker; as != nil {
		child.Asker = AskerFunc(func(ctx context.Context, q Question) (tools.Answer, error) {
			r.perm.mu.Lock()
			defer r.perm.mu.Unlock()
			return as.Ask(ctx, q)
		})
	}
}

func errResult(format string, args ...any) *tools.Result {
	r := tools.Errorf(format, args...)
	return &r
}

// subRunResult tells the parent model how its sub-run ended.
func subRunResult(res Result) tools.Result {
	switch res.Status {
	case StatusCompleted:
		return tools.Text(res.Output)
	case StatusMaxIterations:
		return tools.Errorf("the sub-agent stopped after %d model calls without finishing; give it a smaller task or do it yourself", res.Iterations)
	case StatusToolCalls:
		names := make([]string, len(res.PendingCalls))
		for i, c := range res.PendingCalls {
			names[i] = c.Name
		}
		return tools.Errorf("the sub-agent stopped waiting for %s, which only the host can answer; ask the user yourself", strings.Join(names, ", "))
	case StatusCancelled:
		return tools.Errorf("the sub-agent was cancelled")
	}
	msg := "the sub-agent failed"
	if res.Error != nil {
		if res.Error.Code == CodeBlocked {
			return tools.Errorf("the sub-agent is blocked: %s", res.Error.Message)
		}
		msg = fmt.Sprintf("the sub-agent failed (%s): %s", res.Error.Code, res.Error.Message)
	}
	return tools.Errorf("%s", msg)
}
