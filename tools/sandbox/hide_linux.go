//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Landlock only grants access, and a command that may read the workspace
// may read every file in it, so hiding one file (the .env llmrt read keys
// from) takes a mount namespace of the command's own, where /dev/null is
// mounted over the file: the command reads it as empty, however it reads
// it. Mounting must happen in the new process before Landlock restricts it
// (a Landlock domain may not mount), and for every user but root in a new
// user namespace too, which a multi-threaded program like llmrt cannot
// enter itself. So the command is started through a helper: this very
// executable, re-run as the new process under the name helperName, which
// makes the mounts, confines itself as restrict does and then executes the
// command in its place (same pid, same process group). The helper is
// entered by this package's init, before main, in any program that links
// the package.

// helperName is the argv[0] that makes a process the helper; helperEnv
// holds its configuration, which it removes before the command runs.
const (
	helperName = "llmrt-sandbox-exec"
	helperEnv  = "LLMRT_SANDBOX_EXEC"
)

// helperConfig is what the helper needs to know.
type helperConfig struct {
	ABI         int      `json:"abi"`
	Writable    []string `json:"writable"`
	Hidden      []string `json:"hidden"`
	Network     bool     `json:"network,omitempty"`
	NoNamespace bool     `json:"no_namespace,omitempty"`
	// Report is the descriptor the helper writes its failure to; the
	// command's exec closes it, so the parent reads end of file then.
	Report int `json:"report"`
	// Probe makes the helper stop after the mounts (userNamespaces).
	Probe bool `json:"probe,omitempty"`
	// Map, in a new user namespace, is the user and group the helper maps
	// to themselves (mapIDs).
	Map *ids `json:"map,omitempty"`
}

// ids are a user and a group id.
type ids struct {
	UID int `json:"uid"`
	GID int `json:"gid"`
}

func init() {
	if len(os.Args) >= 3 && os.Args[0] == helperName && os.Getenv(helperEnv) != "" {
		os.Exit(helper())
	}
}

// helper is the helper's work: hide the files, confine itself, execute the
// command os.Args[1] with argv os.Args[2:]. It returns only on failure,
// which it reports to the parent.
func helper() int {
	runtime.LockOSThread() // Landlock and the socket filter hold for this thread, which runs the exec
	var c helperConfig
	err := json.Unmarshal([]byte(os.Getenv(helperEnv)), &c)
	report := io.Writer(os.Stderr)
	if c.Report > 2 {
		report = os.NewFile(uintptr(c.Report), "report")
	}
	if err == nil && c.Map != nil {
		err = mapIDs(*c.Map)
	}
	if err == nil {
		err = hide(c.Hidden)
	}
	if err == nil && c.Probe {
		return 0
	}
	if err == nil {
		err = restrict(Policy{Network: c.Network, noNamespace: c.NoNamespace}, c.ABI, c.Writable)
	}
	if err == nil {
		// dropCaps leaves the ambient set alone where it may not change
		// the bounding set: CAP_SYS_ADMIN, raised for the mounts, must not
		// pass to the command, which could undo them with it.
		err = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	}
	if err == nil {
		unix.CloseOnExec(c.Report)
		env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, helperEnv+"=") })
		err = unix.Exec(os.Args[1], os.Args[2:], env)
		err = &os.PathError{Op: "exec", Path: os.Args[1], Err: err}
	}
	fmt.Fprint(report, err.Error())
	return 127
}

// mapIDs maps the helper's user and group in its new user namespace to
// themselves, so the command runs as the user it would have run as. The
// helper does it itself: llmrt, not dumpable (tools.HideEnvironment), may
// not write the maps of a child that inherited that, while the helper is
// dumpable again after its exec and holds CAP_SETUID and CAP_SETGID in
// the namespace for it.
func mapIDs(m ids) error {
	for _, f := range []struct{ name, data string }{
		{"setgroups", "deny"},
		{"gid_map", fmt.Sprintf("%d %d 1\n", m.GID, m.GID)},
		{"uid_map", fmt.Sprintf("%d %d 1\n", m.UID, m.UID)},
	} {
		if err := os.WriteFile("/proc/self/"+f.name, []byte(f.data), 0); err != nil {
			return fmt.Errorf("sandbox: user namespace: %w", err)
		}
	}
	return nil
}

// hide makes the mounts of the process's own namespace private, so that
// nothing mounted here reaches llmrt's, and mounts /dev/null over each
// file.
func hide(files []string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("sandbox: private mount namespace: %w", err)
	}
	for _, f := range files {
		if err := unix.Mount("/dev/null", f, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("sandbox: hide %s: %w", f, err)
		}
	}
	return nil
}

// hideBy says how files can be hidden from p's commands: in a mount
// namespace alone (userns false) by a process that holds CAP_SYS_ADMIN,
// in a user namespace with it otherwise; ok is false where neither works,
// and the files stay readable.
func hideBy(p Policy) (userns, ok bool) {
	if !p.userNamespace && hasSysAdmin() {
		return false, true
	}
	return true, userNamespaces() == nil
}

// hasSysAdmin reports whether this process holds CAP_SYS_ADMIN.
func hasSysAdmin() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return false
	}
	return data[unix.CAP_SYS_ADMIN/32].Effective&(1<<(unix.CAP_SYS_ADMIN%32)) != 0
}

// userNamespaces reports whether this system lets an unprivileged process
// make a user namespace and mount in it (distributions may turn either
// off): it starts the helper once to try.
var userNamespaces = sync.OnceValue(func() error {
	cmd := &exec.Cmd{Path: "probe", Args: []string{"probe"}} // never run
	newSession(cmd)
	if err := startHiding(cmd, Policy{}, helperConfig{Hidden: []string{"/dev/null"}, Probe: true}, true); err != nil {
		return err
	}
	return cmd.Wait()
})

// startHiding starts cmd through the helper, in a new mount namespace (and
// user namespace when userns is set) described by c. The command's
// failure to start is Start's error, as exec.Cmd reports it; cmd has
// been waited for then.
func startHiding(cmd *exec.Cmd, p Policy, c helperConfig, userns bool) error {
	c.Network, c.NoNamespace = p.Network, p.noNamespace
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	defer r.Close()
	c.Report = 3 + len(cmd.ExtraFiles)
	path, args, env, extra := cmd.Path, cmd.Args, cmd.Env, cmd.ExtraFiles
	attr := cmd.SysProcAttr
	attr.Cloneflags |= syscall.CLONE_NEWNS
	if userns {
		// The helper maps its ids itself (mapIDs) with the capabilities
		// it keeps through its exec, CAP_SYS_ADMIN also for the mounts.
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.AmbientCaps = append(attr.AmbientCaps, unix.CAP_SYS_ADMIN, unix.CAP_SETUID, unix.CAP_SETGID)
		c.Map = &ids{UID: os.Getuid(), GID: os.Getgid()}
	}
	conf, err := json.Marshal(c)
	if err != nil {
		w.Close()
		return fmt.Errorf("sandbox: %w", err)
	}
	cmd.Path = "/proc/self/exe"
	cmd.Args = append([]string{helperName, path}, args...)
	cmd.Env = setEnv(env, helperEnv, string(conf))
	cmd.ExtraFiles = append(slices.Clip(extra), w)
	err = cmd.Start()
	w.Close()
	// The Cmd describes the command again, not the helper.
	cmd.Path, cmd.Args, cmd.Env, cmd.ExtraFiles = path, args, env, extra
	if err != nil {
		return err
	}
	msg, _ := io.ReadAll(r)
	if len(msg) > 0 {
		_ = cmd.Wait()
		return errors.New(string(msg))
	}
	return nil
}
