package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// Previews are bounded: a person reads them in a prompt, and a file too
// large to diff cheaply is summarised instead.
const (
	previewMaxFile  = 1 << 20
	previewMaxLines = 400
)

// previewWrite is write_file's Preview: the change as a unified diff
// against the file as it is now (an empty file when it does not exist).
func previewWrite(ws *Workspace, raw json.RawMessage) string {
	var a struct {
		Path    string `json:"path"`
		Content string `json:"content"`
		Mode    string `json:"mode"`
	}
	if json.Unmarshal(raw, &a) != nil || a.Path == "" {
		return ""
	}
	old, exists, err := previewRead(ws, a.Path)
	if err != "" {
		return err
	}
	updated := a.Content
	if a.Mode == "append" {
		updated = old + a.Content
	}
	from := "a/" + a.Path
	if !exists {
		from = "/dev/null"
	}
	return diffText(from, "b/"+a.Path, old, updated)
}

// previewEdit is edit_file's Preview: the replacement as a unified diff,
// made the way the edit will make it.
func previewEdit(ws *Workspace, raw json.RawMessage) string {
	var a editArgs
	if json.Unmarshal(raw, &a) != nil || a.Path == "" || a.OldString == "" {
		return ""
	}
	old, exists, err := previewRead(ws, a.Path)
	switch {
	case err != "":
		return err
	case !exists:
		return fmt.Sprintf("(%s does not exist; the edit will fail)", a.Path)
	}
	oldS, newS := a.OldString, a.NewString
	if !strings.Contains(old, oldS) && strings.Contains(old, "\r\n") {
		oldS = strings.ReplaceAll(oldS, "\n", "\r\n")
		newS = strings.ReplaceAll(newS, "\n", "\r\n")
	}
	n := strings.Count(old, oldS)
	switch {
	case n == 0:
		return fmt.Sprintf("(old_string is not in %s; the edit will fail)", a.Path)
	case n > 1 && !a.ReplaceAll:
		return fmt.Sprintf("(old_string occurs %d times in %s; the edit will fail unless it is made unique)", n, a.Path)
	}
	updated := strings.Replace(old, oldS, newS, map[bool]int{true: -1, false: 1}[a.ReplaceAll])
	return diffText("a/"+a.Path, "b/"+a.Path, old, updated)
}

// previewRead reads what a write would replace. A problem that keeps the
// preview from being made is returned as a short note in parentheses.
func previewRead(ws *Workspace, path string) (content string, exists bool, note string) {
	abs, err := ws.ResolveWrite(path)
	if err != nil {
		return "", false, fmt.Sprintf("(%v)", err)
	}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false, ""
	case err != nil:
		return "", false, fmt.Sprintf("(cannot read %s: %v)", path, err)
	case !info.Mode().IsRegular():
		return "", true, fmt.Sprintf("(%s is not a regular file)", path)
	case info.Size() > previewMaxFile:
		return "", true, fmt.Sprintf("(%s is %d KB, too large to show as a diff)", path, info.Size()>>10)
	}
	data, err := readAllFrom(ws, abs)
	if err != nil {
		return "", true, fmt.Sprintf("(cannot read %s: %v)", path, err)
	}
	kind := sniffText(data[:min(len(data), sniffSize)])
	if kind == kindBinary {
		return "", true, fmt.Sprintf("(%s is a binary file)", path)
	}
	text, _, err := decodeBytes(data, kind)
	if err != nil {
		return "", true, fmt.Sprintf("(cannot read %s as %s: %v)", path, kind, err)
	}
	return text, true, ""
}

// diffText is a unified diff of old and updated, cut to previewMaxLines.
func diffText(from, to, old, updated string) string {
	if old == updated {
		return "(no change)"
	}
	d := udiff.Unified(from, to, old, updated)
	lines := strings.SplitAfter(d, "\n")
	if len(lines) > previewMaxLines {
		d = strings.Join(lines[:previewMaxLines], "") + fmt.Sprintf("… %d more lines of diff\n", len(lines)-previewMaxLines)
	}
	return strings.TrimSuffix(d, "\n")
}
