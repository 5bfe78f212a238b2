package policy

import (
	"path"
	"strings"
)

// Suggest proposes a rule that allows a call and ones like it, from
// the shape of its arguments: the program of a single command (the exact
// line when it runs more than one command or writes to a file), the
// directory of a path, the host of a URL; otherwise the whole tool.
func Suggest(tool string, args map[string]any) Rule {
	r := Rule{Action: Allow, Tool: tool}
	if _, ok := args["command"].(string); ok {
		if cmd := suggestCommand(newCallView(tool, args)); cmd != "" {
			r.Params = map[string]string{"command": cmd}
		}
		return r
	}
	if p, ok := args["path"].(string); ok {
		dir := path.Dir(path.Clean(strings.ReplaceAll(p, "\\", "/")))
		if dir == "." || dir == "/" {
			r.Params = map[string]string{"path": "**"}
		} else {
			r.Params = map[string]string{"path": dir + "/**"}
		}
		return r
	}
	if u, ok := args["url"].(string); ok {
		if scheme, rest, ok := strings.Cut(u, "://"); ok {
			host, _, _ := strings.Cut(rest, "/")
			r.Params = map[string]string{"url": scheme + "://" + host + "/*"}
		}
	}
	return r
}

// suggestCommand is the narrowest useful command pattern for a line: every
// use of its program (of its subcommand, for programs made of
// subcommands: `go test *`, `git push *`) when the line is one plain
// command, otherwise the line exactly as written.
func suggestCommand(c *callView) string {
	l := c.commands()
	if !l.allowable() || len(l.parts) != 1 {
		return c.raw
	}
	p := l.parts[0]
	if p.env || !strings.HasPrefix(p.text, p.prog) || strings.ContainsAny(p.prog, "*?") {
		return c.raw
	}
	if p.text == p.prog {
		return p.prog
	}
	rest := strings.TrimPrefix(p.text, p.prog+" ")
	if sub, _, _ := strings.Cut(rest, " "); subcommands[path.Base(p.prog)] && isSubcommand(sub) {
		return p.prog + " " + sub + " *"
	}
	return p.prog + " *"
}

// subcommands are programs whose first argument names what they do, so
// that a rule for one subcommand (go test) does not allow another (go
// run).
var subcommands = map[string]bool{
	"apt": true, "az": true, "brew": true, "bun": true, "cargo": true, "composer": true, "conda": true, "deno": true,
	"docker": true, "dotnet": true, "gcloud": true, "gh": true, "git": true, "go": true, "helm": true, "kubectl": true,
	"npm": true, "pip": true, "pip3": true, "pnpm": true, "podman": true, "poetry": true, "rustup": true, "swift": true,
	"systemctl": true, "terraform": true, "uv": true, "yarn": true, "aws": true, "nix": true, "bundle": true, "mix": true,
}

// isSubcommand reports a word shaped like a subcommand: lower-case
// letters, digits and inner dashes.
func isSubcommand(w string) bool {
	if w == "" || len(w) > 32 || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
