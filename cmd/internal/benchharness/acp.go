package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// acpInitialize starts `llmrt acp` as an editor does and measures the
// time until its answer to initialize is read, then its resident memory
// once idle (VmRSS, not the peak: an editor keeps the agent running). The
// agent is then let go by closing its stdin.
func (h *harness) acpInitialize() sample {
	cmd := exec.Command(h.bin, "acp")
	cmd.Dir = h.ws
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(h.ws, "state"), "XDG_CONFIG_HOME="+filepath.Join(h.ws, "config"))
	in, err := cmd.StdinPipe()
	check(err)
	out, err := cmd.StdoutPipe()
	check(err)
	start := time.Now()
	check(cmd.Start())
	_, err = in.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}` + "\n"))
	check(err)
	line, err := bufio.NewReader(out).ReadString('\n')
	wall := time.Since(start)
	if err != nil || !strings.Contains(line, `"protocolVersion":1`) {
		fmt.Fprintf(os.Stderr, "benchharness: llmrt acp did not answer initialize: %v %q\n", err, line)
		os.Exit(1)
	}
	rss := vmRSS(cmd.Process.Pid)
	in.Close()
	check(cmd.Wait())
	return sample{wall: wall, rss: rss}
}

// vmRSS is a live process's resident memory in KiB, 0 where /proc has
// no such line.
func vmRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kib, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kib
		}
	}
	return 0
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchharness:", err)
		os.Exit(1)
	}
}
