package hooks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/engine"
)

// Runner runs the hooks of its sets. It is the engine's Hooks (tool
// calls and finishes) and gives the host the other events.
type Runner struct {
	Sets []Set
	// Dir is where hook commands run and what their input's cwd says;
	// ProjectDir is their $CLAUDE_PROJECT_DIR (and $LLMRT_PROJECT_DIR).
	Dir, ProjectDir string
	// Env is the commands' environment: the one shell commands get, so
	// provider keys stay out of it.
	Env []string
	// Session gives the session id and transcript path as they stand.
	Session        func() (id, transcript string)
	PermissionMode string
	// Warn shows a person what a hook said to them, or how it failed.
	Warn func(string)
	// sums are the contents, as trusted, of the project files a project
	// hook's command names (its scripts).
	sums map[string]string
	// oldNames holds the matchers already warned about for naming an MCP
	// tool the old way.
	oldNames sync.Map
}

var _ engine.Hooks = (*Runner)(nil)

// Empty reports whether no set has a hook.
func (r *Runner) Empty() bool {
	for _, s := range r.Sets {
		for _, ms := range s.Events {
			if len(ms) > 0 {
				return false
			}
		}
	}
	return true
}

// Has reports whether some set has a hook for event.
func (r *Runner) Has(event string) bool {
	for _, s := range r.Sets {
		if len(s.Events[event]) > 0 {
			return true
		}
	}
	return false
}

// view is a tool call as a set's hooks see it: Claude Code's name and
// input for hooks from its settings, llmrt's for llmrt's own.
func (r *Runner) view(s Set, c engine.HookCall) (string, map[string]any) {
	if s.Claude {
		return claudeCall(c, r.Dir)
	}
	args := map[string]any{}
	_ = json.Unmarshal(c.Arguments, &args)
	return c.Tool, args
}

// BeforeTool runs the PreToolUse hooks.
func (r *Runner) BeforeTool(ctx context.Context, c engine.HookCall) engine.HookVerdict {
	if !r.Has(PreToolUse) {
		return engine.HookVerdict{}
	}
	a := r.fire(ctx, PreToolUse, func(s Set) string { n, _ := r.view(s, c); return n }, func(s Set) map[string]any {
		n, in := r.view(s, c)
		return map[string]any{"tool_name": n, "tool_input": in, "tool_use_id": c.ID}
	}, false)
	v := engine.HookVerdict{Stop: a.stop, StopReason: a.stopReason, Context: strings.Join(a.context, "\n")}
	switch {
	case a.block:
		v.Decision, v.Reason = engine.HookBlock, a.reason()
	case a.permission == "ask":
		v.Decision = engine.HookAsk
	case a.permission == "allow":
		v.Decision = engine.HookAllow
	}
	if a.updated != nil {
		v.Arguments = r.arguments(c, a)
	}
	return v
}

// arguments turns a hook's updatedInput into the call's new arguments:
// from Claude Code's settings it is in its tool's field names, from
// llmrt's own in llmrt's; the fields it names replace the call's.
func (r *Runner) arguments(c engine.HookCall, a answer) json.RawMessage {
	if a.claude {
		return llmrtArguments(c, a.updated)
	}
	args := map[string]any{}
	_ = json.Unmarshal(c.Arguments, &args)
	for k, v := range a.updated {
		args[k] = v
	}
	b, _ := json.Marshal(args)
	return b
}

// AfterTool runs the PostToolUse hooks.
func (r *Runner) AfterTool(ctx context.Context, c engine.HookCall, o engine.ToolOutcome) engine.HookVerdict {
	if !r.Has(PostToolUse) {
		return engine.HookVerdict{}
	}
	a := r.fire(ctx, PostToolUse, func(s Set) string { n, _ := r.view(s, c); return n }, func(s Set) map[string]any {
		n, in := r.view(s, c)
		var resp any = map[string]any{"content": o.Content, "is_error": o.IsError, "failed": o.Failed}
		if s.Claude {
			resp = claudeResponse(c, o)
		}
		return map[string]any{"tool_name": n, "tool_input": in, "tool_response": resp, "tool_use_id": c.ID}
	}, false)
	v := engine.HookVerdict{Stop: a.stop, StopReason: a.stopReason, Context: strings.Join(a.context, "\n")}
	if a.block {
		v.Decision, v.Reason = engine.HookBlock, a.reason()
	}
	return v
}

// BeforeStop runs the Stop hooks, or SubagentStop for a sub-run.
func (r *Runner) BeforeStop(ctx context.Context, s engine.HookStop) engine.HookVerdict {
	event := Stop
	if s.SubRun {
		event = SubagentStop
	}
	if !r.Has(event) {
		return engine.HookVerdict{}
	}
	a := r.fire(ctx, event, func(Set) string { return "" }, func(Set) map[string]any {
		return map[string]any{"stop_hook_active": s.Again}
	}, false)
	v := engine.HookVerdict{Stop: a.stop, StopReason: a.stopReason}
	if a.block {
		v.Decision, v.Reason = engine.HookBlock, a.reason()
	}
	return v
}

