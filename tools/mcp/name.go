package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// maxToolName is the longest tool name providers accept.
const maxToolName = 64

// sanitize replaces characters outside [A-Za-z0-9_-] with '_'.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// toolName returns the exposed name of a server's tool, Claude Code's
// mcp__<server>__<tool>, sanitised and cut to 64 characters; a cut name
// ends with a short hash of the full name so that long names stay
// distinct. The mcp__ prefix keeps the names apart from built-ins, and the
// double underscore apart between servers (x with b_c, x_b with c).
func toolName(server, tool string) string {
	n := ServerPrefix(server) + sanitize(tool)
	if len(n) <= maxToolName {
		return n
	}
	return n[:maxToolName-9] + "_" + shortHash(server+"\x00"+tool)
}

// ExposedName is the name llmrt gives a server's tool (see toolName);
// a name that sanitising made equal to another's gets a suffix when the
// server's tools are listed, which this cannot know.
func ExposedName(server, tool string) string { return toolName(server, tool) }

// ServerPrefix is what every exposed name of a server's tools starts
// with: mcp__<server>__.
func ServerPrefix(server string) string { return "mcp__" + sanitize(server) + "__" }

// LegacyName is the name releases before mcp__ naming gave a server's
// tool, <server>_<tool>, which saved rules and hook matchers may still
// hold.
func LegacyName(server, tool string) string { return sanitize(server) + "_" + sanitize(tool) }

// LegacyPattern turns a rule's tool pattern written with the old names
// (github_create_issue, github_*) into the current names for the servers
// given, one pattern per server whose old prefix it starts with (servers
// "x" and "x_b" both claim x_b_c). ok is false for a pattern that names
// no server's tools the old way, an mcp__ pattern among them.
func LegacyPattern(pattern string, servers []string) (out []string, ok bool) {
	if strings.HasPrefix(pattern, "mcp__") {
		return nil, false
	}
	for _, sv := range servers {
		rest, found := strings.CutPrefix(pattern, sanitize(sv)+"_")
		if !found || rest == "" {
			continue
		}
		out = append(out, ServerPrefix(sv)+rest)
	}
	return out, len(out) > 0
}

func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:4])
}

// uniqueNames assigns exposed names to a server's tools in order, adding
// _2, _3... to a name already taken (names differing only in characters
// that sanitising removed).
func uniqueNames(server string, tools []string) []string {
	taken := map[string]bool{}
	out := make([]string, len(tools))
	for i, t := range tools {
		n := toolName(server, t)
		for k := 2; taken[n]; k++ {
			n = withSuffix(toolName(server, t), k)
		}
		taken[n] = true
		out[i] = n
	}
	return out
}

// withSuffix returns name with _k added, cut so that it stays within 64
// characters.
func withSuffix(name string, k int) string {
	suffix := "_" + itoa(k)
	if len(name)+len(suffix) > maxToolName {
		name = name[:maxToolName-len(suffix)]
	}
	return name + suffix
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
