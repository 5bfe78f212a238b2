//go:build !linux

package tools

// HideEnvironment is a no-op where the OS shows no process's environment
// to others through /proc.
func HideEnvironment() error { return nil }