// PromptVerdict is what UserPromptSubmit hooks said about a prompt.
type PromptVerdict struct {
	// Blocked says the prompt is not sent; Reason is for the person.
	Blocked bool
	Reason  string
	// Context is added to the prompt for the model.
	Context string
}

// UserPromptSubmit runs the hooks for a prompt about to be sent.
func (r *Runner) UserPromptSubmit(ctx context.Context, prompt string) PromptVerdict {
	if !r.Has(UserPromptSubmit) {
		return PromptVerdict{}
	}
	a := r.fire(ctx, UserPromptSubmit, func(Set) string { return "" }, func(Set) map[string]any {
		return map[string]any{"prompt": prompt}
	}, true)
	if a.block || a.stop {
		return PromptVerdict{Blocked: true, Reason: firstNonEmpty(a.reason(), firstNonEmpty(a.stopReason, "a UserPromptSubmit hook blocked the prompt"))}
	}
	return PromptVerdict{Context: strings.Join(a.context, "\n")}
}

// SessionStart runs the hooks for a session starting (source: startup,
// resume, clear or compact) and returns the context they add.
func (r *Runner) SessionStart(ctx context.Context, source string) string {
	if !r.Has(SessionStart) {
		return ""
	}
	a := r.fire(ctx, SessionStart, func(Set) string { return source }, func(Set) map[string]any {
		return map[string]any{"source": source}
	}, true)
	return strings.Join(a.context, "\n")
}

// SessionEnd runs the hooks for a session ending (reason: clear, exit,
// other).
func (r *Runner) SessionEnd(ctx context.Context, reason string) {
	if r.Has(SessionEnd) {
		r.fire(ctx, SessionEnd, func(Set) string { return reason }, func(Set) map[string]any {
			return map[string]any{"reason": reason}
		}, false)
	}
}

// PreCompact runs the hooks before a compaction (trigger: manual or
// auto).
func (r *Runner) PreCompact(ctx context.Context, trigger, instructions string) {
	if r.Has(PreCompact) {
		r.fire(ctx, PreCompact, func(Set) string { return trigger }, func(Set) map[string]any {
			return map[string]any{"trigger": trigger, "custom_instructions": instructions}
		}, false)
	}
}

// Notification runs the hooks for a notification to the person.
func (r *Runner) Notification(ctx context.Context, message string) {
	if r.Has(Notification) {
		r.fire(ctx, Notification, func(Set) string { return "" }, func(Set) map[string]any {
			return map[string]any{"message": message}
		}, false)
	}
}

// Seal notes the contents of the project files project hooks' commands
// name, as they are now (when the folder's trust was decided): a script
// changed afterwards — by a command of the run itself, say — does not run.
func (r *Runner) Seal() {
	r.sums = map[string]string{}
	for _, s := range r.Sets {
		if !s.Project {
			continue
		}
		for _, p := range Scripts(s, r.ProjectDir, r.Dir) {
			r.sums[p] = sum(p)
		}
	}
}

// changed says why a project hook's command may not run: a script it
// names is not what it was when sealed. "" when it may.
func (r *Runner) changed(s Set, c Command) string {
	if !s.Project || r.sums == nil {
		return ""
	}
	for _, p := range scriptsOf(c.Command, r.ProjectDir, r.Dir) {
		if was, ok := r.sums[p]; !ok || sum(p) != was {
			return "its script " + p + " changed since llmrt started, so it did not run; check the change, then start llmrt again"
		}
	}
	return ""
}

// Scripts returns the files inside projectDir that the set's commands
// name (after $CLAUDE_PROJECT_DIR), which run with the person's rights:
// they need trust as the settings file does.
func Scripts(s Set, projectDir, dir string) []string {
	seen := map[string]bool{}
	var out []string
	for _, ms := range s.Events {
		for _, m := range ms {
			for _, c := range m.Commands {
				for _, p := range scriptsOf(c.Command, projectDir, dir) {
					if !seen[p] {
						seen[p] = true
						out = append(out, p)
					}
				}
			}
		}
	}
	return out
}

// scriptsOf returns the existing files inside projectDir a command line
// names, as words or after $CLAUDE_PROJECT_DIR.
func scriptsOf(command, projectDir, dir string) []string {
	expanded := os.Expand(command, func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" || k == "LLMRT_PROJECT_DIR" {
			return projectDir
		}
		return "$" + k
	})
	var out []string
	for _, w := range strings.FieldsFunc(expanded, func(r rune) bool { return strings.ContainsRune(" \t\n;&|()<>\"'", r) }) {
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		rel, err := filepath.Rel(projectDir, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}

func sum(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "missing"
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
