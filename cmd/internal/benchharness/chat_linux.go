//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// chatFirstFrame starts `llmrt chat` on a pseudo-terminal and measures the
// time until its first frame, the status line, is on the terminal. The
// chat is then told to quit with Ctrl-D.
func (h *harness) chatFirstFrame() sample {
	master, slave, err := openPTY(120, 40)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchharness: pty:", err)
		os.Exit(1)
	}
	defer master.Close()
	cmd := exec.Command(h.bin, "chat", "--provider", "scripted", "--model", "none.json")
	cmd.Dir = h.ws
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+filepath.Join(h.ws, "state"), "XDG_CONFIG_HOME="+filepath.Join(h.ws, "config"))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "benchharness: start chat:", err)
		os.Exit(1)
	}
	slave.Close()
	var seen bytes.Buffer
	buf := make([]byte, 64<<10)
	var first time.Duration
	master.SetReadDeadline(time.Now().Add(10 * time.Second))
	for first == 0 {
		n, err := master.Read(buf)
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchharness: chat drew no status line: %v\n%q\n", err, seen.String())
			cmd.Process.Kill()
			os.Exit(1)
		}
		seen.Write(buf[:n])
		if bytes.Contains(seen.Bytes(), []byte("scripted/none.json")) {
			first = time.Since(start)
		}
	}
	master.Write([]byte{4}) // Ctrl-D quits on an empty prompt
	go func() {
		for {
			if _, err := master.Read(buf); err != nil {
				return
			}
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	return sample{wall: first, rss: cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss}
}

// openPTY opens a pseudo-terminal pair of the given size.
func openPTY(cols, rows int) (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		return nil, nil, err
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}); err != nil {
		master.Close()
		slave.Close()
		return nil, nil, err
	}
	return master, slave, nil
}
