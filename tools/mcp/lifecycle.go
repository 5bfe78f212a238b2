package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmrt/llmrt/tools/mcp/internal/rpc"
)

// Server states, as Status reports them.
const (
	StateStarting = "starting"
	StateReady    = "ready"
	StateFailed   = "failed"
	// StateExited is a stdio server whose process ended; its tools stay
	// offered and the next call starts it again.
	StateExited = "exited"
	// StateRestarting is told to OnStatus once for each restart (a stdio
	// server started again, an HTTP session initialised again); Statuses
	// never report it.
	StateRestarting = "restarting"
	StateDisabled   = "disabled"
)

// MaxRestarts bounds how often one server is started again in a session;
// Reconnect and Enable start the count again.
const MaxRestarts = 3

// restartDelay is how long after an exit restart n (from 0) waits: a
// server that dies on start-up is not started in a tight loop.
func restartDelay(n int) time.Duration {
	d := 250 * time.Millisecond << n
	return min(d, 5*time.Second)
}

// readyClient returns the client a call goes to. A stdio server found dead is
// noted as exited; an exited one is started again, within MaxRestarts.
func (c *conn) readyClient(ctx context.Context) (*session, error) {
	c.reviveMu.Lock()
	defer c.reviveMu.Unlock()
	c.mu.Lock()
	state, cl, pid := c.state, c.client, c.pid
	c.mu.Unlock()
	if state == StateReady && pid > 0 && !processRunning(pid) {
		c.noteExit(pid, "")
		state = StateExited
	}
	switch state {
	case StateDisabled:
		return nil, errors.New("it is disabled")
	case StateExited:
		var err error
		if cl, err = c.restart(ctx); err != nil {
			return nil, err
		}
	}
	if cl == nil {
		return nil, errors.New("it is not running")
	}
	c.mu.Lock()
	gate := c.roots
	c.mu.Unlock()
	gate.wait(ctx)
	return cl, nil
}

// afterFailure looks at a call that failed on cl: a stdio server that
// ended is noted as exited and the error says how, with its stderr tail;
// an HTTP session the server lost is initialised again, and the client
// for one more try is returned.
func (c *conn) afterFailure(ctx context.Context, cl *session, err error) (retry *session, why error) {
	c.reviveMu.Lock()
	defer c.reviveMu.Unlock()
	c.mu.Lock()
	current, pid := c.client, c.pid
	c.mu.Unlock()
	if current != cl {
		return nil, err // already dealt with by another call
	}
	kind, _ := c.cfg.Transport()
	switch {
	case kind == TransportStdio && pid > 0 && (errors.Is(err, rpc.ErrClosed) || !processRunning(pid)):
		// The process ends as its output does (or a write to it failed
		// as it ended); give it a moment to.
		deadline := time.Now().Add(2 * time.Second)
		for processRunning(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		msg := c.noteExit(pid, "closed its connection")
		return nil, fmt.Errorf("%s; it is started again on the next call", msg)
	case kind != TransportStdio && sessionLost(err):
		c.mu.Lock()
		c.exitedAt = time.Now()
		c.mu.Unlock()
		next, rerr := c.restart(ctx)
		if rerr != nil {
			return nil, rerr
		}
		return next, nil
	}
	return nil, err
}

// sessionLost reports an HTTP server's answer that it no longer knows the
// session: a 404, or a session error in the body of another status.
func sessionLost(err error) bool {
	if errors.Is(err, rpc.ErrSessionLost) {
		return true
	}
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "session") && (strings.Contains(msg, "not found") || strings.Contains(msg, "invalid") ||
		strings.Contains(msg, "no valid") || strings.Contains(msg, "expired") || strings.Contains(msg, "unknown"))
}

