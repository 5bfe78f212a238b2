package confine

import (
	"errors"
)

// HelperName is the argv[0] that makes a process the helper, and
// HelperEnv the variable that must be set too (to "1"); the helper
// removes it before the command runs.
const (
	HelperName = "llmrt-sandbox-exec"
	HelperEnv  = "LLMRT_SANDBOX_EXEC"
)

// Config is what the helper is told: how to map ids, the mounts that make
// the command's view of the filesystem, how to confine it and how to run
// it.
type Config struct {
	// Init makes the helper the init of the command's new PID namespace:
	// it starts the command as its child, reaps what the command leaves,
	// and exits with the command's status, whereupon the kernel ends
	// every process still in the namespace. Without Init the helper
	// executes the command in its own place.
	Init bool
	// Map, in a new user namespace, is the user and group the helper maps
	// to themselves (where llmrt cannot write the maps itself).
	Map *IDs
	// Mounts make the command's view of the filesystem, in order.
	Mounts []Mount
	// Dir is the directory the command starts in, entered again after the
	// mounts ("": the helper's own).
	Dir string
	// Limits confine the command once its view is made.
	Limits Limits
	// Files is how many descriptors, from 0, the command gets.
	Files int
	// Report is the descriptor the helper writes a failure to; the
	// parent reads end of file once the command runs.
	Report int
	// Lifeline, when not 0, is a descriptor whose end of file says that
	// the parent is gone: the helper then ends the command and all it
	// started.
	Lifeline int
	// Left, when not 0, is a descriptor the init helper writes one byte
	// to when processes the command started still ran as it ended (the
	// kernel ends them with the helper).
	Left int
	// Probe makes the helper exit once the view is made and confined.
	Probe bool
	// Path and Args are the command: the program and its argv.
	Path string
	Args []string
}

// IDs are a user and a group id.
type IDs struct {
	UID, GID int
}

// MountOp is one step of making a view.
type MountOp int

// The steps of making a view; Mount.Path is where each acts.
const (
	// Private makes every mount private, so that nothing mounted in the
	// new namespace reaches the parent's.
	Private MountOp = iota
	// Save keeps a copy of the tree at Path, with the mounts below it, to
	// be attached later (Attach), once what holds it may be covered. Each
	// Save takes the next slot, from 0.
	Save
	// ReadOnly makes the mount at Path, and every one below it,
	// read-only.
	ReadOnly
	// Tmpfs mounts an empty private file system at Path (read-only with
	// RO), making the directory where it is missing.
	Tmpfs
	// Attach puts the tree saved in Slot at Path (read-only with RO),
	// making the mount point where it is missing.
	Attach
	// Bind mounts Path over itself, read-only with RO.
	Bind
	// Hide mounts /dev/null over the file at Path, read-only: it reads as
	// empty.
	Hide
	// Dev mounts a private /dev: null, zero, random, urandom and
	// tty of the host's, a new instance of devpts (its own ptmx and
	// pts/N) and an empty /dev/shm.
	Dev
	// Proc mounts the /proc of the PID namespace, where the kernel lets
	// it; where not, the host's /proc stays.
	Proc
)

// Mount is one step of making a view.
type Mount struct {
	Op   MountOp
	Path string
	Slot int
	RO   bool
}

// Argv returns the helper's argv: HelperName, c, then the command.
func (c Config) Argv() []string {
	a := []string{HelperName}
	add := func(k, v string) { a = append(a, k+"="+v) }
	flag := func(k string, b bool) {
		if b {
			add(k, "1")
		}
	}
	flag("init", c.Init)
	if c.Map != nil {
		add("map", itoa(c.Map.UID)+","+itoa(c.Map.GID))
	}
	for _, m := range c.Mounts {
		ro := "0"
		if m.RO {
			ro = "1"
		}
		add("mount", itoa(int(m.Op))+","+itoa(m.Slot)+","+ro+","+m.Path)
	}
	if c.Dir != "" {
		add("dir", c.Dir)
	}
	add("abi", itoa(c.Limits.ABI))
	for _, w := range c.Limits.Writable {
		add("writable", w)
	}
	flag("network", c.Limits.Network)
	flag("newnet", c.Limits.NewNet)
	flag("filter", c.Limits.Filter)
	add("files", itoa(c.Files))
	add("report", itoa(c.Report))
	if c.Lifeline != 0 {
		add("lifeline", itoa(c.Lifeline))
	}
	if c.Left != 0 {
		add("left", itoa(c.Left))
	}
	flag("probe", c.Probe)
	a = append(a, "--", c.Path)
	return append(a, c.Args...)
}

// parseConfig reads what Config.Args wrote (without argv[0]).
func parseConfig(args []string) (Config, error) {
	var c Config
	for i, arg := range args {
		if arg == "--" {
			if i+2 > len(args) {
				return c, errors.New("sandbox helper: no command")
			}
			c.Path, c.Args = args[i+1], args[i+2:]
			return c, nil
		}
		k, v, _ := cut(arg, '=')
		var err error
		switch k {
		case "init":
			c.Init = true
		case "map":
			u, g, _ := cut(v, ',')
			m := &IDs{}
			if m.UID, err = atoi(u); err == nil {
				m.GID, err = atoi(g)
			}
			c.Map = m
		case "mount":
			op, rest, _ := cut(v, ',')
			slot, rest, _ := cut(rest, ',')
			ro, path, ok := cut(rest, ',')
			if !ok {
				return c, errors.New("sandbox helper: bad mount " + quote(v))
			}
			m := Mount{RO: ro == "1", Path: path}
			var n int
			if n, err = atoi(op); err == nil {
				m.Slot, err = atoi(slot)
			}
			m.Op = MountOp(n)
			c.Mounts = append(c.Mounts, m)
		case "dir":
			c.Dir = v
		case "abi":
			c.Limits.ABI, err = atoi(v)
		case "writable":
			c.Limits.Writable = append(c.Limits.Writable, v)
		case "network":
			c.Limits.Network = true
		case "newnet":
			c.Limits.NewNet = true
		case "filter":
			c.Limits.Filter = true
		case "files":
			c.Files, err = atoi(v)
		case "report":
			c.Report, err = atoi(v)
		case "lifeline":
			c.Lifeline, err = atoi(v)
		case "left":
			c.Left, err = atoi(v)
		case "probe":
			c.Probe = true
		default:
			err = errors.New("unknown setting")
		}
		if err != nil {
			return c, errors.New("sandbox helper: " + quote(arg) + ": " + err.Error())
		}
	}
	return c, errors.New("sandbox helper: no command")
}
