//go:build linux || darwin

package sandbox

import (
	"os/exec"
	"syscall"
)

// newSession starts cmd as the leader of a session of its own, so it has
// no controlling terminal: a confined command can neither read from the
// terminal llmrt runs in nor push keystrokes into it (TIOCSTI), which the
// shell would run, unconfined, once llmrt exits. A session leader leads
// its process group too, so the group is still the process's id.
func newSession(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
	cmd.SysProcAttr.Setpgid, cmd.SysProcAttr.Pgid = false, 0
	cmd.SysProcAttr.Setctty, cmd.SysProcAttr.Foreground = false, false
}
