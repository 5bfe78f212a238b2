//go:build darwin

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
)

const sandboxExec = "/usr/bin/sandbox-exec"

// Available reports whether confined modes work on this system, and if not,
// why.
func Available() error {
	if _, err := os.Stat(sandboxExec); err != nil {
		return fmt.Errorf("%s is missing; commands run unconfined", sandboxExec)
	}
	return nil
}

// Start starts cmd confined by p (or plainly when p confines nothing),
// under sandbox-exec with a Seatbelt profile. The returned cleanup is
// never nil; call it once the process has exited.
func Start(cmd *exec.Cmd, p Policy) (cleanup func(), err error) {
	cleanup = func() {}
	if !p.Confined() {
		return cleanup, cmd.Start()
	}
	if err := Available(); err != nil {
		return cleanup, fmt.Errorf("sandbox %s: %v; use --sandbox off", p.Mode, err)
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
	path := cmd.Path
	cmd.Args = append([]string{sandboxExec, "-p", seatbeltProfile(p, tmp), "--", path}, cmd.Args[1:]...)
	cmd.Path = sandboxExec
	if err := cmd.Start(); err != nil {
		cleanup()
		return func() {}, err
	}
	return cleanup, nil
}

// Ended reports false: only Linux commands run in namespaces, whose
// processes the kernel ends with the command.
func Ended(*exec.Cmd) bool { return false }
