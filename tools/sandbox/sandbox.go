package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Mode is how far processes are confined.
type Mode string

// Modes.
const (
	Off            Mode = "off"
	ReadOnly       Mode = "read-only"
	WorkspaceWrite Mode = "workspace-write"
)

// ParseMode checks a mode name; empty means the platform default.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case Off, ReadOnly, WorkspaceWrite:
		return m, nil
	case "":
		return Default(), nil
	}
	return "", fmt.Errorf("unknown sandbox mode %q (use off, read-only or workspace-write)", s)
}

// Default is workspace-write where the platform can confine processes and
// off elsewhere.
func Default() Mode {
	if err := Available(); err != nil {
		return Off
	}
	return WorkspaceWrite
}

// Policy says how one process is confined.
type Policy struct {
	Mode Mode
	// Workspace is writable under workspace-write.
	Workspace string
	// Writable lists further paths writable under workspace-write.
	Writable []string
	// Network leaves the network reachable.
	Network bool
	// Hidden are files a confined process cannot read: the .env llmrt
	// read its keys from. A command sees each as empty (Linux) or is
	// refused (macOS); one that does not exist is left alone.
	Hidden []string

	// noNamespace makes Linux confine commands as where namespaces are
	// refused, by Landlock and the socket filter alone (tests run where
	// namespaces are allowed).
	noNamespace bool
	// userNamespace makes Linux, without namespaces, hide files through
	// a user namespace, as it does for every user but root (tests run as
	// root).
	userNamespace bool
}

// Confined reports whether the policy restricts anything.
func (p Policy) Confined() bool { return p.Mode == ReadOnly || p.Mode == WorkspaceWrite }

// hiddenFiles returns the files of p.Hidden that exist, as real paths: a
// mount and a Seatbelt rule both act on the file a symlink leads to. A
// missing file has nothing to hide; it is left alone.
func (p Policy) hiddenFiles() []string {
	var out []string
	for _, f := range p.Hidden {
		real, err := filepath.EvalSymlinks(f)
		if err != nil {
			continue
		}
		if st, err := os.Stat(real); err == nil && st.Mode().IsRegular() && !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out
}

// writableRoots lists the directories the process may write, made
// absolute and with symlinks resolved (the kernel checks real paths).
// tmp is the private temporary directory of read-only mode.
func (p Policy) writableRoots(tmp string) []string {
	roots := []string{tmp}
	if p.Mode != ReadOnly {
		roots = append([]string{p.Workspace, os.TempDir()}, p.Writable...)
	}
	out := make([]string, 0, len(roots))
	seen := map[string]bool{}
	for _, r := range roots {
		if r == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(r); err == nil {
			r = real
		}
		if abs, err := filepath.Abs(r); err == nil {
			r = abs
		}
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// Describe says in one line what the policy allows, for prompts, status
// lines and the notes the model gets.
func (p Policy) Describe() string {
	if !p.Confined() {
		return "sandbox off"
	}
	net := "no network"
	if p.Network {
		net = "network allowed"
	}
	if p.Mode == ReadOnly {
		return "sandbox read-only: writes only to a private temp directory, " + net
	}
	return fmt.Sprintf("sandbox workspace-write: writes only in %s; %s", strings.Join(p.writableRoots(""), ", "), net)
}
