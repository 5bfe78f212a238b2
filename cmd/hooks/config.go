// Package hooks runs the person's own commands at points of a run, in
// Claude Code's hook format: a settings file's "hooks" maps an event to
// matchers, each with commands that get the event as JSON on stdin and
// answer with their exit status and, optionally, JSON on stdout. Runner
// is the engine's Hooks for the tool and stop events and gives the host
// the others (a prompt submitted, a session starting or ending, a
// compaction, a notification).
package hooks

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// Events, as Claude Code names them.
const (
	PreToolUse       = "PreToolUse"
	PostToolUse      = "PostToolUse"
	UserPromptSubmit = "UserPromptSubmit"
	SessionStart     = "SessionStart"
	SessionEnd       = "SessionEnd"
	Stop             = "Stop"
	SubagentStop     = "SubagentStop"
	PreCompact       = "PreCompact"
	Notification     = "Notification"
)

var events = []string{PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, SessionEnd, Stop, SubagentStop, PreCompact, Notification}

// DefaultTimeout bounds a hook command that names no timeout.
const DefaultTimeout = 60 * time.Second

// maxSettingsBytes bounds a settings file read for its hooks.
const maxSettingsBytes = 1 << 20

// Command is one hook command.
type Command struct {
	Command string
	Timeout time.Duration
}

// Matcher is a set of commands for the tools (or, for SessionStart and
// PreCompact, the sources and triggers) a pattern matches.
type Matcher struct {
	// Pattern is Claude Code's matcher: "" or "*" match everything, a
	// plain name matches itself, anything else is a regular expression
	// matched against the whole name ("Edit|Write", "mcp__.*").
	Pattern  string
	re       *regexp.Regexp
	Commands []Command
}

// matches reports whether the matcher applies to name.
func (m Matcher) matches(name string) bool {
	switch {
	case m.Pattern == "" || m.Pattern == "*":
		return true
	case m.re != nil:
		return m.re.MatchString(name)
	}
	return m.Pattern == name
}

// Set is the hooks of one file.
type Set struct {
	// Source is the file the hooks came from.
	Source string
	// Claude says the hooks come from Claude Code's settings: they see
	// Claude Code's tool names and input fields (Bash with command,
	// Write with file_path); llmrt's own config's hooks see llmrt's.
	Claude bool
	// Project says the file belongs to the project (not the user), whose
	// scripts are checked against what was trusted before they run.
	Project bool
	Events  map[string][]Matcher
}

// wire is the "hooks" object of a settings file.
type wire map[string][]struct {
	Matcher string `json:"matcher"`
	Hooks   []struct {
		Type    string  `json:"type"`
		Command string  `json:"command"`
		Timeout float64 `json:"timeout"` // seconds
	} `json:"hooks"`
}

// Parse reads the "hooks" of a settings file's JSON. Other keys are
// left alone; a file without hooks gives an empty Set.
func Parse(data []byte, source string) (Set, error) {
	var file struct {
		Hooks json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return Set{}, fmt.Errorf("%s: not valid JSON: %v", source, err)
	}
	return ParseHooks(file.Hooks, source)
}

// EventNames returns the events the set has hooks for, in the order
// Claude Code documents them.
func (s Set) EventNames() []string {
	var out []string
	for _, e := range events {
		if len(s.Events[e]) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// ParseHooks reads a "hooks" object.
func ParseHooks(raw json.RawMessage, source string) (Set, error) {
	set := Set{Source: source, Events: map[string][]Matcher{}}
	if len(raw) == 0 || string(raw) == "null" {
		return set, nil
	}
	var w wire
	if err := json.Unmarshal(raw, &w); err != nil {
		return Set{}, fmt.Errorf(`%s: "hooks" should map an event to a list of {"matcher", "hooks": [{"type": "command", "command": ...}]}: %v`, source, err)
	}
	for event, ms := range w {
		if !known(event) {
			return Set{}, fmt.Errorf("%s: unknown hook event %q; the events are %s", source, event, strings.Join(events, ", "))
		}
		for _, m := range ms {
			mt := Matcher{Pattern: strings.TrimSpace(m.Matcher)}
			if mt.Pattern != "" && mt.Pattern != "*" && !plainName(mt.Pattern) {
				re, err := regexp.Compile("^(?:" + mt.Pattern + ")$")
				if err != nil {
					return Set{}, fmt.Errorf("%s: %s matcher %q is not a valid regular expression: %v", source, event, mt.Pattern, err)
				}
				mt.re = re
			}
			for _, h := range m.Hooks {
				if h.Type != "command" {
					return Set{}, fmt.Errorf(`%s: %s hook of type %q: only "command" hooks are supported`, source, event, h.Type)
				}
				if strings.TrimSpace(h.Command) == "" {
					return Set{}, fmt.Errorf("%s: %s hook with an empty command", source, event)
				}
				c := Command{Command: h.Command, Timeout: DefaultTimeout}
				if h.Timeout > 0 {
					c.Timeout = time.Duration(h.Timeout * float64(time.Second))
				}
				mt.Commands = append(mt.Commands, c)
			}
			set.Events[event] = append(set.Events[event], mt)
		}
	}
	return set, nil
}

// ReadFile reads the hooks of a settings file; a missing file has none.
// Only a regular file is read: a named pipe or a device planted in a
// project would block the read or never end it.
func ReadFile(path string) (Set, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if os.IsNotExist(err) {
		return Set{Source: path}, nil
	}
	if err != nil {
		return Set{}, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return Set{}, fmt.Errorf("%s: not a regular file; llmrt does not read it", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSettingsBytes+1))
	if err != nil {
		return Set{}, fmt.Errorf("%s: %v", path, err)
	}
	if len(data) > maxSettingsBytes {
		return Set{}, fmt.Errorf("%s: larger than %d KiB", path, maxSettingsBytes/1024)
	}
	return Parse(data, path)
}

func known(event string) bool {
	for _, e := range events {
		if e == event {
			return true
		}
	}
	return false
}

// plainName reports a matcher that is a tool name, not a pattern.
func plainName(s string) bool {
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
