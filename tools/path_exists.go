package tools

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

const pathExistsSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "Path to check, relative to the working directory"}
  },
  "required": ["path"],
  "additionalProperties": false
}`

func pathExistsTool(ws *Workspace) Tool {
	return Tool{
		Name:        "path_exists",
		Description: "Check whether a path exists; returns its type (file, directory, symlink) and size.",
		Schema:      json.RawMessage(pathExistsSchema),
		Kind:        KindRead,
		Source:      SourceBuiltin,
		Execute: func(ctx context.Context, raw json.RawMessage) (Result, error) {
			var args struct {
				Path string `json:"path"`
			}
			if r := decodeArgs(raw, &args); r != nil {
				return *r, nil
			}
			return pathExists(ws, args.Path), nil
		},
	}
}

type existence struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	Type   string `json:"type,omitempty"`
	Size   int64  `json:"size,omitempty"`
}

// pathExists checks the entry itself without following a final symlink, so
// a link pointing outside the workspace is reported, not followed.
func pathExists(ws *Workspace, p string) Result {
	clean := filepath.Clean(p)
	parent, err := ws.Resolve(filepath.Dir(clean))
	if err != nil {
		return Errorf("%v", err)
	}
	abs := filepath.Join(parent, filepath.Base(clean))
	if filepath.Base(clean) == "." || filepath.Base(clean) == string(filepath.Separator) {
		abs = parent
	}
	if _, err := ws.Resolve(clean); err != nil {
		if info, lerr := os.Lstat(abs); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			return JSON(existence{Path: p, Exists: true, Type: "symlink"})
		}
		return Errorf("%v", err)
	}
	info, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return JSON(existence{Path: p, Exists: false})
	}
	if err != nil {
		return Errorf("stat %s: %v", p, err)
	}
	e := existence{Path: p, Exists: true, Size: info.Size()}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		e.Type = "symlink"
	case info.IsDir():
		e.Type, e.Size = "directory", 0
	case info.Mode().IsRegular():
		e.Type = "file"
	case info.Mode()&fs.ModeNamedPipe != 0:
		e.Type, e.Size = "named pipe", 0
	case info.Mode()&fs.ModeSocket != 0:
		e.Type, e.Size = "socket", 0
	case info.Mode()&fs.ModeDevice != 0:
		e.Type, e.Size = "device", 0
	default:
		e.Type = "other"
	}
	return JSON(e)
}
