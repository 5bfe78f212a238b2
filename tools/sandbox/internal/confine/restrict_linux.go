package confine

import "syscall"

// Limits are the restrictions Restrict puts on a thread.
type Limits struct {
	// ABI is the kernel's Landlock ABI (LandlockABI).
	ABI int
	// Writable are the directories (and files) the thread may write,
	// as real paths; reading and executing are allowed everywhere.
	Writable []string
	// Network leaves the network reachable; without it, NewNet and
	// Filter say how it is cut.
	Network bool
	// NewNet tries to leave the network with a new network namespace,
	// and uses the socket filter where that is refused.
	NewNet bool
	// Filter cuts the network with the socket filter (and Landlock's
	// TCP rules where the kernel has them).
	Filter bool
}

// Restrict confines the calling thread, which must be locked to its
// goroutine and never unlocked, and every process it starts from then
// on: it leaves the network (unless allowed), drops capabilities but
// KeptCaps, and applies the Landlock rules.
func Restrict(l Limits) error {
	filter := false
	if !l.Network {
		filter = l.Filter
		if l.NewNet && syscall.Unshare(syscall.CLONE_NEWNET) != nil {
			filter = true
		}
	}
	if err := dropCaps(); err != nil {
		return err
	}
	fd, err := ruleset(l.ABI, l.Writable, filter && l.ABI >= 4)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	if err := prctl(prSetNoNewPrivs, 1, 0, 0, 0); err != nil {
		return fail("no_new_privs", "", err)
	}
	if err := restrictSelf(fd); err != nil {
		return err
	}
	if filter {
		if err := denySockets(); err != nil {
			return &opError{op: "cannot cut the network (no network namespace either); use --sandbox-network to run with it", err: err}
		}
	}
	return nil
}