// noteExit records that the stdio server with pid ended: its exit status
// (or how, when the process is still there: it is stopped), and the tail
// of its stderr with the server's secrets taken out. It returns the
// message.
func (c *conn) noteExit(pid int, how string) string {
	status := exitStatus(pid)
	if status == "" {
		status = how
	}
	if status == "" {
		status = "exited"
	}
	msg := "the server " + status
	// Closing waits for the process, and so for the last of its stderr.
	c.close()
	c.mu.Lock()
	tail := c.stderr
	c.mu.Unlock()
	if tail != nil {
		if s := strings.TrimSpace(tail.String()); s != "" {
			msg += "; stderr: " + lastLines(s, 10)
		}
	}
	msg = c.redact(msg)
	c.mu.Lock()
	c.state, c.err, c.exitedAt = StateExited, msg, time.Now()
	c.mu.Unlock()
	return msg
}

// restart starts the server again, unless it has been restarted
// MaxRestarts times already. OnStatus is told once, before.
func (c *conn) restart(ctx context.Context) (*session, error) {
	c.mu.Lock()
	n, last, since := c.restarts, c.err, time.Since(c.exitedAt)
	c.mu.Unlock()
	if c.src != nil && c.src.closed.Load() {
		return nil, errors.New("llmrt is stopping its MCP servers")
	}
	if n >= MaxRestarts {
		return nil, fmt.Errorf("%s; not restarted again after %d restarts this session (reconnect it with /mcp in the chat, or start llmrt again)", last, n)
	}
	if wait := restartDelay(n) - since; wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c.mu.Lock()
	c.restarts++
	n = c.restarts
	c.mu.Unlock()
	if c.src != nil && c.src.OnStatus != nil {
		st := c.status()
		st.State, st.Restarts = StateRestarting, n
		c.src.OnStatus(st)
	}
	if err := c.reconnect(ctx); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.client, nil
}

// reconnect ends the server's connection (and process) and starts it
// again, telling OnStatus the outcome.
func (c *conn) reconnect(ctx context.Context) error {
	c.close()
	c.mu.Lock()
	c.state, c.err, c.pid = "", "", 0
	c.mu.Unlock()
	c.start(ctx)
	st := c.status()
	if c.src != nil && c.src.OnStatus != nil {
		c.src.OnStatus(st)
	}
	if st.State != StateReady {
		return errors.New(st.Err)
	}
	return nil
}

// redact takes the values of the server's env and headers out of s: a
// crash report may repeat them.
func (c *conn) redact(s string) string {
	var secrets []string
	for _, v := range c.cfg.Env {
		secrets = append(secrets, v)
	}
	for _, v := range c.cfg.Headers {
		secrets = append(secrets, v)
		if _, tok, ok := strings.Cut(v, " "); ok {
			secrets = append(secrets, tok)
		}
	}
	for _, name := range c.cfg.EnvVars {
		secrets = append(secrets, os.Getenv(name))
	}
	// Longest first, so that a value holding another goes whole.
	slices.SortFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	for _, v := range secrets {
		if len(strings.TrimSpace(v)) >= 6 {
			s = strings.ReplaceAll(s, v, "[redacted]")
		}
	}
	return s
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// statFields returns the fields of /proc/pid/stat after the command name:
// the state first.
func statFields(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	return strings.Fields(s)
}

// processRunning reports whether pid is a live process (not a zombie).
func processRunning(pid int) bool {
	f := statFields(pid)
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// exitStatus says how the ended process pid ended, read from its zombie
// before it is reaped: "exited with exit status 3", "was killed by
// signal 9 (killed)". It is "" for a live or already reaped process.
func exitStatus(pid int) string {
	f := statFields(pid)
	// exit_code is field 52 of stat; f starts at field 3.
	if len(f) < 50 || f[0] != "Z" {
		return ""
	}
	code, err := strconv.Atoi(f[49])
	if err != nil {
		return ""
	}
	ws := syscall.WaitStatus(code)
	switch {
	case ws.Exited():
		return "exited with exit status " + strconv.Itoa(ws.ExitStatus())
	case ws.Signaled():
		return fmt.Sprintf("was killed by signal %d (%s)", int(ws.Signal()), ws.Signal())
	}
	return ""
}
