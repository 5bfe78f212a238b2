package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

const writeFileSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "description": "File path, relative to the working directory; missing parent directories are created"},
    "content": {"type": "string", "description": "The complete text to write (for append: the text to add at the end)"},
    "mode": {"type": "string", "enum": ["create", "overwrite", "append"], "description": "create: new file only, fails if it exists; overwrite (default): replace the whole file, which must have been read first if it exists; append: add to the end"}
  },
  "required": ["path", "content"],
  "additionalProperties": false
}`

func writeFileTool(ws *Workspace) Tool {
	return Tool{
		Name: "write_file",
		Description: "Write a text file: create a new one, replace an existing one, or append to one. " +
			"Replacing an existing file requires having read it in this run (read_file) and refuses if it changed on disk since; " +
			"for changes to part of a file prefer edit_file. Parent directories are created. " +
			"The file is replaced whole, never changed in place (a failed write leaves it as it was); files with more than one hard link are refused.",
		Schema: json.RawMessage(writeFileSchema),
		Kind:   KindWrite,
		Source: SourceBuiltin,
		Preview: func(raw json.RawMessage) string {
			return previewWrite(ws, raw)
		},
		Execute: func(ctx context.Context, raw json.RawMessage) (Result, error) {
			var args struct {
				Path    string `json:"path"`
				Content string `json:"content"`
				Mode    string `json:"mode"`
			}
			if r := decodeArgs(raw, &args); r != nil {
				return *r, nil
			}
			return writeFile(ws, args.Path, args.Content, args.Mode), nil
		},
	}
}

func writeFile(ws *Workspace, path, content, mode string) Result {
	if mode == "" {
		mode = "overwrite"
	}
	abs, err := ws.ResolveWrite(path)
	if err != nil {
		return Errorf("%v", err)
	}
	info, err := os.Stat(abs)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return Errorf("stat %s: %v", path, err)
	case exists && info.IsDir():
		return Errorf("refused: %s is a directory; give a file path", path)
	case exists && !info.Mode().IsRegular():
		return Errorf("%s", notRegular(path, info))
	case exists && linkRefusal(path, info) != "":
		return Errorf("%s", linkRefusal(path, info))
	case exists && mode == "create":
		return Errorf("refused: %s already exists (%d bytes); mode=create only makes new files. Read it and use mode=overwrite or edit_file to change it", path, info.Size())
	case exists && mode == "overwrite" && !ws.hasRead(abs):
		// Replacing a file the run has never seen would destroy content
		// the model knows nothing about.
		return Errorf("refused: %s exists and has not been read in this run; read it with read_file first, then overwrite it (or use edit_file for a partial change)", path)
	}
	if exists {
		if err := ws.checkFresh(abs); err != nil {
			return Errorf("%v", err)
		}
	}
	if err := ws.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return Errorf("create parent directories of %s: %v", path, err)
	}
	op, prev := replaceOverwrite, info
	switch {
	case mode == "create":
		op = replaceCreate
	case mode == "append":
		op = replaceAppend
	}
	if !exists {
		prev = nil
	}
	// Appending to a file the run never read must not mark it as read: the
	// run still has not seen what was there before.
	note := !exists || mode != "append" || ws.hasRead(abs)
	if err := writeAndNote(ws, abs, prev, op, content, note); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return Errorf("refused: %s already exists; mode=create only makes new files", path)
		}
		return Errorf("write %s: %v", path, err)
	}
	verb := map[string]string{"create": "Created", "overwrite": "Wrote", "append": "Appended to"}[mode]
	if !exists && mode != "create" {
		verb = "Created"
	}
	summary := plural(countLines(content), "line")
	if verb == "Created" {
		summary = "new file, " + summary
	}
	return Summed(fmt.Sprintf("%s %s (%d bytes, %d lines written).", verb, ws.Rel(abs), len(content), countLines(content)), summary)
}

// writeAndNote writes content to abs as op says (see replaceFile; prev
// is the file there, nil for none) and, when note is set, records the new
// version as read, so the run can keep editing the file it just wrote
// without a stale-write refusal.
func writeAndNote(ws *Workspace, abs string, prev fs.FileInfo, op replaceOp, content string, note bool) error {
	if err := ws.replaceFile(abs, prev, op, content); err != nil {
		return err
	}
	if !note {
		return nil
	}
	info, err := os.Stat(abs)
	if err != nil {
		return err
	}
	ws.noteRead(abs, info)
	return nil
}

// countLines counts lines the way an editor shows them: a trailing newline
// does not start another line.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
