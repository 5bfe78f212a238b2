package mcp

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// killGrace is how long a server's process group has after SIGTERM:
// short enough that llmrt exits within 2.5 s of being asked to when a
// server ignores SIGTERM.
const killGrace = 1500 * time.Millisecond

// serverEnvNames are the variables of llmrt's environment every stdio
// server gets, as Codex and the MCP SDKs pass them: what a program needs
// to find its tools, home, terminal, temporary directory, locale and time
// zone. Every LC_* locale variable is passed too.
var serverEnvNames = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "LANG", "TZ"}

// serverEnv returns the environment of stdio server s from base (llmrt's,
// in os.Environ's KEY=VALUE form): the variables serverEnvNames and LC_*
// name, those s.EnvVars names, then s.Env over them, sorted by name. A
// provider key reaches the server only if the config names it.
func serverEnv(base []string, s Server) []string {
	env := make([]string, 0, len(serverEnvNames)+len(s.EnvVars)+len(s.Env))
	for _, kv := range base {
		name, _, ok := strings.Cut(kv, "=")
		if _, set := s.Env[name]; !ok || set {
			continue
		}
		if slices.Contains(serverEnvNames, name) || strings.HasPrefix(name, "LC_") || slices.Contains(s.EnvVars, name) {
			env = append(env, kv)
		}
	}
	for k, v := range s.Env {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env
}

// tailBuffer keeps the last max bytes written.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if b.buf.Len() > b.max {
		rest := b.buf.Bytes()[b.buf.Len()-b.max:]
		nb := append([]byte(nil), rest...)
		b.buf.Reset()
		b.buf.Write(nb)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// closeWait is how long a stdio server gets to exit once its input is
// closed, and again after SIGTERM, before it is killed.
const closeWait = 2 * time.Second

// waitProcess reaps a stdio server whose input was just closed: it waits
// for the process to exit, signalling it with SIGTERM and then SIGKILL
// when it does not.
func waitProcess(cmd *exec.Cmd) error {
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for _, sig := range []syscall.Signal{0, syscall.SIGTERM, syscall.SIGKILL} {
		if sig != 0 {
			_ = cmd.Process.Signal(sig)
		}
		select {
		case err := <-exited:
			return err
		case <-time.After(closeWait):
		}
	}
	return errors.New("the server's process did not exit after SIGKILL")
}

// stopGroup waits a grace period for a signalled process group to end,
// then kills what is left of it.
func stopGroup(pgid int) {
	deadline := time.Now().Add(killGrace)
	for time.Now().Before(deadline) {
		if !groupLive(pgid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	// Wait briefly for the group to be gone, so that a caller exiting next
	// leaves nothing behind.
	for i := 0; i < 50 && groupLive(pgid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
}

// groupLive reports whether a process group has a member that is not a
// zombie (a zombie whose parent does not reap it is dead all the same).
func groupLive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...
		rest := string(b)
		if i := strings.LastIndexByte(rest, ')'); i >= 0 {
			rest = rest[i+1:]
		}
		f := strings.Fields(rest)
		if len(f) >= 3 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			return true
		}
	}
	return false
}
