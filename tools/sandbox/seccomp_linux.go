//go:build linux

package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// An unprivileged process cannot make a network namespace for a child
// from a multi-threaded program, and Landlock's network rules before ABI
// 10 cover TCP only. So where the namespace is out of reach the network
// is cut by a seccomp filter on the starting thread, inherited by the
// command: socket() succeeds for Unix sockets only and fails with
// ENETUNREACH otherwise (TCP, UDP and so DNS, raw, netlink), and io_uring,
// which can make sockets without socket(), is not available.

// sysABI is what the filter checks for one system-call ABI the kernel
// accepts from a process of this architecture.
type sysABI struct {
	arch       uint32
	mask       uint32 // and-ed with the call number (x32 calls carry bit 30)
	socket     uint32
	socketcall uint32 // the i386 multiplexer; 0 where there is none
	ioUring    uint32
}

// sysABIs lists the native ABI of goarch and the 32-bit one its kernel
// also runs.
func sysABIs(goarch string) ([]sysABI, error) {
	const all, ioUring = ^uint32(0), 425 // io_uring_setup has one number everywhere
	switch goarch {
	case "amd64":
		return []sysABI{
			{arch: unix.AUDIT_ARCH_X86_64, mask: all &^ 0x40000000, socket: 41, ioUring: ioUring},
			{arch: unix.AUDIT_ARCH_I386, mask: all, socket: 359, socketcall: 102, ioUring: ioUring},
		}, nil
	case "arm64":
		return []sysABI{
			{arch: unix.AUDIT_ARCH_AARCH64, mask: all, socket: 198, ioUring: ioUring},
			{arch: unix.AUDIT_ARCH_ARM, mask: all, socket: 281, ioUring: ioUring},
		}, nil
	}
	return nil, fmt.Errorf("no socket filter for %s", goarch)
}

// Offsets in struct seccomp_data; args[0] is read as its low 32 bits
// (both architectures are little-endian), enough for a socket domain.
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16
)

// filterAsm assembles a classic BPF program whose jumps name labels.
type filterAsm struct {
	prog   []unix.SockFilter
	labels map[string]int
	jumps  map[int][2]string // instruction → its true and false targets
}

func (b *filterAsm) label(name string) { b.labels[name] = len(b.prog) }

func (b *filterAsm) load(off uint32) {
	b.prog = append(b.prog, unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off})
}

func (b *filterAsm) and(k uint32) {
	b.prog = append(b.prog, unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: k})
}

// jeq jumps to yes when the accumulator equals k, else to no ("" falls
// through).
func (b *filterAsm) jeq(k uint32, yes, no string) {
	b.jumps[len(b.prog)] = [2]string{yes, no}
	b.prog = append(b.prog, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: k})
}

func (b *filterAsm) ret(k uint32) {
	b.prog = append(b.prog, unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k})
}

func (b *filterAsm) resolve() ([]unix.SockFilter, error) {
	for at, to := range b.jumps {
		for i, name := range to {
			off := 0
			if name != "" {
				target, ok := b.labels[name]
				if !ok || target <= at || target-at-1 > 255 {
					return nil, fmt.Errorf("sandbox: bad jump to %q", name)
				}
				off = target - at - 1
			}
			if i == 0 {
				b.prog[at].Jt = uint8(off)
			} else {
				b.prog[at].Jf = uint8(off)
			}
		}
	}
	return b.prog, nil
}

// socketFilter returns the seccomp program that leaves only Unix sockets.
func socketFilter(abis []sysABI) ([]unix.SockFilter, error) {
	const allow = unix.SECCOMP_RET_ALLOW
	unreachable := unix.SECCOMP_RET_ERRNO | uint32(unix.ENETUNREACH)
	b := &filterAsm{labels: map[string]int{}, jumps: map[int][2]string{}}
	for i, a := range abis {
		next := fmt.Sprint("abi", i+1)
		b.label(fmt.Sprint("abi", i))
		b.load(offArch)
		b.jeq(a.arch, "", next)
		b.load(offNr)
		if a.mask != ^uint32(0) {
			b.and(a.mask)
		}
		b.jeq(a.socket, "domain", "")
		if a.socketcall != 0 {
			b.jeq(a.socketcall, "unreachable", "")
		}
		b.jeq(a.ioUring, "nosys", "")
		b.ret(allow)
	}
	b.label(fmt.Sprint("abi", len(abis)))
	b.ret(unix.SECCOMP_RET_KILL_PROCESS) // an ABI this filter does not know
	b.label("domain")
	b.load(offArg0)
	b.jeq(unix.AF_UNIX, "allow", "unreachable")
	b.label("allow")
	b.ret(allow)
	b.label("unreachable")
	b.ret(unreachable)
	b.label("nosys")
	b.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS))
	return b.resolve()
}

// denySockets puts the socket filter on the calling thread, which must
// have no_new_privs set.
func denySockets() error {
	abis, err := sysABIs(runtime.GOARCH)
	if err != nil {
		return err
	}
	prog, err := socketFilter(abis)
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("sandbox: seccomp filter: %w", err)
	}
	return nil
}
