//go:build !unix

package cmd

// stdioGone: without poll, every SIGPIPE counts.
func stdioGone() bool { return true }
