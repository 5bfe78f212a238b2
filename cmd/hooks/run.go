package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// maxOutput bounds what a hook command's stdout and stderr are read for.
const maxOutput = 1 << 20

// result is how one hook command ended.
type result struct {
	command        string
	exit           int // -1: it did not run to an exit status
	stdout, stderr string
	err            error
}

// run runs one command with input on stdin, bounded by its timeout and
// ctx; the whole process group goes when either ends.
func (r *Runner) run(ctx context.Context, c Command, input []byte) result {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", c.Command)
	cmd.Dir = r.Dir
	cmd.Env = append(append([]string(nil), r.Env...), "CLAUDE_PROJECT_DIR="+r.ProjectDir, "LLMRT_PROJECT_DIR="+r.ProjectDir)
	cmd.Stdin = bytes.NewReader(input)
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	res := result{command: c.Command, exit: -1, stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		res.err = fmt.Errorf("timed out after %s", c.Timeout)
	case ctx.Err() != nil:
		res.err = ctx.Err()
	case errors.As(err, &exit) && exit.Exited():
		res.exit = exit.ExitCode()
	case err != nil:
		res.err = err
	default:
		res.exit = 0
	}
	return res
}

// capped keeps the first maxOutput bytes written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// output is the JSON a hook may print on stdout, as Claude Code reads it.
type output struct {
	Continue       *bool  `json:"continue"`
	StopReason     string `json:"stopReason"`
	SystemMessage  string `json:"systemMessage"`
	Decision       string `json:"decision"`
	Reason         string `json:"reason"`
	SpecificOutput struct {
		PermissionDecision       string         `json:"permissionDecision"`
		PermissionDecisionReason string         `json:"permissionDecisionReason"`
		UpdatedInput             map[string]any `json:"updatedInput"`
		AdditionalContext        string         `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// answer is what the hooks of one event said, all commands together.
type answer struct {
	block      bool     // exit 2, decision "block", permissionDecision "deny"
	reasons    []string // why it blocked: for the model or the person
	permission string   // allow or ask ("deny" is block)
	updated    map[string]any
	// claude says updated came from a hook of Claude Code's settings, in
	// its tool's field names.
	claude     bool
	context    []string // additional context for the model
	stop       bool     // "continue": false
	stopReason string
}

func (a *answer) reason() string { return strings.Join(a.reasons, "\n") }

// read folds one command's result into the answer. plainContext says
// the event takes plain stdout as context (UserPromptSubmit and
// SessionStart do).
func (r *Runner) read(event string, res result, plainContext, claude bool, a *answer) {
	switch {
	case res.err != nil:
		r.warn(fmt.Sprintf("%s hook %q did not finish: %v", event, res.command, res.err))
		return
	case res.exit == 2:
		a.block = true
		a.reasons = appendNonEmpty(a.reasons, strings.TrimSpace(res.stderr))
		return
	case res.exit != 0:
		r.warn(fmt.Sprintf("%s hook %q failed (exit %d): %s", event, res.command, res.exit, oneLine(firstNonEmpty(res.stderr, res.stdout))))
		return
	}
	out := strings.TrimSpace(res.stdout)
	var o output
	if !strings.HasPrefix(out, "{") || json.Unmarshal([]byte(out), &o) != nil {
		if plainContext {
			a.context = appendNonEmpty(a.context, out)
		}
		return
	}
	if o.SystemMessage != "" {
		r.warn(o.SystemMessage)
	}
	if o.Continue != nil && !*o.Continue {
		a.stop, a.stopReason = true, firstNonEmpty(o.StopReason, a.stopReason)
	}
	sp := o.SpecificOutput
	switch strings.ToLower(firstNonEmpty(sp.PermissionDecision, o.Decision)) {
	case "deny", "block":
		a.block = true
		a.reasons = appendNonEmpty(a.reasons, firstNonEmpty(sp.PermissionDecisionReason, o.Reason))
	case "ask":
		a.permission = "ask" // over allow: asking is the safer answer
	case "allow", "approve":
		if a.permission == "" {
			a.permission = "allow"
		}
	}
	if sp.UpdatedInput != nil {
		a.updated, a.claude = sp.UpdatedInput, claude
	}
	a.context = appendNonEmpty(a.context, sp.AdditionalContext)
}

// fire runs the commands of every set's matchers for event that match
// name (from the set's point of view), side by side, and folds their
// results. input builds a set's stdin, with its view of the call.
func (r *Runner) fire(ctx context.Context, event string, name func(Set) string, input func(Set) map[string]any, plainContext bool) answer {
	type job struct {
		set Set
		cmd Command
		in  []byte
	}
	var jobs []job
	for _, s := range r.Sets {
		n := name(s)
		var in []byte
		for _, m := range s.Events[event] {
			if !m.matches(n) && !r.matchesOldName(s, m, n) {
				continue
			}
			if in == nil {
				fields := map[string]any{"session_id": "", "transcript_path": "", "cwd": r.Dir, "hook_event_name": event, "permission_mode": r.PermissionMode}
				if r.Session != nil {
					fields["session_id"], fields["transcript_path"] = r.Session()
				}
				for k, v := range input(s) {
					fields[k] = v
				}
				in, _ = json.Marshal(fields)
			}
			for _, c := range m.Commands {
				jobs = append(jobs, job{s, c, in})
			}
		}
	}
	results := make([]result, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		if why := r.changed(j.set, j.cmd); why != "" {
			results[i] = result{command: j.cmd.Command, exit: -1, err: errors.New(why)}
			continue
		}
		wg.Go(func() { results[i] = r.run(ctx, j.cmd, j.in) })
	}
	wg.Wait()
	var a answer
	for i, res := range results {
		r.read(event, res, plainContext, jobs[i].set.Claude, &a)
	}
	return a
}

// matchesOldName reports whether a matcher of llmrt's own config names
// the MCP tool mcp__<server>__<tool> by the name it had before,
// <server>_<tool>; it warns once per matcher that it does.
func (r *Runner) matchesOldName(s Set, m Matcher, name string) bool {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if s.Claude || !ok {
		return false
	}
	server, tool, ok := strings.Cut(rest, "__")
	if !ok || !m.matches(server+"_"+tool) {
		return false
	}
	key := s.Source + "\x00" + m.Pattern
	if _, seen := r.oldNames.LoadOrStore(key, true); !seen {
		r.warn(fmt.Sprintf("hooks: %s: matcher %q names the MCP tool %s the old way; write %s", s.Source, m.Pattern, name, name))
	}
	return true
}

func (r *Runner) warn(msg string) {
	if r.Warn != nil {
		r.Warn(msg)
	} else {
		fmt.Fprintln(os.Stderr, "llmrt: "+msg)
	}
}

func appendNonEmpty(list []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" {
		return append(list, s)
	}
	return list
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
