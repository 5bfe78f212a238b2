// Package hopper is a test program that escapes process accounting: it
// forks, lets the parent exit and does it again every 200 µs, in a session
// of its own, so that neither a list of pids nor a process group a caller
// made holds it. Tests of the sandbox and of shell_cmd's cleanup use it to
// check that a call's leftovers end with the call. Only tests import it.
package hopper

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Source is the hopper's program. Its file (the argument) holds its
// session id, then how many times it hopped, written now and then. After
// the first fork it runs on one thread with only raw system calls and no
// allocation, which a Go program cut off from its other threads can do.
const Source = `package main

import (
	"os"
	"syscall"
	"unsafe"
)

var keep *os.File

// digits writes n into b, right-aligned, padded with zeros.
func digits(b []byte, n int) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
}

func main() {
	f, err := os.OpenFile(os.Args[1], os.O_WRONLY|os.O_CREATE, 0o666)
	if err != nil {
		os.Exit(1)
	}
	keep = f
	fd := f.Fd()
	sid, _ := syscall.Setsid()
	var buf [23]byte
	digits(buf[:10], sid)
	buf[10] = ' '
	ts := syscall.Timespec{Nsec: 200_000}
	for gen := 0; ; gen++ {
		if gen%50 == 0 {
			digits(buf[11:], gen)
			syscall.RawSyscall6(syscall.SYS_PWRITE64, fd, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), 0, 0, 0)
		}
		syscall.RawSyscall(syscall.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0)
		pid, _, errno := syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
		if errno == 0 && pid != 0 {
			syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
		}
	}
}
`

var built struct {
	sync.Mutex
	path map[string]string // the directory given → the hopper built there
}

// Build builds the hopper in a directory of its own under dir (readable
// by every user), once per dir for the test binary, and returns its path.
// The hopper lives as long as dir.
func Build(t testing.TB, dir string) string {
	t.Helper()
	built.Lock()
	defer built.Unlock()
	if p, ok := built.path[dir]; ok {
		return p
	}
	d, err := os.MkdirTemp(dir, "hopper")
	if err == nil {
		err = os.Chmod(d, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(d, "main.go"), []byte(Source), 0o644)
	}
	if err == nil {
		build := exec.Command("go", "build", "-o", "hopper", "main.go")
		build.Dir = d
		build.Env = append(os.Environ(), "GOFLAGS=", "CGO_ENABLED=0")
		var out []byte
		if out, err = build.CombinedOutput(); err != nil {
			err = &buildError{err, out}
		}
	}
	if err != nil {
		t.Fatalf("build the hopper: %v", err)
	}
	if built.path == nil {
		built.path = map[string]string{}
	}
	built.path[dir] = filepath.Join(d, "hopper")
	return built.path[dir]
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + string(e.out) }

// Wait waits until the hopper has written file.
func Wait(t testing.TB, file string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(file); len(b) > 0 {
			return
		}
	}
	t.Fatalf("the hopper did not start: %s is empty", file)
}

// Growing reports whether the count in file still grows: the hopper
// writing it still runs.
func Growing(file string) bool {
	before, _ := os.ReadFile(file)
	time.Sleep(300 * time.Millisecond)
	after, _ := os.ReadFile(file)
	return !bytes.Equal(before, after)
}

// Stop kills what is left of the hopper writing file, through its
// session's process group, which stays whatever pid it hops to; a hopper
// that outlived a test would otherwise take the machine's processors.
func Stop(file string) {
	b, _ := os.ReadFile(file)
	var sid int
	if f := strings.Fields(string(b)); len(f) > 0 {
		sid, _ = strconv.Atoi(strings.TrimLeft(f[0], "0"))
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && sid > 1; time.Sleep(20 * time.Millisecond) {
		if syscall.Kill(-sid, syscall.SIGKILL) != nil {
			return
		}
	}
}
