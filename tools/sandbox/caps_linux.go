//go:build linux

package sandbox

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// keptCaps are the capabilities a command started by root keeps: those of
// a default Docker container, less making device nodes, raw sockets and
// passing capabilities on, plus reading past file modes (reads are not
// confined anyway). The rest, CAP_SYS_ADMIN above all (with it root can
// push keystrokes into any terminal), leave the starting thread's bounding
// set, so the command's exec cannot give them back.
const keptCaps = 1<<unix.CAP_CHOWN | 1<<unix.CAP_DAC_OVERRIDE | 1<<unix.CAP_DAC_READ_SEARCH |
	1<<unix.CAP_FOWNER | 1<<unix.CAP_FSETID | 1<<unix.CAP_KILL | 1<<unix.CAP_SETGID |
	1<<unix.CAP_SETUID | 1<<unix.CAP_NET_BIND_SERVICE | 1<<unix.CAP_SYS_CHROOT | 1<<unix.CAP_AUDIT_WRITE

// dropCaps removes every capability but keptCaps from the calling thread's
// bounding, inheritable and ambient sets. An unprivileged thread has none
// to lose and may not change its bounding set: that is not an error.
func dropCaps() error {
	var dropped uint64
	for c := 0; c < 64; c++ {
		if keptCaps&(1<<c) != 0 {
			continue
		}
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if errors.Is(err, unix.EPERM) {
			return nil
		}
		if errors.Is(err, unix.EINVAL) {
			break // past the kernel's last capability
		}
		if err != nil {
			return fmt.Errorf("sandbox: drop capability %d: %w", c, err)
		}
		dropped |= 1 << c
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("sandbox: capget: %w", err)
	}
	data[0].Inheritable &^= uint32(dropped)
	data[1].Inheritable &^= uint32(dropped >> 32)
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("sandbox: capset: %w", err)
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("sandbox: clear ambient capabilities: %w", err)
	}
	return nil
}
