//go:build !linux

package main

import (
	"fmt"
	"os"
)

// chatFirstFrame needs a pseudo-terminal, which the harness opens the
// Linux way only.
func (h *harness) chatFirstFrame() sample {
	fmt.Fprintln(os.Stderr, "benchharness: the chat row needs Linux; run with -only to leave it out")
	os.Exit(2)
	return sample{}
}
