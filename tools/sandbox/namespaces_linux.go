//go:build linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/llmrt/llmrt/tools/sandbox/internal/confine"
)

// Namespaces reports why confined commands cannot run in namespaces of
// their own on this system, where one of the system's settings says so,
// and nil otherwise. It reads a few settings and starts nothing, so a
// program can call it at start-up to say so once; the first confined
// command finds out for sure (a container may refuse namespaces that no
// setting names), and then runs confined by Landlock and seccomp only.
func Namespaces() error {
	if os.Geteuid() == 0 {
		return nil // root may make them whatever these settings say, unless a container refuses
	}
	for _, s := range []struct{ file, off, why string }{
		{"/proc/sys/user/max_user_namespaces", "0", "user namespaces are turned off (user.max_user_namespaces = 0)"},
		{"/proc/sys/kernel/unprivileged_userns_clone", "0", "user namespaces are turned off for users other than root (kernel.unprivileged_userns_clone = 0)"},
		{"/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1", "AppArmor restricts user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1)"},
	} {
		if b, err := os.ReadFile(s.file); err == nil && strings.TrimSpace(string(b)) == s.off {
			return errors.New(s.why + fallbackEffect)
		}
	}
	return nil
}

// fallbackEffect says what running without namespaces means.
const fallbackEffect = "; commands are confined by Landlock and seccomp only, so they can reach Unix sockets of the host (a tmux or Docker daemon) and other terminals, and background processes they leave are ended by llmrt rather than the kernel"

// support is what this process found out, at its first confined command,
// about the namespaces it may make.
type support struct {
	once  sync.Once
	flags uintptr // the namespaces to make; 0 when none may be made
	err   error   // why none may be made
	said  atomic.Bool
}

// nsSupport is this process's: what the kernel lets a process do does not
// change while it runs.
var nsSupport support

// namespaceFlags returns the namespaces (but the network's) in which
// commands of p run, and ok false where they run without (Landlock and
// seccomp only). The first call tries them, with the view of p, once.
func namespaceFlags(p Policy, abi int, program string) (flags uintptr, ok bool) {
	if p.noNamespace {
		return 0, false
	}
	s := &nsSupport
	s.once.Do(func() {
		if s.err = Namespaces(); s.err != nil {
			s.said.Store(true) // said at start-up
			return
		}
		base := uintptr(syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC)
		err := probe(p, abi, program, base|syscall.CLONE_NEWUSER)
		if err == nil {
			s.flags = base | syscall.CLONE_NEWUSER
			return
		}
		// Root may still make them without a user namespace where those
		// are refused (a sysctl, a container's seccomp profile).
		if confine.HasSysAdmin() && probe(p, abi, program, base) == nil {
			s.flags = base
			return
		}
		s.err = errors.New("the system refused the namespaces a confined command runs in (" + err.Error() + ")" + fallbackEffect)
	})
	return s.flags, s.flags != 0
}

// probe starts the helper once to make the view of p in the namespaces
// flags names, and to stop there.
func probe(p Policy, abi int, program string, flags uintptr) error {
	cmd := &exec.Cmd{Path: program, Args: []string{filepath.Base(program)}} // never run
	newSession(cmd)
	c, err := namespaceConfig(cmd, p, abi)
	if errors.Is(err, errNoView) {
		// This policy's commands run without namespaces; others' may not.
		p.Workspace = os.TempDir()
		c, err = namespaceConfig(cmd, p, abi)
	}
	if err != nil {
		return err
	}
	c.Probe = true
	if err := startHelper(cmd, c, flags|syscall.CLONE_NEWNET); err != nil {
		return err
	}
	return cmd.Wait()
}

// Notice returns, once, why confined commands run without namespaces of
// their own in this process, found at its first confined command, unless
// Namespaces said so already; "" otherwise. A caller shows it to the
// user or the model with that command's outcome.
func Notice() string {
	s := &nsSupport
	if s.err == nil || !s.said.CompareAndSwap(false, true) {
		return ""
	}
	return "sandbox: " + s.err.Error()
}

// NamespacesRefused reports why confined commands of this process run
// without namespaces of their own, trying them now if no command has yet
// (the probe every first confined command makes); nil when they run in
// them. Tests that need namespaces skip with its reason.
func NamespacesRefused() error {
	abi, err := confine.LandlockABI()
	if err != nil || abi < 1 {
		return errors.New("this kernel does not offer Landlock")
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if _, ok := namespaceFlags(Policy{Mode: WorkspaceWrite, Workspace: os.TempDir()}, abi, exe); !ok {
		return nsSupport.err
	}
	return nil
}

// inNamespaces reports whether confined commands of this process run in
// namespaces of their own (as far as it knows: none has run yet).
func inNamespaces() bool { return nsSupport.flags != 0 }

// namespaceConfig is the helper's configuration for a command of p run in
// namespaces of its own.
func namespaceConfig(cmd *exec.Cmd, p Policy, abi int) (confine.Config, error) {
	mounts, writable, err := plan(viewOf(p, cmd.Path))
	if err != nil {
		return confine.Config{}, err
	}
	dir := cmd.Dir
	if dir == "" {
		dir = "."
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return confine.Config{
		Init:   true,
		Mounts: mounts,
		Dir:    dir,
		// The socket filter cuts the network a second time, under the
		// network namespace.
		Limits: confine.Limits{ABI: abi, Writable: writable, Network: p.Network, Filter: !p.Network},
	}, nil
}

// startInNamespaces starts cmd in the namespaces flags names (and a
// network namespace unless p allows the network), through the helper as
// their init.
func startInNamespaces(cmd *exec.Cmd, p Policy, abi int, flags uintptr) error {
	c, err := namespaceConfig(cmd, p, abi)
	if err != nil {
		return err
	}
	if !p.Network {
		flags |= syscall.CLONE_NEWNET
	}
	return startHelper(cmd, c, flags)
}
