package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

const createDirectorySchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "description": "Directory to create, relative to the working directory"},
    "recursive": {"type": "boolean", "description": "Also create missing parent directories, like mkdir -p (default true)"}
  },
  "required": ["path"],
  "additionalProperties": false
}`

func createDirectoryTool(ws *Workspace) Tool {
	return Tool{
		Name:        "create_directory",
		Description: "Create a directory inside the working directory (with missing parents unless recursive is false). Succeeds if it already exists.",
		Schema:      json.RawMessage(createDirectorySchema),
		Kind:        KindWrite,
		Source:      SourceBuiltin,
		Execute: func(ctx context.Context, raw json.RawMessage) (Result, error) {
			var args struct {
				Path      string `json:"path"`
				Recursive *bool  `json:"recursive"`
			}
			if r := decodeArgs(raw, &args); r != nil {
				return *r, nil
			}
			recursive := args.Recursive == nil || *args.Recursive
			return createDirectory(ws, args.Path, recursive), nil
		},
	}
}

// createDirectory is idempotent: asking for a directory that exists is a
// success, so a retried call never looks like a failure.
func createDirectory(ws *Workspace, path string, recursive bool) Result {
	abs, err := ws.ResolveWrite(path)
	if err != nil {
		return Errorf("%v", err)
	}
	rel := ws.Rel(abs)
	if info, err := os.Stat(abs); err == nil {
		if info.IsDir() {
			return Text(fmt.Sprintf("Directory %s already exists.", rel))
		}
		return Errorf("refused: %s exists and is a file, not a directory", path)
	}
	if recursive {
		err = ws.MkdirAll(abs, 0o755)
	} else {
		err = ws.Mkdir(abs, 0o755)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Errorf("parent directory %s does not exist; create it first or set recursive=true", ws.Rel(filepath.Dir(abs)))
	case err != nil:
		return Errorf("create directory %s: %v", path, err)
	}
	return Text(fmt.Sprintf("Created directory %s.", rel))
}
