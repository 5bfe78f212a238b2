package session

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// lockHolder returns the process that holds a flock on f's file, as
// /proc/locks lists it, or 0 when none is listed. The pid is the one
// that took the lock, in this process's PID namespace.
func lockHolder(f *os.File) int {
	info, err := f.Stat()
	if err != nil {
		return 0
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer locks.Close()
	dev := uint64(st.Dev)
	want := strconv.FormatUint(uint64(unix.Major(dev)), 16) + ":" + strconv.FormatUint(uint64(unix.Minor(dev)), 16) + ":" + strconv.FormatUint(st.Ino, 10)
	sc := bufio.NewScanner(locks)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 4125 fd:01:1051734 0 EOF"; a waiter's
		// line has "->" after the number.
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" {
			continue
		}
		if sameFileID(fields[5], want) {
			pid, _ := strconv.Atoi(fields[4])
			return pid
		}
	}
	return 0
}

// sameFileID compares two "major:minor:inode" ids, the device numbers in
// hexadecimal with or without leading zeros.
func sameFileID(a, b string) bool {
	pa, pb := strings.Split(a, ":"), strings.Split(b, ":")
	if len(pa) != 3 || len(pb) != 3 {
		return false
	}
	for i := range 2 {
		x, err1 := strconv.ParseUint(pa[i], 16, 32)
		y, err2 := strconv.ParseUint(pb[i], 16, 32)
		if err1 != nil || err2 != nil || x != y {
			return false
		}
	}
	return pa[2] == pb[2]
}
