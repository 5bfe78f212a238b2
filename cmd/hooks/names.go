package hooks

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/internal/claudecode"
)

// Claude Code's hooks match its own tool names and read its own input
// fields: a script written for "Bash" reads tool_input.command, one for
// "Write" tool_input.file_path. Hooks from Claude Code's settings see
// llmrt's calls in those terms, and what they send back is turned into
// llmrt's arguments again.

// claudeCall returns a call's tool name and input as Claude Code would
// give them. dir makes file paths absolute, as Claude Code's are.
func claudeCall(c engine.HookCall, dir string) (string, map[string]any) {
	args := map[string]any{}
	_ = json.Unmarshal(c.Arguments, &args)
	str := func(k string) string { s, _ := args[k].(string); return s }
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	in := map[string]any{}
	copyIf := func(from, to string) {
		if v, ok := args[from]; ok {
			in[to] = v
		}
	}
	switch c.Tool {
	case "shell_cmd":
		cmd := str("command")
		if extra, ok := args["args"].([]any); ok {
			for _, a := range extra {
				if s, ok := a.(string); ok {
					cmd += " " + shellQuote(s)
				}
			}
		}
		in["command"] = cmd
		return "Bash", in
	case "read_file", "write_file", "edit_file":
		in["file_path"] = abs(str("path"))
		for _, k := range []string{"offset", "limit", "content", "old_string", "new_string", "replace_all"} {
			copyIf(k, k)
		}
		return map[string]string{"read_file": "Read", "write_file": "Write", "edit_file": "Edit"}[c.Tool], in
	case "search_files":
		if p := str("path"); p != "" {
			in["path"] = abs(p)
		}
		if content := str("content"); content != "" {
			in["pattern"] = content
			copyIf("pattern", "glob")
			return "Grep", in
		}
		copyIf("pattern", "pattern")
		return "Glob", in
	case "list_files":
		in["path"] = abs(firstNonEmpty(str("path"), "."))
		return "LS", in
	case "web_fetch":
		copyIf("url", "url")
		in["prompt"] = ""
		return "WebFetch", in
	case "spawn_agent":
		task := str("task")
		in["prompt"] = task
		in["description"] = firstLine(task)
		in["subagent_type"] = firstNonEmpty(str("agent"), "general-purpose")
		return "Task", in
	}
	if server, ok := strings.CutPrefix(c.Source, "mcp:"); ok {
		return claudecode.MCPName(server, c.Tool), args
	}
	return c.Tool, args
}

// llmrtArguments turns a Claude Code hook's updatedInput for a call back
// into llmrt's arguments: the fields it names replace the call's, the
// others stay.
func llmrtArguments(c engine.HookCall, updated map[string]any) json.RawMessage {
	args := map[string]any{}
	_ = json.Unmarshal(c.Arguments, &args)
	set := func(from, to string) {
		if v, ok := updated[from]; ok {
			args[to] = v
		}
	}
	switch c.Tool {
	case "shell_cmd":
		if _, ok := updated["command"]; ok {
			delete(args, "args") // the command given is the whole command line
		}
		set("command", "command")
	case "read_file", "write_file", "edit_file":
		set("file_path", "path")
		for _, k := range []string{"offset", "limit", "content", "old_string", "new_string", "replace_all"} {
			set(k, k)
		}
	case "search_files":
		if _, grep := args["content"].(string); grep && args["content"] != "" {
			set("pattern", "content")
			set("glob", "pattern")
		} else {
			set("pattern", "pattern")
		}
		set("path", "path")
	case "list_files":
		set("path", "path")
	case "web_fetch":
		set("url", "url")
	case "spawn_agent":
		set("prompt", "task")
	default:
		for k, v := range updated {
			args[k] = v
		}
	}
	b, _ := json.Marshal(args)
	return b
}

// claudeResponse is a call's outcome as Claude Code's tool_response: a
// command's output as stdout, other results as their text.
func claudeResponse(c engine.HookCall, o engine.ToolOutcome) any {
	if c.Tool == "shell_cmd" {
		var r struct {
			Output   string `json:"output"`
			ExitCode int    `json:"exit_code"`
			TimedOut bool   `json:"timed_out"`
		}
		if json.Unmarshal([]byte(o.Content), &r) == nil {
			return map[string]any{"stdout": r.Output, "stderr": "", "interrupted": r.TimedOut, "exit_code": r.ExitCode, "isImage": false}
		}
	}
	resp := map[string]any{"content": o.Content, "success": !o.IsError && !o.Failed}
	if c.Tool == "write_file" || c.Tool == "edit_file" {
		var a struct {
			Path string `json:"path"`
		}
		_ = json.Unmarshal(c.Arguments, &a)
		resp["filePath"] = a.Path
	}
	return resp
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '=' || r == ':' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(line) > 80 {
		line = line[:80]
	}
	return line
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
