//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/llmrt/llmrt/tools/sandbox/internal/confine"
)

// Mounting must happen in the new process before Landlock restricts it
// (a Landlock domain may not mount), and for every user but root in a new
// user namespace too, which a multi-threaded program like llmrt cannot
// enter itself. So a command that needs mounts is started through a
// helper: this very executable, re-run as the new process under the name
// confine.HelperName, which makes the mounts, confines itself and then
// starts the command (see the confine package).

// startHelper starts cmd through the helper, in the new namespaces flags
// names, as c describes. The command's failure to start is Start's error,
// as exec.Cmd reports it; cmd has been waited for then. On return cmd
// describes the command again, not the helper, but its process is the
// helper's.
func startHelper(cmd *exec.Cmd, c confine.Config, flags uintptr) error {
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	defer r.Close()
	path, args, env, extra := cmd.Path, cmd.Args, cmd.Env, cmd.ExtraFiles
	attr := cmd.SysProcAttr
	attr.Cloneflags |= flags
	if flags&syscall.CLONE_NEWUSER != 0 {
		mapIDs(attr, &c)
	}
	c.Files = 3 + len(extra)
	c.Report = c.Files
	files := append(slices.Clip(extra), w)
	if c.Init {
		ll, err := lifeline()
		if err != nil {
			w.Close()
			return fmt.Errorf("sandbox: %w", err)
		}
		c.Lifeline = c.Report + 1
		files = append(files, ll.r)
	}
	var leftR, leftW *os.File
	if c.Init && !c.Probe {
		if leftR, leftW, err = os.Pipe(); err != nil {
			w.Close()
			return fmt.Errorf("sandbox: %w", err)
		}
		defer leftW.Close()
		c.Left = c.Report + 2
		files = append(files, leftW)
	}
	c.Path, c.Args = path, args
	cmd.Path = "/proc/self/exe"
	cmd.Args = c.Argv()
	cmd.Env = setEnv(env, confine.HelperEnv, "1")
	cmd.ExtraFiles = files
	err = cmd.Start()
	w.Close()
	cmd.Path, cmd.Args, cmd.Env, cmd.ExtraFiles = path, args, env, extra
	if err != nil {
		if leftR != nil {
			leftR.Close()
		}
		return err
	}
	msg, _ := io.ReadAll(r)
	if len(msg) > 0 {
		_ = cmd.Wait()
		if leftR != nil {
			leftR.Close()
		}
		return errors.New(string(msg))
	}
	if leftR != nil {
		leftovers.Store(cmd, leftR)
	}
	return nil
}

// leftovers holds, by command, the read end of the pipe its init helper
// says on that processes it left were ended (Config.Left).
var leftovers sync.Map

// Ended reports whether, when cmd (started by Start and waited for)
// ended, processes it had started still ran, which the kernel then ended
// with it: a command in namespaces leaves none behind for its caller to
// find. The cleanup Start returned forgets cmd.
func Ended(cmd *exec.Cmd) bool {
	v, ok := leftovers.Load(cmd)
	if !ok {
		return false
	}
	f := v.(*os.File)
	// The helper has exited, or is about to (its group was killed).
	f.SetReadDeadline(time.Now().Add(time.Second))
	var b [1]byte
	n, _ := f.Read(b[:])
	return n > 0
}

// forget closes what leftovers holds for cmd.
func forget(cmd *exec.Cmd) {
	if v, ok := leftovers.LoadAndDelete(cmd); ok {
		v.(*os.File).Close()
	}
}

// mapIDs says how the ids of a new user namespace are mapped. Root, who
// may, maps every id to itself from here (Go writes the maps before the
// helper runs), so that root in the namespace owns what root owns outside
// and reaches every user's files as before. Any other user may map only
// itself, which the helper does, with the capabilities it keeps through
// its exec (CAP_SYS_ADMIN also for the mounts).
func mapIDs(attr *syscall.SysProcAttr, c *confine.Config) {
	if os.Geteuid() == 0 && confine.HasSysAdmin() {
		all := []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 1}}
		attr.UidMappings, attr.GidMappings, attr.GidMappingsEnableSetgroups = all, all, true
		return
	}
	attr.AmbientCaps = append(attr.AmbientCaps, unixCapSysAdmin, unixCapSetuid, unixCapSetgid)
	c.Map = &confine.IDs{UID: os.Getuid(), GID: os.Getgid()}
}

// The capabilities the helper keeps through its exec in a user namespace.
const (
	unixCapSetgid   = 6
	unixCapSetuid   = 7
	unixCapSysAdmin = 21
)

// pipe ends: the lifeline's.
type pipe struct{ r, w *os.File }

// lifeline is a pipe whose write end this process holds open for as long
// as it lives, however it ends, and never writes: every helper that runs
// a command as its init reads the other end and ends the command, and all
// it started, at end of file, when llmrt is gone. The descriptors are
// close-on-exec here, so no other program started from here holds them.
var lifeline = sync.OnceValues(func() (pipe, error) {
	r, w, err := os.Pipe()
	return pipe{r, w}, err
})
