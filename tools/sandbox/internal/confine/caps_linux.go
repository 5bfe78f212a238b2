package confine

import (
	"errors"
	"syscall"
)

// KeptCaps are the capabilities a command started by root keeps: those of
// a default Docker container, less making device nodes, raw sockets and
// passing capabilities on, plus reading past file modes (reads are not
// confined anyway). The rest, CAP_SYS_ADMIN above all (with it root can
// push keystrokes into any terminal, or undo the mounts of its view),
// leave the starting thread's bounding set, so the command's exec cannot
// give them back. In a user namespace of its own they hold in that
// namespace only.
const KeptCaps = 1<<capChown | 1<<capDacOverride | 1<<capDacReadSearch |
	1<<capFowner | 1<<capFsetid | 1<<capKill | 1<<capSetgid |
	1<<capSetuid | 1<<capNetBindService | 1<<capSysChroot | 1<<capAuditWrite

// dropCaps removes every capability but KeptCaps from the calling thread's
// bounding and inheritable sets and clears its ambient set. An
// unprivileged thread has none to lose and may not change its bounding
// set: that is not an error.
func dropCaps() error {
	var dropped uint64
	for c := 0; c < 64; c++ {
		if KeptCaps&(1<<c) != 0 {
			continue
		}
		err := prctl(syscall.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if errors.Is(err, syscall.EPERM) {
			return nil
		}
		if errors.Is(err, syscall.EINVAL) {
			break // past the kernel's last capability
		}
		if err != nil {
			return fail("drop capability", itoa(c), err)
		}
		dropped |= 1 << c
	}
	var data [2]capData
	if err := capget(&data); err != nil {
		return fail("capget", "", err)
	}
	data[0].inheritable &^= uint32(dropped)
	data[1].inheritable &^= uint32(dropped >> 32)
	if err := capset(&data); err != nil {
		return fail("capset", "", err)
	}
	if err := prctl(prCapAmbient, prCapAmbientClearAll, 0, 0, 0); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fail("clear ambient capabilities", "", err)
	}
	return nil
}
