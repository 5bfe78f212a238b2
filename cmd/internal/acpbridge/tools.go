package acpbridge

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/llmrt/llmrt/tools"
)

// maxDiffBytes bounds a file read to show a diff: a larger file's change
// is shown as the tool's result text instead.
const maxDiffBytes = 1 << 20

// maxResultText bounds the result text a tool call update carries; the
// model sees the whole result.
const maxResultText = 16 << 10

// callArgs are the arguments of llmrt's built-ins that say what a call is
// about.
type callArgs struct {
	Path       string `json:"path"`
	Pattern    string `json:"pattern"`
	Query      string `json:"query"`
	Command    string `json:"command"`
	URL        string `json:"url"`
	Content    string `json:"content"`
	Mode       string `json:"mode"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

func parseArgs(raw string) callArgs {
	var a callArgs
	_ = json.Unmarshal([]byte(raw), &a) // arguments may be anything; what parses is used
	return a
}

// Kind is the ACP kind of a call to tool name of llmrt kind k.
func Kind(name string, k tools.Kind) acp.ToolKind {
	switch name {
	case "read_file":
		return acp.ToolKindRead
	case "write_file", "edit_file", "create_directory":
		return acp.ToolKindEdit
	case "list_files", "search_files", "path_exists":
		return acp.ToolKindSearch
	case "shell_cmd", "run_code":
		return acp.ToolKindExecute
	case "web_fetch":
		return acp.ToolKindFetch
	}
	switch k {
	case tools.KindRead:
		return acp.ToolKindRead
	case tools.KindWrite:
		return acp.ToolKindEdit
	case tools.KindExternalAction:
		return acp.ToolKindExecute
	}
	return acp.ToolKindOther
}

// Title is a short human title for a call, from what its arguments say.
func Title(name, raw string) string {
	a := parseArgs(raw)
	var t string
	switch name {
	case "read_file":
		t = "Read " + a.Path
	case "write_file":
		t = "Write " + a.Path
	case "edit_file":
		t = "Edit " + a.Path
	case "create_directory":
		t = "Create directory " + a.Path
	case "list_files":
		t = "List " + a.Path
	case "search_files":
		t = "Search " + first(a.Pattern, a.Query)
	case "shell_cmd":
		t = "Run " + a.Command
	case "web_fetch":
		t = "Fetch " + a.URL
	}
	t = strings.TrimSpace(oneLine(t))
	if t == "" || !strings.Contains(t, " ") {
		return name
	}
	return t
}

// Locations are the files a call is about, as absolute paths.
func Locations(root, raw string) []acp.ToolCallLocation {
	a := parseArgs(raw)
	if a.Path == "" {
		return nil
	}
	return []acp.ToolCallLocation{{Path: abs(root, a.Path)}}
}

// Edits reports whether a call changes one file's text, so a diff shows it.
func Edits(name string) bool { return name == "write_file" || name == "edit_file" }

// Proposed is the diff a write_file or edit_file call would make to the
// file as it is now; nil when it cannot say (the file is too large, the
// text to replace is not there).
func Proposed(root, name, raw string) []acp.ToolCallContent {
	a := parseArgs(raw)
	if !Edits(name) || a.Path == "" {
		return nil
	}
	p := abs(root, a.Path)
	old, exists, ok := readSmall(p)
	if !ok {
		return nil
	}
	var next string
	switch {
	case name == "edit_file" && !strings.Contains(old, a.OldString):
		return nil
	case name == "edit_file" && a.ReplaceAll:
		next = strings.ReplaceAll(old, a.OldString, a.NewString)
	case name == "edit_file":
		next = strings.Replace(old, a.OldString, a.NewString, 1)
	case a.Mode == "append":
		next = old + a.Content
	default:
		next = a.Content
	}
	return []acp.ToolCallContent{diff(p, next, old, exists)}
}

// diff is a diff content; a new file has no old text.
func diff(path, next, old string, existed bool) acp.ToolCallContent {
	if existed {
		return acp.ToolDiffContent(path, next, old)
	}
	return acp.ToolDiffContent(path, next)
}

// readSmall reads a file for a diff: exists is false for a missing file
// (an empty old text), ok false when it cannot be shown.
func readSmall(p string) (text string, exists, ok bool) {
	st, err := os.Stat(p)
	switch {
	case os.IsNotExist(err):
		return "", false, true
	case err != nil || !st.Mode().IsRegular() || st.Size() > maxDiffBytes:
		return "", false, false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", false, false
	}
	return string(b), true, true
}

func abs(root, p string) string {
	if filepath.IsAbs(p) || root == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(root, p)
}

func first(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// oneLine keeps the first line of s, cut to about 100 characters.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 100 {
		return string(r[:100]) + "…"
	}
	return s
}

// resultText is a tool result as the text a client shows, bounded.
func resultText(s string) string {
	if len(s) <= maxResultText {
		return s
	}
	return strings.ToValidUTF8(s[:maxResultText], "") + fmt.Sprintf("\n… (%d more bytes)", len(s)-maxResultText)
}
