package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

const defaultMaxEntries = 500

const listFilesSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "Directory to list, relative to the working directory (default .)"},
    "recursive": {"type": "boolean", "description": "List subdirectories too (default false)"},
    "max_depth": {"type": "integer", "minimum": 1, "description": "With recursive, how many levels deep to go (default unlimited)"},
    "include_hidden": {"type": "boolean", "description": "Include dot-files and dot-directories (default false)"},
    "pattern": {"type": "string", "description": "Glob the entries must match, e.g. *.go or src/**/*.ts; a pattern without / matches file names"},
    "max_entries": {"type": "integer", "minimum": 1, "description": "Maximum entries to return (default 500)"}
  },
  "additionalProperties": false
}`

func listFilesTool(ws *Workspace) Tool {
	return Tool{
		Name:        "list_files",
		Description: "List a directory, optionally recursively. Honours .gitignore and skips .git and node_modules; directories end in /. Paths are relative to the working directory.",
		Schema:      json.RawMessage(listFilesSchema),
		Kind:        KindRead,
		Source:      SourceBuiltin,
		Execute: func(ctx context.Context, raw json.RawMessage) (Result, error) {
			var args struct {
				Path          string `json:"path"`
				Recursive     bool   `json:"recursive"`
				MaxDepth      int    `json:"max_depth"`
				IncludeHidden bool   `json:"include_hidden"`
				Pattern       string `json:"pattern"`
				MaxEntries    int    `json:"max_entries"`
			}
			if r := decodeArgs(raw, &args); r != nil {
				return *r, nil
			}
			return listFiles(ctx, ws, args.Path, listOptions{
				walk:       WalkOptions{Hidden: args.IncludeHidden, MaxDepth: depthFor(args.Recursive, args.MaxDepth)},
				pattern:    args.Pattern,
				maxEntries: args.MaxEntries,
			})
		},
	}
}

type listOptions struct {
	walk       WalkOptions
	pattern    string
	maxEntries int
}

func depthFor(recursive bool, maxDepth int) int {
	if !recursive {
		return 1
	}
	return maxDepth
}

func listFiles(ctx context.Context, ws *Workspace, dir string, o listOptions) (Result, error) {
	if dir == "" {
		dir = "."
	}
	if o.pattern != "" && !doublestar.ValidatePattern(o.pattern) {
		return Errorf("invalid pattern %q", o.pattern), nil
	}
	abs, err := ws.Resolve(dir)
	if err != nil {
		return Errorf("%v", err), nil
	}
	info, err := os.Stat(abs)
	if err != nil {
		return Errorf("no such directory: %s", dir), nil
	}
	if why := notRegular(dir, info); why != "" {
		return Errorf("%s", why), nil
	}
	if !info.IsDir() {
		return Errorf("%s is a file, not a directory; use read_file to read it", dir), nil
	}
	if o.maxEntries <= 0 {
		o.maxEntries = defaultMaxEntries
	}
	base := ws.Rel(abs)
	var out strings.Builder
	shown, total := 0, 0
	err = ws.Walk(ctx, abs, o.walk, func(rel string, d fs.DirEntry) error {
		if o.pattern != "" && !matchEntry(o.pattern, base, rel) {
			return nil
		}
		total++
		if shown < o.maxEntries {
			shown++
			out.WriteString(rel)
			if d.IsDir() {
				out.WriteByte('/')
			}
			out.WriteByte('\n')
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	switch {
	case total == 0:
		return Summed(fmt.Sprintf("[no entries in %s]", dir), "no entries"), nil
	case shown < total:
		fmt.Fprintf(&out, "[showing %d of %d entries; narrow path or pattern, or raise max_entries]", shown, total)
	default:
		fmt.Fprintf(&out, "[%s]", plural(total, "entry"))
	}
	return Summed(out.String(), plural(total, "entry")), nil
}

// matchEntry matches a glob against an entry: patterns holding a slash are
// matched against the path below the listed directory, others against the
// base name.
func matchEntry(pattern, base, rel string) bool {
	if !strings.Contains(pattern, "/") {
		ok, _ := doublestar.Match(pattern, path.Base(rel))
		return ok
	}
	sub := rel
	if base != "." && base != "" {
		sub = strings.TrimPrefix(rel, base+"/")
	}
	ok, _ := doublestar.Match(pattern, sub)
	return ok
}
