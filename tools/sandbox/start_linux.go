//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"

	"github.com/llmrt/llmrt/tools/sandbox/internal/confine"
)

// Available reports whether confined modes work on this system, and if not,
// why.
func Available() error {
	v, err := confine.LandlockABI()
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
// removes the private temporary directory a command without namespaces
// gets in read-only mode.
//
// Where the system lets it, the command runs in new user, mount, PID, IPC
// and (unless p allows the network) network namespaces, in the view of
// the filesystem view_linux.go describes, with the helper as the init of
// its PID namespace: when the command ends, or llmrt does, so does every
// process it started. Landlock, the socket filter and the capabilities
// it keeps confine it a second time. Where namespaces are refused the
// command is confined by the second layer alone.
//
// The command leads a session of its own (newSession); its process is
// the helper's, the leader of its process group. cmd must not use
// Pdeathsig: Start clears it.
func Start(cmd *exec.Cmd, p Policy) (cleanup func(), err error) {
	cleanup = func() {}
	if !p.Confined() {
		return cleanup, cmd.Start()
	}
	abi, err := confine.LandlockABI()
	if err != nil || abi < 1 {
		return cleanup, fmt.Errorf("sandbox %s: this kernel does not offer Landlock; use --sandbox off to run commands unconfined", p.Mode)
	}
	newSession(cmd)
	cmd.SysProcAttr.Pdeathsig = 0
	if flags, ok := namespaceFlags(p, abi, cmd.Path); ok {
		if err := startInNamespaces(cmd, p, abi, flags); !errors.Is(err, errNoView) {
			if err != nil {
				return cleanup, err
			}
			return func() { forget(cmd) }, nil
		}
	}
	return startWithout(cmd, p, abi)
}

// startWithout starts cmd confined without namespaces of its own but a
// mount namespace to hide files in: Landlock and the socket filter, or a
// network namespace where llmrt may make one. In read-only mode the
// command gets a private temporary directory, which cleanup removes.
//
// The restriction is put on a goroutine's OS thread that is locked and
// never unlocked, so the Go runtime throws the thread away when the
// goroutine ends; the command, started from that thread, inherits it.
func startWithout(cmd *exec.Cmd, p Policy, abi int) (cleanup func(), err error) {
	cleanup = func() {}
	var tmp string
	if p.Mode == ReadOnly {
		if tmp, err = os.MkdirTemp("", "llmrt-sandbox-"); err != nil {
			return cleanup, fmt.Errorf("sandbox: private temp directory: %w", err)
		}
		cleanup = func() { os.RemoveAll(tmp) }
		cmd.Env = setEnv(cmd.Env, "TMPDIR", tmp)
	}
	limits := confine.Limits{ABI: abi, Writable: linuxRoots(p, tmp), Network: p.Network, NewNet: !p.noNamespace, Filter: p.noNamespace}
	if hidden := p.hiddenFiles(); len(hidden) > 0 {
		if userns, ok := hideBy(p); ok {
			mounts := []confine.Mount{{Op: confine.Private}}
			for _, f := range hidden {
				mounts = append(mounts, confine.Mount{Op: confine.Hide, Path: f})
			}
			flags := uintptr(syscall.CLONE_NEWNS)
			if userns {
				flags |= syscall.CLONE_NEWUSER
			}
			if err := startHelper(cmd, confine.Config{Mounts: mounts, Limits: limits}, flags); err != nil {
				cleanup()
				return func() {}, err
			}
			return cleanup, nil
		}
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: see the doc comment
		if err := confine.Restrict(limits); err != nil {
			done <- err
			return
		}
		done <- cmd.Start()
	}()
	if err := <-done; err != nil {
		cleanup()
		return func() {}, err
	}
	return cleanup, nil
}

// linuxRoots are the writable roots of p without namespaces: with
// workspace-write, the shared-memory directory besides.
func linuxRoots(p Policy, tmp string) []string {
	roots := p.writableRoots(tmp)
	if p.Mode == WorkspaceWrite {
		roots = append(roots, "/dev/shm")
	}
	return roots
}

// hideBy says how files can be hidden from p's commands without
// namespaces of their own: in a mount namespace alone (userns false) by a
// process that holds CAP_SYS_ADMIN, in a user namespace with it
// otherwise; ok is false where neither works, and the files stay
// readable.
func hideBy(p Policy) (userns, ok bool) {
	if !p.userNamespace && confine.HasSysAdmin() {
		return false, true
	}
	return true, userNamespaces() == nil
}

// userNamespaces reports whether this system lets an unprivileged process
// make a user namespace and mount in it (distributions may turn either
// off): it starts the helper once to try.
var userNamespaces = sync.OnceValue(func() error {
	cmd := &exec.Cmd{Path: "probe", Args: []string{"probe"}} // never run
	newSession(cmd)
	c := confine.Config{Mounts: []confine.Mount{{Op: confine.Private}, {Op: confine.Hide, Path: "/dev/null"}}, Probe: true}
	if err := startHelper(cmd, c, syscall.CLONE_NEWNS|syscall.CLONE_NEWUSER); err != nil {
		return err
	}
	return cmd.Wait()
})
