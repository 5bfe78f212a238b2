//go:build !linux && !darwin

package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
)

// Available reports whether confined modes work on this system: not here.
func Available() error {
	return errors.New("this platform has no supported sandbox; commands run unconfined")
}

// Start starts cmd, refusing a confining policy this platform cannot apply.
func Start(cmd *exec.Cmd, p Policy) (cleanup func(), err error) {
	cleanup = func() {}
	if p.Confined() {
		return cleanup, fmt.Errorf("sandbox %s: %v; use --sandbox off", p.Mode, Available())
	}
	return cleanup, cmd.Start()
}

// Ended reports false: only Linux commands run in namespaces, whose
// processes the kernel ends with the command.
func Ended(*exec.Cmd) bool { return false }
