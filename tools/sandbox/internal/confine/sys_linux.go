package confine

import (
	"syscall"
	"unsafe"
)

// The system calls and kernel constants this package needs beyond the
// frozen syscall package. The calls added to Linux after 5.0 have one
// number on every architecture Go supports.
const (
	sysOpenTree              = 428
	sysMoveMount             = 429
	sysMountSetattr          = 442
	sysLandlockCreateRuleset = 444
	sysLandlockAddRule       = 445
	sysLandlockRestrictSelf  = 446

	openTreeClone       = 0x1
	atRecursive         = 0x8000
	atEmptyPath         = 0x1000
	moveMountFEmptyPath = 0x4
	moveMountTSymlinks  = 0x10
	mountAttrRdonly     = 0x1
	oPath               = 0x200000

	prSetNoNewPrivs       = 38
	prCapAmbient          = 47
	prCapAmbientClearAll  = 4
	prCapAmbientRaise     = 2
	seccompModeFilter     = 2
	linuxCapabilityV3     = 0x20080522
	landlockRulesetVer    = 0x1
	landlockRulePathBelow = 0x1
)

// Capabilities, by number.
const (
	capChown          = 0
	capDacOverride    = 1
	capDacReadSearch  = 2
	capFowner         = 3
	capFsetid         = 4
	capKill           = 5
	capSetgid         = 6
	capSetuid         = 7
	capNetBindService = 10
	capSysChroot      = 18
	capSysAdmin       = 21
	capAuditWrite     = 29
)

func prctl(option, arg2, arg3, arg4, arg5 uintptr) error {
	if _, _, errno := syscall.RawSyscall6(syscall.SYS_PRCTL, option, arg2, arg3, arg4, arg5, 0); errno != 0 {
		return errno
	}
	return nil
}

// capHeader and capData are struct __user_cap_header_struct and, twice,
// struct __user_cap_data_struct.
type capHeader struct {
	version uint32
	pid     int32
}

type capData struct {
	effective, permitted, inheritable uint32
}

func capget(data *[2]capData) error {
	hdr := capHeader{version: linuxCapabilityV3}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CAPGET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); errno != 0 {
		return errno
	}
	return nil
}

func capset(data *[2]capData) error {
	hdr := capHeader{version: linuxCapabilityV3}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); errno != 0 {
		return errno
	}
	return nil
}

// HasSysAdmin reports whether the calling thread holds CAP_SYS_ADMIN.
func HasSysAdmin() bool {
	var data [2]capData
	if capget(&data) != nil {
		return false
	}
	return data[0].effective&(1<<capSysAdmin) != 0
}

// openTree returns a detached copy of the mount tree at path (and the
// mounts below it), to be attached elsewhere with moveMount.
func openTree(path string) (int, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	dirfd := _atFDCWD
	fd, _, errno := syscall.Syscall(sysOpenTree, uintptr(dirfd), uintptr(unsafe.Pointer(p)), openTreeClone|syscall.O_CLOEXEC|atRecursive)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

const _atFDCWD = -0x64

// moveMount attaches the detached tree fd at path, following symlinks on
// the way to it.
func moveMount(fd int, path string) error {
	empty, _ := syscall.BytePtrFromString("")
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	dirfd := _atFDCWD
	if _, _, errno := syscall.Syscall6(sysMoveMount, uintptr(fd), uintptr(unsafe.Pointer(empty)), uintptr(dirfd), uintptr(unsafe.Pointer(p)), moveMountFEmptyPath|moveMountTSymlinks, 0); errno != 0 {
		return errno
	}
	return nil
}

// mountAttr is struct mount_attr.
type mountAttr struct {
	set, clr, propagation, userns uint64
}

// readOnly makes the mount at path read-only, and with recursive every
// mount below it too.
func readOnly(path string, recursive bool) error {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	attr := mountAttr{set: mountAttrRdonly}
	flags := uintptr(0)
	if recursive {
		flags = atRecursive
	}
	dirfd := _atFDCWD
	if _, _, errno := syscall.Syscall6(sysMountSetattr, uintptr(dirfd), uintptr(unsafe.Pointer(p)), flags, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0); errno != 0 {
		return errno
	}
	return nil
}
