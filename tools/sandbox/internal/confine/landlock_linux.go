package confine

import (
	"errors"
	"syscall"
	"unsafe"
)

// The Landlock system calls are made directly: go-landlock's high-level
// API restricts every thread of the calling process, which llmrt must
// avoid, and its syscall package links libpsx, which wraps pthread_create
// for the whole binary in cgo builds. Three system calls and the kernel's
// constants are all that is needed.

// Landlock access rights and scopes, as the kernel numbers them.
const (
	fsExecute     = 0x1
	fsWriteFile   = 0x2
	fsReadFile    = 0x4
	fsReadDir     = 0x8
	fsMakeChar    = 0x40
	fsMakeBlock   = 0x800
	fsMakeSym     = 0x1000
	fsRefer       = 0x2000
	fsTruncate    = 0x4000
	fsIoctlDev    = 0x8000
	fsResolveUnix = 0x10000

	netBindTCP        = 0x1
	netConnectTCP     = 0x2
	netBindUDP        = 0x4
	netConnectSendUDP = 0x8

	scopeAbstractUnixSocket = 0x1
	scopeSignal             = 0x2
)

// LandlockABI returns the Landlock ABI version of the running kernel.
func LandlockABI() (int, error) {
	v, _, errno := syscall.Syscall(sysLandlockCreateRuleset, 0, 0, landlockRulesetVer)
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
		last = fsResolveUnix
	case abi >= 5:
		last = fsIoctlDev
	case abi >= 3:
		last = fsTruncate
	case abi == 2:
		last = fsRefer
	default:
		last = fsMakeSym
	}
	return last<<1 - 1
}

// Rights a plain file (not a directory) may carry in a rule.
const fileRights = fsExecute | fsWriteFile | fsReadFile | fsTruncate | fsIoctlDev

const readRights = fsExecute | fsReadFile | fsReadDir

// writableDevices are the sinks and sources every shell script uses, and
// terminals: writable in every confined mode. /dev/shm, where POSIX
// shared memory and semaphores live, is a temporary directory: a writable
// root where the caller lists it.
var writableDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"}

// rulesetAttr is struct landlock_ruleset_attr as ABI 6 to 9 know it, a
// layout every kernel with Landlock accepts.
type rulesetAttr struct {
	handledFS, handledNet, scoped uint64
}

// pathBeneathAttr is struct landlock_path_beneath_attr, which the kernel
// packs: 12 bytes.
type pathBeneathAttr struct {
	allowed  uint64
	parentFD int32
}

// ruleset builds a Landlock ruleset: read and execute everywhere, every
// right below the writable roots and on a few devices, and, when
// netByLandlock is set, no TCP binds or connects (and no UDP where the ABI
// knows it). The caller closes the returned descriptor.
func ruleset(abi int, writable []string, netByLandlock bool) (int, error) {
	handled := fsRights(abi)
	attr := rulesetAttr{handledFS: handled}
	if netByLandlock {
		attr.handledNet = netBindTCP | netConnectTCP
		if abi >= 10 {
			attr.handledNet |= netBindUDP | netConnectSendUDP
		}
	}
	if abi >= 6 {
		// Signals and abstract Unix sockets stay inside the sandbox: a
		// confined command cannot signal llmrt or reach a desktop session.
		attr.scoped = scopeSignal | scopeAbstractUnixSocket
	}
	r, _, errno := syscall.Syscall(sysLandlockCreateRuleset, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return -1, fail("landlock_create_ruleset", "", errno)
	}
	fd := int(r)
	err := addRule(fd, "/", readRights&handled)
	for _, d := range writableDevices {
		if err == nil {
			err = addRule(fd, d, handled)
		}
	}
	// No device nodes, even where writes are allowed: root could make one
	// for a disk in the workspace and write the disk through it.
	for _, w := range writable {
		if err == nil {
			err = addRule(fd, w, handled&^(fsMakeChar|fsMakeBlock))
		}
	}
	if err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

// addRule grants rights below path; a path that does not exist is left
// out.
func addRule(fd int, path string, rights uint64) error {
	pfd, err := syscall.Open(path, oPath|syscall.O_CLOEXEC, 0)
	if errors.Is(err, syscall.ENOENT) {
		return nil
	}
	if err != nil {
		return fail("open", path, err)
	}
	defer syscall.Close(pfd)
	var st syscall.Stat_t
	if err := syscall.Fstat(pfd, &st); err != nil {
		return fail("stat", path, err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		rights &= fileRights
	}
	rule := pathBeneathAttr{allowed: rights, parentFD: int32(pfd)}
	if _, _, errno := syscall.Syscall6(sysLandlockAddRule, uintptr(fd), landlockRulePathBelow, uintptr(unsafe.Pointer(&rule)), 0, 0, 0); errno != 0 {
		return fail("landlock rule for", path, errno)
	}
	return nil
}

func restrictSelf(fd int) error {
	if _, _, errno := syscall.Syscall(sysLandlockRestrictSelf, uintptr(fd), 0, 0); errno != 0 {
		return fail("landlock_restrict_self", "", errno)
	}
	return nil
}
