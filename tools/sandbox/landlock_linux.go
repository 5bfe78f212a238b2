//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The Landlock system calls come straight from golang.org/x/sys/unix.
// go-landlock's high-level API restricts every thread of the calling
// process, which is exactly what llmrt must avoid, and its syscall package
// links libpsx, which wraps pthread_create for the whole binary in cgo
// builds. Three system calls and the kernel's constants are all that is
// needed here.

func landlockABI() (int, error) {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0, errno
	}
	return int(v), nil
}

// fsRights returns the filesystem rights Landlock ABI abi knows.
func fsRights(abi int) uint64 {
	var last uint64
	switch {
	case abi >= 9:
		last = unix.LANDLOCK_ACCESS_FS_RESOLVE_UNIX
	case abi >= 5:
		last = unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	case abi >= 3:
		last = unix.LANDLOCK_ACCESS_FS_TRUNCATE
	case abi == 2:
		last = unix.LANDLOCK_ACCESS_FS_REFER
	default:
		last = unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	}
	return last<<1 - 1
}

// Rights a plain file (not a directory) may carry in a rule.
const fileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
	unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV

const readRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR

// writableDevices are the sinks and sources every shell script uses, and
// terminals: writable in every confined mode. /dev/shm, where POSIX
// shared memory and semaphores live, is a temporary directory: writable
// under workspace-write only (linuxRoots).
var writableDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"}

// ruleset builds a Landlock ruleset: read and execute everywhere, every
// right below the writable roots and on a few devices, and, when
// netByLandlock is set, no TCP binds or connects (and no UDP where the ABI
// knows it). The caller closes the returned descriptor.
func ruleset(abi int, writable []string, netByLandlock bool) (int, error) {
	handled := fsRights(abi)
	attr := unix.LandlockRulesetAttr{Handled_access_fs: handled}
	if netByLandlock {
		attr.Handled_access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		if abi >= 10 {
			attr.Handled_access_net |= unix.LANDLOCK_ACCESS_NET_BIND_UDP | unix.LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP
		}
	}
	if abi >= 6 {
		// Signals and abstract Unix sockets stay inside the sandbox: a
		// confined command cannot signal llmrt or reach a desktop session.
		attr.Scoped = unix.LANDLOCK_SCOPE_SIGNAL | unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
	}
	size := unsafe.Offsetof(attr.Quiet_access_fs) // the pre-ABI-10 layout every kernel accepts
	r, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return -1, fmt.Errorf("sandbox: landlock_create_ruleset: %w", errno)
	}
	fd := int(r)
	add := func(path string, rights uint64) error {
		pfd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.ENOENT) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("sandbox: open %s: %w", path, err)
		}
		defer unix.Close(pfd)
		var st unix.Stat_t
		if err := unix.Fstat(pfd, &st); err != nil {
			return fmt.Errorf("sandbox: stat %s: %w", path, err)
		}
		rights &= handled
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			rights &= fileRights
		}
		rule := unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(pfd)}
		_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(fd), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
		if errno != 0 {
			return fmt.Errorf("sandbox: rule for %s: %w", path, errno)
		}
		return nil
	}
	err := add("/", readRights)
	for _, d := range writableDevices {
		if err == nil {
			err = add(d, handled)
		}
	}
	// No device nodes, even where writes are allowed: root could make one
	// for a disk in the workspace and write the disk through it.
	for _, w := range writable {
		if err == nil {
			err = add(w, handled&^(unix.LANDLOCK_ACCESS_FS_MAKE_CHAR|unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK))
		}
	}
	if err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

func restrictSelf(fd int) error {
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), 0, 0); errno != 0 {
		return fmt.Errorf("sandbox: landlock_restrict_self: %w", errno)
	}
	return nil
}
