//go:build !linux

package tools

import "time"

// EnableSubreaper is a no-op where the OS has no child subreaper.
func EnableSubreaper() error { return nil }

// childrenNow knows no children where there is no /proc to search.
func childrenNow() map[int]uint64 { return nil }

// stop finds no leftovers where there is no /proc to search; the call's
// process group is still stopped.
func (c *callWatch) stop(grace time.Duration) int { return 0 }

func startTime(pid int) uint64 { return 0 }

// StopAll is a no-op where there is no /proc to search.
func StopAll(grace time.Duration) {}
