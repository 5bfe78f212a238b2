//go:build linux

package confine

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// TestSocketFilter runs the seccomp program in a BPF interpreter over the
// calls of every ABI a 64-bit kernel accepts, 32-bit and x32 ones
// included, which a real test cannot make from Go.
func TestSocketFilter(t *testing.T) {
	const (
		allow = unix.SECCOMP_RET_ALLOW
		unr   = unix.SECCOMP_RET_ERRNO | uint32(unix.ENETUNREACH)
		nosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
		kill  = unix.SECCOMP_RET_KILL_PROCESS
	)
	amd64, _ := SysABIs("amd64")
	arm64, _ := SysABIs("arm64")
	cases := []struct {
		name         string
		abis         []SysABI
		arch, nr, a0 uint32
		want         uint32
	}{
		{"x86_64 inet socket", amd64, unix.AUDIT_ARCH_X86_64, 41, unix.AF_INET, unr},
		{"x86_64 inet6 socket", amd64, unix.AUDIT_ARCH_X86_64, 41, unix.AF_INET6, unr},
		{"x86_64 netlink socket", amd64, unix.AUDIT_ARCH_X86_64, 41, unix.AF_NETLINK, unr},
		{"x86_64 unix socket", amd64, unix.AUDIT_ARCH_X86_64, 41, unix.AF_UNIX, allow},
		{"x86_64 write", amd64, unix.AUDIT_ARCH_X86_64, 1, 0, allow},
		{"x86_64 io_uring_setup", amd64, unix.AUDIT_ARCH_X86_64, 425, 0, nosys},
		{"x32 inet socket", amd64, unix.AUDIT_ARCH_X86_64, 0x40000000 | 41, unix.AF_INET, unr},
		{"x32 unix socket", amd64, unix.AUDIT_ARCH_X86_64, 0x40000000 | 41, unix.AF_UNIX, allow},
		{"i386 socketcall", amd64, unix.AUDIT_ARCH_I386, 102, 1, unr},
		{"i386 inet socket", amd64, unix.AUDIT_ARCH_I386, 359, unix.AF_INET, unr},
		{"i386 write", amd64, unix.AUDIT_ARCH_I386, 4, 0, allow},
		{"unknown ABI", amd64, unix.AUDIT_ARCH_AARCH64, 41, unix.AF_INET, kill},
		{"aarch64 inet socket", arm64, unix.AUDIT_ARCH_AARCH64, 198, unix.AF_INET, unr},
		{"aarch64 unix socket", arm64, unix.AUDIT_ARCH_AARCH64, 198, unix.AF_UNIX, allow},
		{"arm inet socket", arm64, unix.AUDIT_ARCH_ARM, 281, unix.AF_INET, unr},
		{"arm io_uring_setup", arm64, unix.AUDIT_ARCH_ARM, 425, 0, nosys},
	}
	for _, tc := range cases {
		prog, err := SocketFilter(tc.abis)
		if err != nil {
			t.Fatal(err)
		}
		raw := make([]bpf.RawInstruction, len(prog))
		for i, in := range prog {
			raw[i] = bpf.RawInstruction{Op: in.Code, Jt: in.Jt, Jf: in.Jf, K: in.K}
		}
		insns, ok := bpf.Disassemble(raw)
		if !ok {
			t.Fatalf("the filter does not disassemble: %v", insns)
		}
		vm, err := bpf.NewVM(insns)
		if err != nil {
			t.Fatalf("invalid filter: %v", err)
		}
		// struct seccomp_data; the interpreter loads words big-endian.
		data := make([]byte, 64)
		binary.BigEndian.PutUint32(data[offNr:], tc.nr)
		binary.BigEndian.PutUint32(data[offArch:], tc.arch)
		binary.BigEndian.PutUint32(data[offArg0:], tc.a0)
		got, err := vm.Run(data)
		if err != nil || uint32(got) != tc.want {
			t.Errorf("%s: filter returned %#x (%v), want %#x", tc.name, uint32(got), err, tc.want)
		}
	}
}
