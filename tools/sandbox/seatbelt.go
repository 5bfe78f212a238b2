package sandbox

import (
	"fmt"
	"strings"
)

// seatbeltProfile returns the macOS Seatbelt profile (the SBPL language of
// sandbox-exec) for p: everything allowed but file writes outside the
// writable roots, reading the hidden files and, unless allowed, the
// network. tmp is the private temporary directory of read-only mode.
func seatbeltProfile(p Policy, tmp string) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n")
	b.WriteString("(deny file-write*)\n(allow file-write*\n")
	for _, dev := range []string{"/dev/null", "/dev/zero", "/dev/tty", "/dev/dtracehelper"} {
		fmt.Fprintf(&b, "  (literal %s)\n", sbplString(dev))
	}
	b.WriteString("  (regex #\"^/dev/ttys[0-9]+$\")\n")
	for _, root := range p.writableRoots(tmp) {
		fmt.Fprintf(&b, "  (subpath %s)\n", sbplString(root))
	}
	b.WriteString(")\n")
	for _, f := range p.hiddenFiles() {
		fmt.Fprintf(&b, "(deny file-read-data (literal %s))\n", sbplString(f))
	}
	if !p.Network {
		b.WriteString("(deny network*)\n(allow network* (remote unix-socket))\n")
	}
	return b.String()
}

// sbplString quotes s as an SBPL string literal.
func sbplString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
