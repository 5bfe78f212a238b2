//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// Available reports whether confined modes work on this system, and if not,
// why.
func Available() error {
	v, err := landlockABI()
	if err != nil {
		return fmt.Errorf("this kernel does not offer Landlock (%v); commands run unconfined", err)
	}
	if v < 1 {
		return errors.New("this kernel's Landlock is too old; commands run unconfined")
	}
	return nil
}

// Start starts cmd confined by p (or plainly when p confines nothing). The
// returned cleanup is never nil; call it once the process has exited: it
// removes the private temporary directory of read-only mode.
//
// The restriction is put on a goroutine's OS thread that is locked and
// never unlocked, so the Go runtime throws the thread away when the
// goroutine ends; the command, started from that thread, inherits it.
// Because the starting thread dies at once, cmd must not use Pdeathsig:
// Start clears it. The command leads a session of its own (newSession).
func Start(cmd *exec.Cmd, p Policy) (cleanup func(), err error) {
	cleanup = func() {}
	if !p.Confined() {
		return cleanup, cmd.Start()
	}
	abi, err := landlockABI()
	if err != nil || abi < 1 {
		return cleanup, fmt.Errorf("sandbox %s: this kernel does not offer Landlock; use --sandbox off to run commands unconfined", p.Mode)
	}
	var tmp string
	if p.Mode == ReadOnly {
		if tmp, err = os.MkdirTemp("", "llmrt-sandbox-"); err != nil {
			return cleanup, fmt.Errorf("sandbox: private temp directory: %w", err)
		}
		cleanup = func() { os.RemoveAll(tmp) }
		cmd.Env = setEnv(cmd.Env, "TMPDIR", tmp)
	}
	newSession(cmd)
	cmd.SysProcAttr.Pdeathsig = 0
	if hidden := p.hiddenFiles(); len(hidden) > 0 {
		if userns, ok := hideBy(p); ok {
			if err := startHiding(cmd, p, helperConfig{ABI: abi, Writable: linuxRoots(p, tmp), Hidden: hidden}, userns); err != nil {
				cleanup()
				return func() {}, err
			}
			return cleanup, nil
		}
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: see the doc comment
		done <- startRestricted(cmd, p, abi, linuxRoots(p, tmp))
	}()
	if err := <-done; err != nil {
		cleanup()
		return func() {}, err
	}
	return cleanup, nil
}

// linuxRoots are the writable roots of p on Linux: with workspace-write,
// the shared-memory directory besides.
func linuxRoots(p Policy, tmp string) []string {
	roots := p.writableRoots(tmp)
	if p.Mode == WorkspaceWrite {
		roots = append(roots, "/dev/shm")
	}
	return roots
}

// startRestricted runs on the throw-away thread: it restricts the thread
// and starts cmd.
func startRestricted(cmd *exec.Cmd, p Policy, abi int, writable []string) error {
	if err := restrict(p, abi, writable); err != nil {
		return err
	}
	return cmd.Start()
}

// restrict confines the calling thread, which is locked to its goroutine
// and never unlocked, and every process it starts: it leaves the network
// (unless allowed), drops capabilities and applies the Landlock rules.
//
// The network goes with a new network namespace where the process may make
// one (it holds CAP_SYS_ADMIN, as root does); otherwise, as for any other
// user, with the socket filter of denySockets, plus Landlock's TCP rules
// where the kernel has them.
func restrict(p Policy, abi int, writable []string) error {
	filter := false
	if !p.Network {
		if p.noNamespace {
			filter = true
		} else if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			filter = true
		}
	}
	if err := dropCaps(); err != nil {
		return err
	}
	fd, err := ruleset(abi, writable, filter && abi >= 4)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: no_new_privs: %w", err)
	}
	if err := restrictSelf(fd); err != nil {
		return err
	}
	if filter {
		if err := denySockets(); err != nil {
			return fmt.Errorf("%w; cannot cut the network (no network namespace either), use --sandbox-network to run with it", err)
		}
	}
	return nil
}
