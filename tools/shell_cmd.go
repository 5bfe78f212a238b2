package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/llmrt/llmrt/tools/sandbox"
)

const (
	defaultShellTimeout = 120 * time.Second
	maxShellTimeout     = 600 * time.Second
	defaultGraceKill    = 2 * time.Second
	defaultShellOutput  = 30_000
	shellProgressEvery  = 5 * time.Second
)

const shellCmdSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "minLength": 1, "description": "Without args: a bash command line, run by bash -c (pipes, redirects, && and quoting work). With args: the program to execute directly, found on PATH"},
    "args": {"type": "array", "items": {"type": "string"}, "description": "Arguments passed to command as-is, with no shell interpretation ($VARS, globs and quotes stay literal). Give args (even []) to run without a shell"},
    "directory": {"type": "string", "description": "Directory to run in, relative to the working directory and inside it (default: the working directory)"},
    "timeout_ms": {"type": "integer", "minimum": 1, "maximum": 600000, "description": "Kill the command after this many milliseconds (default 120000, max 600000)"}
  },
  "required": ["command"],
  "additionalProperties": false
}`

type shellArgs struct {
	Command   string    `json:"command"`
	Args      *[]string `json:"args"`
	Directory string    `json:"directory"`
	TimeoutMS int       `json:"timeout_ms"`
}

// shellResult is the JSON the model sees.
type shellResult struct {
	ExitCode    int    `json:"exit_code"`
	Signal      string `json:"signal,omitempty"`
	TimedOut    bool   `json:"timed_out"`
	DurationMS  int64  `json:"duration_ms"`
	Output      string `json:"output"`
	Truncated   bool   `json:"truncated"`
	OutputBytes int64  `json:"output_bytes,omitempty"`
	Note        string `json:"note,omitempty"`
}

func shellCmdTool(ws *Workspace, opts ShellOptions) Tool {
	return Tool{
		Name: "shell_cmd",
		Description: "Run a command in the working directory and return its exit code, combined stdout+stderr, whether it timed out, and its duration. " +
			"stdin is empty (/dev/null), so interactive commands cannot prompt. Long output keeps its beginning and end; filter it (grep, tail) when you need a part. " +
			"Default timeout 120 s (timeout_ms up to 600000); on timeout the whole process tree is stopped. " +
			"Background processes (cmd &, nohup, setsid) are stopped when the call returns, so a server cannot be left running for a later call: start it and use it within one command. " +
			"Variables whose names look like secrets (*KEY*, *TOKEN*, *SECRET*, *PASS*, *PWD*, *DSN*, *CREDENTIAL*) or whose values are URLs with credentials are not in the environment. A non-zero exit_code is reported, not treated as a failure of the tool.",
		Schema:    json.RawMessage(shellCmdSchema),
		Kind:      KindExternalAction,
		Source:    SourceBuiltin,
		Sandboxed: opts.Sandbox.Confined(),
		Execute: func(ctx context.Context, raw json.RawMessage) (Result, error) {
			var args shellArgs
			if r := decodeArgs(raw, &args); r != nil {
				return *r, nil
			}
			return runShell(ctx, ws, opts, args)
		},
	}
}

func runShell(ctx context.Context, ws *Workspace, opts ShellOptions, a shellArgs) (Result, error) {
	dir := a.Directory
	if dir == "" {
		dir = "."
	}
	absDir, err := ws.ResolveWrite(dir)
	if err != nil {
		return Errorf("%v", err), nil
	}
	if info, err := os.Stat(absDir); err != nil || !info.IsDir() {
		return Errorf("directory %s does not exist or is not a directory", dir), nil
	}
	shell := ""
	if a.Args == nil {
		if shell, err = findBash(); err != nil {
			return Errorf("%v", err), nil
		}
	}
	timeout := durationOr(opts.DefaultTimeout, defaultShellTimeout)
	if a.TimeoutMS > 0 {
		timeout = time.Duration(a.TimeoutMS) * time.Millisecond
	}
	timeout = min(timeout, maxShellTimeout)
	grace := durationOr(opts.GraceKill, defaultGraceKill)

	out := newHeadTail(intOr(opts.MaxOutputBytes, defaultShellOutput))
	marker := newCallMarker()
	cmd := buildCmd(a, shell, absDir, opts, out, marker)
	// WaitDelay bounds Wait when a background process keeps the output pipe
	// open after the command (or the killed group leader) has exited.
	cmd.WaitDelay = grace

	policy := opts.Sandbox
	policy.Workspace = ws.Root()
	if Planning(ctx) {
		// A run that plans changes nothing: its commands run read-only in
		// the kernel, whatever a rule let through. Without the sandbox the
		// permission layer refuses them; this refuses any that got past it.
		if !policy.Confined() {
			return Errorf("planning mode runs commands only under the read-only sandbox, and the sandbox is off; read files with the read tools instead"), nil
		}
		policy.Mode = sandbox.ReadOnly
		policy.Writable = nil
	}
	var guarded *guard
	if policy.Confined() && len(opts.Protected) > 0 {
		guarded = newGuard(ws.Root(), opts.Protected)
	}
	start := time.Now()
	watch := watchCall(marker)
	defer watch.done()
	cleanup, err := sandbox.Start(cmd, policy)
	if err != nil {
		return Errorf("cannot run %q: %v", a.Command, err), nil
	}
	defer cleanup()
	notice := sandbox.Notice()
	pgid := cmd.Process.Pid
	watch.started(pgid)
	exit := watchExit(pgid) // before Wait may reap it
	defer exit.close()
	done := make(chan error, 1)
	// This goroutine ends when Wait returns, which WaitDelay bounds.
	go func() { done <- cmd.Wait() }()
	res, cancelled, waitErr := superviseShell(ctx, pgid, done, exit.exited(), out, timeout, grace)
	// Whatever the command left behind, in its process group or out of it,
	// is stopped now: nothing a call starts outlives it.
	left := 0
	held := errors.Is(waitErr, errOutputHeld)
	if !res.TimedOut && !cancelled {
		members, _ := liveMembers(pgid)
		left = len(members)
		stopGroup(pgid, grace, nil)
	}
	if held {
		// The command has exited but processes it left hold its output
		// open: they are stopped now, rather than after the grace, and
		// what they and the command wrote is read to its end.
		left += watch.stop(grace)
		waitErr = <-done
	}
	res.DurationMS = time.Since(start).Milliseconds()
	if sandbox.Ended(cmd) {
		left++
	}
	if !held {
		left += watch.stop(grace)
	}
	if left > 0 || errors.Is(waitErr, exec.ErrWaitDelay) {
		res.Note = joinNotes(res.Note, "background processes the command started were stopped when it returned; llmrt does not keep processes running between calls")
	}
	// Only now, with nothing of the command left running, can what it did
	// to the protected files be undone for good.
	if guarded != nil {
		if changed := guarded.restore(); len(changed) > 0 {
			res.Note = joinNotes(res.Note, guardNote(changed))
		}
	}
	if st := cmd.ProcessState; st != nil {
		res.ExitCode = st.ExitCode()
		if status, ok := st.Sys().(syscall.WaitStatus); ok && status.Signaled() {
			res.Signal = status.Signal().String()
		}
	}
	res.Output, res.Truncated = out.String()
	res.Output = cleanOutput(res.Output)
	if why := sandbox.Explain(res.Output, policy); why != "" && res.ExitCode != 0 {
		res.Note = joinNotes(res.Note, why)
	}
	if notice != "" {
		res.Note = joinNotes(res.Note, notice)
	}
	if res.Truncated {
		res.OutputBytes = out.Total()
	}
	maxOut := intOr(opts.MaxOutputBytes, defaultShellOutput)
	r := shellToolResult(res, maxOut+1_000)
	switch {
	case cancelled:
		r.IsError = true
		return r, ctx.Err()
	case res.TimedOut:
		r.IsError = true
	}
	return r, nil
}

// findBash finds the bash that runs command lines. Lines run under bash,
// never /bin/sh (dash on Debian and Ubuntu, bash elsewhere), because the
// permission rules read a line as bash does: a line that the rules and
// the shell read differently could run what a rule forbids. The system's
// own bash comes first, as it is the one a confined command can see.
func findBash() (string, error) {
	for _, p := range []string{"/bin/bash", "/usr/bin/bash"} {
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath("bash"); err == nil {
		return p, nil
	}
	return "", errors.New("shell_cmd runs command lines with bash, and this system has none (not in /bin, /usr/bin or on PATH); give args to run a program without a shell, or ask the user to install bash")
}

// buildCmd prepares the command: a line for shell (bash), or a program
// and its arguments without a shell, writing both streams to out.
func buildCmd(a shellArgs, shell, dir string, opts ShellOptions, out *headTail, marker string) *exec.Cmd {
	var cmd *exec.Cmd
	if a.Args != nil {
		cmd = exec.Command(a.Command, *a.Args...)
	} else {
		cmd = exec.Command(shell, "-c", a.Command)
	}
	cmd.Dir = dir
	cmd.Env = commandEnv(opts.Env, opts.EnvPolicy, marker)
	// Stdin stays nil: exec connects /dev/null, so a prompt reads EOF
	// instead of hanging. Its own process group lets us signal the whole
	// tree, grandchildren included.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// One writer for both streams: exec then uses a single pipe, which keeps
	// stdout and stderr interleaved as the command wrote them.
	cmd.Stdout, cmd.Stderr = out, out
	return cmd
}

// errOutputHeld says the command exited while processes it left still
// hold its output open.
var errOutputHeld = errors.New("the command exited; processes it left hold its output")

// heldFor is how long a command's output may stay open after it exited
// before the processes holding it are taken for leftovers.
const heldFor = 50 * time.Millisecond

// superviseShell waits for the command, stopping its process group on
// timeout or cancellation, and reports progress while it runs. exited
// (nil where the exit cannot be watched) is closed when the command's
// process has exited; when its output stays open past that, it returns
// errOutputHeld.
func superviseShell(ctx context.Context, pgid int, done <-chan error, exited <-chan struct{}, out *headTail, timeout, grace time.Duration) (shellResult, bool, error) {
	var res shellResult
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	tick := time.NewTicker(shellProgressEvery)
	defer tick.Stop()
	start := time.Now()
	for {
		select {
		case err := <-done:
			return res, false, err
		case <-exited:
			select {
			case err := <-done:
				return res, false, err
			case <-time.After(heldFor):
				return res, false, errOutputHeld
			}
		case <-timer.C:
			res.TimedOut = true
			res.Note = fmt.Sprintf("timed out after %d ms; the whole process group was stopped (SIGTERM, then SIGKILL if it lingered). Raise timeout_ms (max 600000) or run something shorter", timeout.Milliseconds())
			return res, false, stopGroup(pgid, grace, done)
		case <-ctx.Done():
			res.Note = "cancelled; the process group was stopped"
			return res, true, stopGroup(pgid, grace, done)
		case <-tick.C:
			ReportProgress(ctx, Progress{Message: fmt.Sprintf("running for %s, %d bytes of output", time.Since(start).Round(time.Second), out.Total())})
		}
	}
}

func durationOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func intOr(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
