package tools

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// HideEnvironment keeps the commands this process starts from reading its
// secrets where Linux shows them to processes of the same user: it blanks
// the values of the variables that hold secrets (SecretVar) in
// the environment block the kernel shows as /proc/<pid>/environ, and marks
// the process not dumpable, so that other processes of the user can read
// neither that file nor the process's memory. A command's own environment
// leaves such variables out (EnvPolicy); without this, `cat
// /proc/$PPID/environ` would still show them. Programs call it once at
// start-up: Go read the environment into its own copy when it started, so
// os.Getenv still sees every value. Root can still read the memory.
func HideEnvironment() error {
	err := blankSecrets()
	if derr := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); derr != nil {
		err = errors.Join(err, fmt.Errorf("not dumpable: %w", derr))
	}
	return err
}

// blankSecrets overwrites, with NUL bytes, the values of secret-looking
// variables in the initial environment block, found from the addresses
// /proc/self/stat gives and written through /proc/self/mem.
func blankSecrets() error {
	start, end, err := environBlock()
	if err != nil {
		return err
	}
	block, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		return err
	}
	if uint64(len(block)) > end-start {
		return fmt.Errorf("environ: %d bytes for a block of %d", len(block), end-start)
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer mem.Close()
	off := 0
	for kv := range bytes.SplitSeq(block, []byte{0}) {
		name, value, ok := bytes.Cut(kv, []byte("="))
		if ok && len(value) > 0 && SecretVar(string(name), string(value)) {
			at := start + uint64(off+len(name)+1)
			if _, err := mem.WriteAt(make([]byte, len(value)), int64(at)); err != nil {
				return fmt.Errorf("environ: blank %s: %w", name, err)
			}
		}
		off += len(kv) + 1
	}
	return nil
}

// environBlock returns the addresses of the environment block: fields 50
// and 51 of /proc/self/stat (Linux 3.5 and later).
func environBlock() (start, end uint64, err error) {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, 0, err
	}
	s := string(stat)
	// Fields after the parenthesised command name start at field 3.
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 49 {
		return 0, 0, errors.New("environ: /proc/self/stat has no environment addresses")
	}
	if start, err = strconv.ParseUint(fields[47], 10, 64); err == nil {
		end, err = strconv.ParseUint(fields[48], 10, 64)
	}
	if err != nil || end < start {
		return 0, 0, fmt.Errorf("environ: bad addresses in /proc/self/stat: %v", err)
	}
	return start, end, nil
}
