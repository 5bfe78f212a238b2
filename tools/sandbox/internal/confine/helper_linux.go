package confine

import (
	"errors"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

func init() {
	if len(os.Args) >= 2 && os.Args[0] == HelperName && os.Getenv(HelperEnv) == "1" {
		os.Exit(helper(os.Args[1:]))
	}
}

// helper is the helper's work: map the ids, make the view, confine this
// thread, and run the command, as its init (Config.Init) or in its place.
// It returns the exit code, 127 on a failure, which it reports.
func helper(args []string) int {
	// Landlock, the capabilities and the socket filter hold for this
	// thread, which starts the command.
	runtime.LockOSThread()
	c, err := parseConfig(args)
	report := os.Stderr
	if c.Report > 2 {
		report = os.NewFile(uintptr(c.Report), "report")
	}
	if err == nil && c.Map != nil {
		err = mapIDs(*c.Map)
	}
	if err == nil {
		err = makeView(c.Mounts)
	}
	if err == nil && c.Dir != "" {
		if cerr := syscall.Chdir(c.Dir); cerr != nil {
			err = fail("enter", c.Dir, cerr)
		}
	}
	if err == nil {
		err = Restrict(c.Limits)
	}
	if err == nil && c.Probe {
		return 0
	}
	if err == nil {
		// dropCaps leaves the ambient set alone where it may not change
		// the bounding set: capabilities raised for the mounts must not
		// pass to the command, which could undo them with them.
		if perr := prctl(prCapAmbient, prCapAmbientClearAll, 0, 0, 0); perr != nil {
			err = fail("clear ambient capabilities", "", perr)
		}
	}
	if err == nil {
		syscall.CloseOnExec(c.Report)
		for _, fd := range []int{c.Lifeline, c.Left} {
			if fd != 0 {
				syscall.CloseOnExec(fd)
			}
		}
		env := os.Environ()
		for i, kv := range env {
			if len(kv) > len(HelperEnv) && kv[:len(HelperEnv)+1] == HelperEnv+"=" {
				env = append(env[:i], env[i+1:]...)
				break
			}
		}
		if c.Init {
			return runInit(c, env, report)
		}
		err = &os.PathError{Op: "exec", Path: c.Path, Err: syscall.Exec(c.Path, c.Args, env)}
	}
	report.WriteString(err.Error())
	return 127
}

// runInit starts the command as the child of the helper, the init of its
// PID namespace, and waits for it, reaping whatever else ends meanwhile
// (orphans come to init). When the command ends the helper exits with its
// status (128 plus the signal that killed it), and the kernel kills every
// process left in the namespace. Signals sent to the helper go on to the
// command; end of file on the lifeline kills them all.
func runInit(c Config, env []string, report *os.File) int {
	// Caught, the signals do not end the helper (nor, sent from inside,
	// are they ignored, as an init's are by default): it passes them on.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2)
	files := make([]uintptr, c.Files)
	for i := range files {
		files[i] = uintptr(i)
	}
	pid, err := syscall.ForkExec(c.Path, c.Args, &syscall.ProcAttr{Env: env, Files: files})
	if err != nil {
		report.WriteString((&os.PathError{Op: "fork/exec", Path: c.Path, Err: err}).Error())
		return 127
	}
	report.Close() // the parent reads end of file: the command runs
	if c.Lifeline != 0 {
		// This goroutine blocks its thread until the parent is gone.
		go func() {
			var b [1]byte
			for {
				n, err := syscall.Read(c.Lifeline, b[:])
				if n > 0 || errors.Is(err, syscall.EINTR) {
					continue
				}
				syscall.Kill(-1, syscall.SIGKILL)
				os.Exit(128 + int(syscall.SIGKILL))
			}
		}()
	}
	// This goroutine lives as long as the helper.
	go func() {
		for s := range sigs {
			syscall.Kill(pid, s.(syscall.Signal))
		}
	}()
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, 0, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
		case err != nil:
			report.WriteString("sandbox helper: wait: " + err.Error())
			return 127
		case got == pid && ws.Exited():
			sayLeft(c.Left)
			return ws.ExitStatus()
		case got == pid && ws.Signaled():
			sayLeft(c.Left)
			return 128 + int(ws.Signal())
		}
	}
}

// sayLeft writes a byte to fd (unless 0) when a process still runs in the
// namespace, which is then a child of the helper, its init: the command's
// orphans come to it.
func sayLeft(fd int) {
	if fd == 0 {
		return
	}
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
		case err != nil: // ECHILD: none left
			return
		case got == 0:
			syscall.Write(fd, []byte{1})
			return
		}
	}
}

// mapIDs maps the helper's user and group in its new user namespace to
// themselves, so that the command runs as the user it would have run as.
// The helper does it itself: llmrt, not dumpable (tools.HideEnvironment),
// may not write the maps of a child that inherited that, while the helper
// is dumpable again after its exec and holds CAP_SETUID and CAP_SETGID
// in the namespace for it.
func mapIDs(m IDs) error {
	for _, f := range []struct{ name, data string }{
		{"setgroups", "deny"},
		{"gid_map", itoa(m.GID) + " " + itoa(m.GID) + " 1\n"},
		{"uid_map", itoa(m.UID) + " " + itoa(m.UID) + " 1\n"},
	} {
		if err := os.WriteFile("/proc/self/"+f.name, []byte(f.data), 0); err != nil {
			return fail("user namespace", "", err)
		}
	}
	return nil
}
