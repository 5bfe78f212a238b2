package ui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/llmrt/llmrt/engine"
)

// keyArgs names, per tool, the argument a person scans for in a one-line
// summary of a call; other tools show their first string argument.
var keyArgs = map[string][]string{
	"shell_cmd":        {"command"},
	"read_file":        {"path"},
	"write_file":       {"path"},
	"edit_file":        {"path"},
	"list_files":       {"path", "pattern"},
	"path_exists":      {"path"},
	"create_directory": {"path"},
	"search_files":     {"content", "pattern"},
	"web_fetch":        {"url"},
	"load_skill":       {"skill_id"},
	"run_code":         {"code"},
	"spawn_agent":      {"task"},
}

// KeyArgument returns the argument that says what a call is about, on one
// line: a command, a path, a pattern, a URL. "" when there is none.
func KeyArgument(tool, arguments string) string {
	var m map[string]any
	if json.Unmarshal([]byte(arguments), &m) != nil || len(m) == 0 {
		return ""
	}
	for _, k := range keyArgs[tool] {
		if s, ok := m[k].(string); ok && s != "" {
			if tool == "shell_cmd" {
				if extra, ok := m["args"].([]any); ok {
					for _, a := range extra {
						s += " " + fmt.Sprint(a)
					}
				}
			}
			return oneLine(s)
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return oneLine(s)
		}
	}
	return ""
}

// shellNote reads a command's result for what a person scans for: its
// exit status, and whether it failed (a non-zero exit, a timeout). Live
// results say both in their outcome; a resumed session's history holds
// only the result.
func shellNote(tool, content string) (note string, failed bool) {
	if tool != "shell_cmd" {
		return "", false
	}
	var r struct {
		ExitCode *int   `json:"exit_code"`
		TimedOut bool   `json:"timed_out"`
		Signal   string `json:"signal"`
	}
	if json.Unmarshal([]byte(content), &r) != nil || r.ExitCode == nil {
		return "", false
	}
	switch {
	case r.TimedOut:
		return "timed out", true
	case r.Signal != "":
		return "killed by " + r.Signal, true
	}
	return fmt.Sprintf("exit %d", *r.ExitCode), *r.ExitCode != 0
}

// outcome says how a finished call ended, as its line shows it in run's
// progress and in the chat alike: the state and a short note (the tool's
// summary, a command's exit status, the first line of an error).
func outcome(ev engine.Event) (toolState, string) {
	o := ev.Outcome
	switch {
	case o.Code == engine.OutcomePermissionDenied:
		if why, ok := strings.CutPrefix(o.Content, "blocked by a hook: "); ok {
			why = strings.TrimSuffix(strings.TrimSuffix(why, " Do not retry it unchanged."), ".") // for the model
			return toolDenied, "by a hook: " + firstLine(why, 60)
		}
		return toolDenied, ""
	case o.Code == engine.OutcomeCancelled:
		return toolCancelled, ""
	}
	note, failed := shellNote(ev.Call.Name, o.Content)
	if o.Summary != "" {
		note = Sanitize(oneLine(o.Summary))
	}
	switch {
	case ev.Type == engine.EventToolError || o.IsError:
		if note == "" {
			note = firstLine(o.Content, 100)
		}
		return toolFailed, note
	case failed || o.Failed:
		return toolFailed, note
	}
	return toolOK, note
}

// marks are the signs a finished call's line starts with.
var marks = map[toolState]string{toolOK: "✓", toolFailed: "✗", toolDenied: "⊘", toolCancelled: "◌"}

// quietTool reports tools that get no line: control calls end the run,
// and a question shows as its form and then as what was chosen.
func quietTool(name string) bool {
	return name == engine.FinalAnswerTool || name == engine.BlockedTool || name == engine.AskUserTool
}

// Elapsed formats a running time the way the spinner shows it: 4s, 1m05s.
func Elapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// Took formats how long a finished call took: 120ms, 1.4s, 2m10s.
func Took(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return Elapsed(d)
}

// SpinnerFrames are the frames of the busy mark.
var SpinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// oneLine flattens s to one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cut shortens s to at most width cells, ending it with … when cut.
func cut(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return ansi.Truncate(s, width, "…")
}

// Tokens formats a token count compactly: 950, 12.3k, 1.2M.
func Tokens(n int) string { return tokens(n) }

// tokens formats a token count compactly: 950, 12.3k, 1.2M.
func tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
}
