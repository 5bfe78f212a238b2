//go:build !linux

package tools

// exitWatch watches nothing where there are no pidfds: a call then waits
// for its output to close, bounded by the grace.
type exitWatch struct{}

func watchExit(int) exitWatch { return exitWatch{} }

func (exitWatch) exited() <-chan struct{} { return nil }

func (exitWatch) close() {}
