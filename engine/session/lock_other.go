//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package session

import (
	"errors"
	"os"
)

// lockFile is not available on this system: the file store cannot keep
// two resumers apart here, so it refuses rather than pretend.
func lockFile(*os.File) error {
	return errors.New("session locks are not supported on this system; use a SQL store (engine/session/sqlstore)")
}
