//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// alsoReadOnly adds, to the note on a refused write, the files of the
// workspace that commands in namespaces may not write either.
func alsoReadOnly() string {
	if !inNamespaces() {
		return ""
	}
	return " (and not in llmrt's own files there: .llmrt, .mcp.json, .env, .git/hooks)"
}

// missingSigns are what programs print for a path that is not there.
var missingSigns = []string{"no such file or directory", "nonexistent", "not found", "cannot access", "can't cd"}

// privateNote explains a failed command's missing path when the path is
// in a directory a command in namespaces sees private and empty (the
// host's /tmp, say); "" otherwise.
func privateNote(output string, p Policy) string {
	if !inNamespaces() || !containsAny(strings.ToLower(output), missingSigns) {
		return ""
	}
	dirs := append(privateDirs(os.Getenv), os.TempDir())
	dirs = append(dirs, llmrtDirs(os.Getenv)...)
	mentioned := slices.ContainsFunc(dirs, func(d string) bool { return strings.Contains(output, d+"/") })
	if !mentioned {
		return ""
	}
	return fmt.Sprintf("the sandbox (--sandbox %s) gives each command private, empty /tmp, /var/tmp, /run and $TMPDIR (and hides llmrt's configuration and state), so files the host keeps there are not visible to commands, and what a command writes there is gone when it returns. Do not try to work around it; if the command needs those files, tell the user, who can run with --sandbox off", p.Mode)
}
