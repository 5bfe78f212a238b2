package mcp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCloseStopsProcessGroup starts stdio servers behind sh -c, one with a
// background child and one that ignores SIGTERM, and checks that no
// process of either tree survives Close. It counts processes, not groups,
// so a server started outside a group of its own is caught too.
func TestCloseStopsProcessGroup(t *testing.T) {
	exe, _ := os.Executable()
	src := New([]Server{
		{Name: "wrapped", Command: "sh", Args: []string{"-c", "sleep 300 & " + exe + "; wait"}, Env: map[string]string{"LLMRT_MCP_TEST_SERVER": "1"}},
		{Name: "stubborn", Command: "sh", Args: []string{"-c", exe + "; true"}, Env: map[string]string{"LLMRT_MCP_TEST_SERVER": "1", "LLMRT_MCP_TEST_IGNORE_TERM": "1"}},
	}, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	if d := src.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %+v", d)
	}
	procs := map[int]string{}
	for _, c := range src.servers {
		for pid, args := range processTree(c.cmd.Process.Pid) {
			procs[pid] = args
		}
	}
	if n := len(procs); n < 5 { // 2 shells, 2 servers, sleep
		t.Fatalf("got %d processes in the servers' trees, want at least 5: %v", n, procs)
	}
	src.Close()
	deadline := time.Now().Add(2 * time.Second)
	for pid, args := range procs {
		for processLive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if processLive(pid) {
			t.Errorf("process %d (%s) survived Close", pid, args)
		}
	}
}

// processTree returns pid and every live process below it, with their
// command lines.
func processTree(pid int) map[int]string {
	parent := map[int]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil || !processLive(p) {
			continue
		}
		if f := procStat(p); len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	out := map[int]string{}
	for p := range parent {
		for q := p; q > 1; q = parent[q] {
			if q == pid {
				b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
				out[p] = strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
				break
			}
		}
	}
	return out
}

// procStat returns the fields of /proc/PID/stat after the command name:
// state, ppid, pgrp...
func procStat(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
}

// processLive reports whether pid is a process that is not a zombie.
func processLive(pid int) bool {
	f := procStat(pid)
	return len(f) > 0 && f[0] != "Z"
}

// TestStartTimeout: a server that never answers initialize fails after its
// start-up timeout with a diagnostic saying what to raise, the others do
// not wait for it longer, and Close stops it.
func TestStartTimeout(t *testing.T) {
	exe, _ := os.Executable()
	pidFile := filepath.Join(t.TempDir(), "mute.pid")
	src := New([]Server{
		{Name: "mute", Command: "sh", Args: []string{"-c", "echo $$ > " + pidFile + "; exec sleep 300"}, Timeout: 0.5},
		{Name: "good", Command: exe, Env: map[string]string{"LLMRT_MCP_TEST_SERVER": "1"}},
	}, t.TempDir())
	start := time.Now()
	if err := src.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("Start took %s, want about the 0.5 s timeout", took)
	}
	d := src.Diagnostics()
	if len(d) != 1 || d[0].Source != "mcp server mute" || !strings.Contains(d[0].Message, `no answer within 500ms (raise "timeout" in its config)`) {
		t.Errorf("diagnostics %+v, want mute's timeout naming the setting", d)
	}
	if st := src.Statuses(); st[1].State != "ready" {
		t.Errorf("good: %+v, want ready", st[1])
	}
	src.Close()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	if mute, _ := strconv.Atoi(strings.TrimSpace(string(b))); processLive(mute) {
		t.Errorf("the mute server (pid %d) survived", mute)
	}
}
