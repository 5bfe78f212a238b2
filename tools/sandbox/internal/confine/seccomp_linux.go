package confine

import (
	"errors"
	"runtime"
	"syscall"
	"unsafe"
)

// An unprivileged process cannot make a network namespace for a child
// from a multi-threaded program, and Landlock's network rules before ABI
// 10 cover TCP only. So where the namespace is out of reach the network
// is cut by a seccomp filter on the starting thread, inherited by the
// command: socket() succeeds for Unix sockets only and fails with
// ENETUNREACH otherwise (TCP, UDP and so DNS, raw, netlink), and io_uring,
// which can make sockets without socket(), is not available. In a network
// namespace of its own the command meets the same filter, as a second
// layer.

// Seccomp return values and the audit architectures the filter knows.
const (
	seccompRetAllow       = 0x7fff0000
	seccompRetErrno       = 0x00050000
	seccompRetKillProcess = 0x80000000

	auditArchX86_64  = 0xc000003e
	auditArchI386    = 0x40000003
	auditArchAarch64 = 0xc00000b7
	auditArchARM     = 0x40000028
)

// SysABI is what the filter checks for one system-call ABI the kernel
// accepts from a process of this architecture.
type SysABI struct {
	Arch       uint32
	Mask       uint32 // and-ed with the call number (x32 calls carry bit 30)
	Socket     uint32
	Socketcall uint32 // the i386 multiplexer; 0 where there is none
	IOUring    uint32
}

// SysABIs lists the native ABI of goarch and the 32-bit one its kernel
// also runs.
func SysABIs(goarch string) ([]SysABI, error) {
	const all, ioUring = ^uint32(0), 425 // io_uring_setup has one number everywhere
	switch goarch {
	case "amd64":
		return []SysABI{
			{Arch: auditArchX86_64, Mask: all &^ 0x40000000, Socket: 41, IOUring: ioUring},
			{Arch: auditArchI386, Mask: all, Socket: 359, Socketcall: 102, IOUring: ioUring},
		}, nil
	case "arm64":
		return []SysABI{
			{Arch: auditArchAarch64, Mask: all, Socket: 198, IOUring: ioUring},
			{Arch: auditArchARM, Mask: all, Socket: 281, IOUring: ioUring},
		}, nil
	}
	return nil, errors.New("no socket filter for " + goarch)
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
	prog   []syscall.SockFilter
	labels map[string]int
	jumps  map[int][2]string // instruction → its true and false targets
}

func (b *filterAsm) label(name string) { b.labels[name] = len(b.prog) }

func (b *filterAsm) load(off uint32) {
	b.prog = append(b.prog, syscall.SockFilter{Code: syscall.BPF_LD | syscall.BPF_W | syscall.BPF_ABS, K: off})
}

func (b *filterAsm) and(k uint32) {
	b.prog = append(b.prog, syscall.SockFilter{Code: syscall.BPF_ALU | syscall.BPF_AND | syscall.BPF_K, K: k})
}

// jeq jumps to yes when the accumulator equals k, else to no ("" falls
// through).
func (b *filterAsm) jeq(k uint32, yes, no string) {
	b.jumps[len(b.prog)] = [2]string{yes, no}
	b.prog = append(b.prog, syscall.SockFilter{Code: syscall.BPF_JMP | syscall.BPF_JEQ | syscall.BPF_K, K: k})
}

func (b *filterAsm) ret(k uint32) {
	b.prog = append(b.prog, syscall.SockFilter{Code: syscall.BPF_RET | syscall.BPF_K, K: k})
}

func (b *filterAsm) resolve() ([]syscall.SockFilter, error) {
	for at, to := range b.jumps {
		for i, name := range to {
			off := 0
			if name != "" {
				target, ok := b.labels[name]
				if !ok || target <= at || target-at-1 > 255 {
					return nil, errors.New("sandbox: bad jump to " + quote(name))
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

// SocketFilter returns the seccomp program that leaves only Unix sockets.
func SocketFilter(abis []SysABI) ([]syscall.SockFilter, error) {
	unreachable := seccompRetErrno | uint32(syscall.ENETUNREACH)
	b := &filterAsm{labels: map[string]int{}, jumps: map[int][2]string{}}
	for i, a := range abis {
		next := "abi" + itoa(i+1)
		b.label("abi" + itoa(i))
		b.load(offArch)
		b.jeq(a.Arch, "", next)
		b.load(offNr)
		if a.Mask != ^uint32(0) {
			b.and(a.Mask)
		}
		b.jeq(a.Socket, "domain", "")
		if a.Socketcall != 0 {
			b.jeq(a.Socketcall, "unreachable", "")
		}
		b.jeq(a.IOUring, "nosys", "")
		b.ret(seccompRetAllow)
	}
	b.label("abi" + itoa(len(abis)))
	b.ret(seccompRetKillProcess) // an ABI this filter does not know
	b.label("domain")
	b.load(offArg0)
	b.jeq(syscall.AF_UNIX, "allow", "unreachable")
	b.label("allow")
	b.ret(seccompRetAllow)
	b.label("unreachable")
	b.ret(unreachable)
	b.label("nosys")
	b.ret(seccompRetErrno | uint32(syscall.ENOSYS))
	return b.resolve()
}

// denySockets puts the socket filter on the calling thread, which must
// have no_new_privs set.
func denySockets() error {
	abis, err := SysABIs(runtime.GOARCH)
	if err != nil {
		return err
	}
	prog, err := SocketFilter(abis)
	if err != nil {
		return err
	}
	fprog := syscall.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := prctl(syscall.PR_SET_SECCOMP, seccompModeFilter, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fail("seccomp filter", "", err)
	}
	return nil
}
