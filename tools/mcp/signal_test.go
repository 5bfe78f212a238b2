package mcp

import (
	"os/signal"
	"syscall"
)

func signalIgnoreTerm() { signal.Ignore(syscall.SIGTERM) }
