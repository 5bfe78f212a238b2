// Package claudecode reads what Claude Code's files say about tools in
// llmrt's terms: its tool names, its MCP tool names and the
// allowed-tools lists of its commands, skills and agents.
package claudecode

import (
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/tools/mcp"
)

// Tools maps Claude Code's tool names to llmrt's.
var Tools = map[string]string{
	"Bash":      "shell_cmd",
	"Read":      "read_file",
	"Write":     "write_file",
	"Edit":      "edit_file",
	"MultiEdit": "edit_file",
	"Glob":      "search_files",
	"Grep":      "search_files",
	"LS":        "list_files",
	"WebFetch":  "web_fetch",
	"Task":      "spawn_agent",
	"Agent":     "spawn_agent",
}

// llmrtTools are llmrt's own tool names, which a file written for llmrt
// may also list.
var llmrtTools = map[string]bool{
	"shell_cmd": true, "read_file": true, "write_file": true, "edit_file": true, "search_files": true,
	"list_files": true, "web_fetch": true, "spawn_agent": true, "create_directory": true, "path_exists": true,
	"run_code": true, "load_skill": true,
}

// LlmrtTool reports whether name is one of llmrt's built-in tools.
func LlmrtTool(name string) bool { return llmrtTools[name] }

// MCPTool turns Claude Code's name of an MCP tool, mcp__server__tool,
// into llmrt's (the same name, sanitised as llmrt exposes it), and
// mcp__server, a whole server, into a rule pattern for all its tools
// (mcp__server__*). ok is false for a name not of either form.
func MCPTool(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok || rest == "" || strings.ContainsAny(rest, "*?()=, ") {
		return "", false
	}
	server, tool, whole := strings.Cut(rest, "__")
	switch {
	case server == "":
		return "", false
	case !whole || tool == "":
		return mcp.ServerPrefix(server) + "*", true
	}
	return mcp.ExposedName(server, tool), true
}

// MCPName is Claude Code's name for the tool llmrt exposes as exposed
// from server.
func MCPName(server, exposed string) string {
	return "mcp__" + server + "__" + strings.TrimPrefix(exposed, mcp.ServerPrefix(server))
}

// Split reads an allowed-tools string: commas and spaces separate the
// entries (Claude Code writes "Read, Grep", the Agent Skills standard
// "Read Grep"), except inside parentheses, where "Bash(git status:*)"
// keeps its space.
func Split(s string) []string {
	var out []string
	depth, start := 0, 0
	flush := func(end int) {
		if e := strings.TrimSpace(s[start:end]); e != "" {
			out = append(out, e)
		}
	}
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0 && (r == ',' || r == ' ' || r == '\t' || r == '\n'):
			flush(i)
			start = i + 1
		}
	}
	flush(len(s))
	return out
}

// AllowRules turns allowed-tools entries into llmrt allow rules, in the
// form the engine's rule parser reads, and says why each entry it could
// not map was skipped. An entry with no exact llmrt equivalent is
// skipped, never widened: a file gets at most what it asked for.
func AllowRules(entries []string) (rules, skipped []string) {
	seen := map[string]bool{}
	for _, e := range entries {
		rs, err := allowRule(strings.TrimSpace(e))
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("allowed-tools entry %q skipped: %v", e, err))
			continue
		}
		for _, r := range rs {
			if !seen[r] {
				seen[r] = true
				rules = append(rules, r)
			}
		}
	}
	return rules, skipped
}

// allowRule maps one allowed-tools entry.
func allowRule(entry string) ([]string, error) {
	name, arg, hasArg := strings.Cut(entry, "(")
	name = strings.TrimSpace(name)
	if hasArg {
		if !strings.HasSuffix(arg, ")") {
			return nil, fmt.Errorf("missing closing parenthesis (write e.g. Bash(git status:*))")
		}
		arg = strings.TrimSpace(strings.TrimSuffix(arg, ")"))
		if arg == "" || arg == "*" {
			hasArg = false
		}
	}
	if strings.HasPrefix(name, "mcp__") {
		if hasArg {
			return nil, fmt.Errorf("MCP tools take no pattern in llmrt; name the tool, e.g. %s", name)
		}
		tool, ok := MCPTool(name)
		if !ok {
			return nil, fmt.Errorf("not an MCP tool name (write mcp__server or mcp__server__tool)")
		}
		return []string{tool}, nil
	}
	if llmrtTools[name] && !hasArg {
		return []string{name}, nil
	}
	tool, ok := Tools[name]
	if !ok {
		return nil, fmt.Errorf("llmrt has no tool that matches Claude Code's %s", name)
	}
	if !hasArg {
		return []string{tool}, nil
	}
	switch name {
	case "Bash":
		return bashRule(arg)
	case "Read", "Write", "Edit", "MultiEdit", "Glob", "Grep", "LS":
		return pathRule(tool, arg)
	case "WebFetch":
		return fetchRule(arg)
	}
	return nil, fmt.Errorf("llmrt cannot limit %s to %q; allow %s without a pattern if that is meant", tool, arg, name)
}

// bashRule maps a Bash pattern: "git status:*" (the command and any
// arguments) becomes llmrt's command prefix "git status *", which also
// matches the bare command; any other pattern is a command glob, where
// llmrt reads * as Claude Code does.
func bashRule(arg string) ([]string, error) {
	prefix, isPrefix := strings.CutSuffix(arg, ":*")
	if strings.ContainsAny(arg, "?") {
		return nil, fmt.Errorf("'?' would match any character in an llmrt rule; write the command out")
	}
	if isPrefix {
		if strings.TrimSpace(prefix) == "" || strings.Contains(prefix, ":*") || strings.Contains(prefix, "*") {
			return nil, fmt.Errorf("':*' must follow a command, e.g. Bash(npm run test:*)")
		}
		return []string{"shell_cmd(command=" + strings.TrimSpace(prefix) + " *)"}, nil
	}
	if strings.Contains(arg, ":*") {
		return nil, fmt.Errorf("':*' may only end the pattern, e.g. Bash(npm run test:*)")
	}
	return []string{"shell_cmd(command=" + arg + ")"}, nil
}

// pathRule maps a file pattern relative to the project ("src/**",
// "./docs/*.md"). Claude Code reads "/x" as relative to its settings
// file and "//x" and "~/x" as absolute; llmrt's rules match paths inside
// the workspace, so those are skipped rather than guessed.
func pathRule(tool, arg string) ([]string, error) {
	if strings.HasPrefix(arg, "/") || strings.HasPrefix(arg, "~") || strings.Contains(arg, "..") {
		return nil, fmt.Errorf("only paths relative to the project map to llmrt's rules (write e.g. src/**)")
	}
	p := strings.TrimPrefix(arg, "./")
	if p == "" || strings.ContainsAny(p, "(),") {
		return nil, fmt.Errorf("not a path pattern llmrt can match")
	}
	return []string{tool + "(path=" + p + ")"}, nil
}

// fetchRule maps WebFetch(domain:example.com) to that host's URLs.
func fetchRule(arg string) ([]string, error) {
	host, ok := strings.CutPrefix(arg, "domain:")
	host = strings.TrimSpace(host)
	if !ok || host == "" || strings.ContainsAny(host, "*?/@:()[], ") {
		return nil, fmt.Errorf("only domain:HOST with a plain host name maps to llmrt's rules")
	}
	return []string{"web_fetch(url=https://" + host + "/*)", "web_fetch(url=http://" + host + "/*)"}, nil
}
