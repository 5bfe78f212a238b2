package sandbox

import (
	"fmt"
	"strings"
)

// Signs in a failed command's output that the sandbox, not the command,
// refused something. They are the kernel's own error texts as programs
// print them (EACCES, EROFS, EPERM, ENETUNREACH and a resolver with no
// network).
var (
	writeDenials = []string{"permission denied", "read-only file system", "operation not permitted"}
	netDenials   = []string{"network is unreachable", "temporary failure in name resolution", "could not resolve host", "no address associated with hostname", "name or service not known"}
)

// Explain returns a note for the model when the output of a failed command
// run under p looks like a sandbox refusal, naming what the user can change
// to allow it; it returns "" otherwise.
func Explain(output string, p Policy) string {
	if !p.Confined() {
		return ""
	}
	low := strings.ToLower(output)
	var notes []string
	if containsAny(low, writeDenials) {
		where := "a private temporary directory"
		if p.Mode == WorkspaceWrite {
			where = "the workspace and the temporary directory"
		}
		notes = append(notes, fmt.Sprintf("the sandbox (--sandbox %s) lets commands write only in %s%s, so a write elsewhere is refused by the operating system. Do not try to work around it; if the write is needed, tell the user, who can add the path to sandbox_writable in .llmrt/config.json or run with --sandbox off", p.Mode, where, alsoReadOnly()))
	}
	if n := privateNote(output, p); n != "" {
		notes = append(notes, n)
	}
	if !p.Network && containsAny(low, netDenials) {
		notes = append(notes, fmt.Sprintf("the sandbox (--sandbox %s) runs commands without network, so connections and name lookups fail. If the network is needed, tell the user, who can allow it with --sandbox-network (or sandbox_network: true in config)", p.Mode))
	}
	if len(notes) == 0 {
		return ""
	}
	return "This may be the sandbox: " + strings.Join(notes, "; also ") + "."
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
