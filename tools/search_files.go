package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

const (
	defaultMaxResults = 200
	// searchBudget keeps the output under the engine's default 32 KiB
	// result cap, so the model gets our summary instead of a blunt cut.
	searchBudget = 28 * 1024
)

const searchFilesSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "description": "Glob the file paths must match, e.g. *.go, src/**/*.ts or **/test_*.py; a pattern without / matches file names. Default: all files"},
    "content": {"type": "string", "description": "Regular expression (Go RE2 syntax, e.g. func \\w+Handler; prefix (?i) for case-insensitive) to search for inside the files, line by line. Without it, the matching file paths are listed"},
    "path": {"type": "string", "description": "Directory (or single file) to search, relative to the working directory (default .)"},
    "max_results": {"type": "integer", "minimum": 1, "maximum": 2000, "description": "Maximum matching lines (or paths) to return (default 200)"},
    "include_hidden": {"type": "boolean", "description": "Also search dot-files and dot-directories (default false)"}
  },
  "additionalProperties": false
}`

type searchArgs struct {
	Pattern       string `json:"pattern"`
	Content       string `json:"content"`
	Path          string `json:"path"`
	MaxResults    int    `json:"max_results"`
	IncludeHidden bool   `json:"include_hidden"`
}

func searchFilesTool(ws *Workspace, opts SearchOptions) Tool {
	return Tool{
		Name: "search_files",
		Description: "Find files by path glob and, with content, search inside them for a regular expression (like ripgrep). " +
			"Matches are returned as path:line: text in path order. Honours .gitignore, skips binary files, .git and node_modules. " +
			"Use it to locate code before reading it; narrow path or pattern when there are too many results.",
		Schema: json.RawMessage(searchFilesSchema),
		Kind:   KindRead,
		Source: SourceBuiltin,
		Execute: func(ctx context.Context, raw json.RawMessage) (Result, error) {
			var args searchArgs
			if r := decodeArgs(raw, &args); r != nil {
				return *r, nil
			}
			return searchFiles(ctx, ws, opts, args)
		},
	}
}

// search is one prepared search_files call.
type search struct {
	ws      *Workspace
	start   string // absolute directory (or file) searched
	base    string // start relative to the root, for glob matching
	glob    string
	m       *matcher // nil: list paths only
	max     int
	hidden  bool
	workers int
}

func searchFiles(ctx context.Context, ws *Workspace, opts SearchOptions, a searchArgs) (Result, error) {
	s := &search{ws: ws, glob: a.Pattern, max: a.MaxResults, hidden: a.IncludeHidden, workers: opts.Workers}
	if s.glob != "" && !doublestar.ValidatePattern(s.glob) {
		return Errorf("invalid glob pattern %q", s.glob), nil
	}
	if a.Content != "" {
		m, err := newMatcher(a.Content)
		if err != nil {
			return Errorf("invalid content regular expression %q: %v (Go RE2 syntax: escape ( [ . * + ? { with \\ to match them literally; no lookaround or backreferences)", a.Content, err), nil
		}
		s.m = m
	}
	if s.max <= 0 {
		s.max = defaultMaxResults
	}
	if s.workers <= 0 {
		s.workers = min(max(runtime.GOMAXPROCS(0), 2), 16)
	}
	dir := a.Path
	if dir == "" {
		dir = "."
	}
	abs, err := ws.Resolve(dir)
	if err != nil {
		return Errorf("%v", err), nil
	}
	info, err := os.Stat(abs)
	if err != nil {
		return Errorf("no such file or directory: %s", dir), nil
	}
	if why := notRegular(dir, info); why != "" {
		return Errorf("%s", why), nil
	}
	s.start, s.base = abs, ws.Rel(abs)
	var out searchOutput
	switch {
	case !info.IsDir() && s.m != nil:
		sc := &scanner{m: s.m}
		out.add(ws.Rel(abs), sc.scanFile(abs, s.max+1), s.max)
		out.files = 1
	case !info.IsDir():
		out.paths = []string{ws.Rel(abs)}
		out.total = 1
	case s.m != nil:
		err = s.grep(ctx, &out)
	default:
		err = s.list(ctx, &out)
	}
	if err != nil {
		if ctx.Err() != nil {
			return Errorf("search cancelled"), ctx.Err()
		}
		return Result{}, err
	}
	return Summed(out.render(a), out.summary(a)), nil
}

// matches reports whether a file below the search start passes the glob.
func (s *search) matches(rel string) bool {
	return s.glob == "" || matchEntry(s.glob, s.base, rel)
}

// searchOutput accumulates results in path order.
type searchOutput struct {
	lines   []string
	paths   []string
	total   int // paths matching (list mode)
	files   int // files searched (grep mode)
	hitFile int // files with at least one match
	stopped bool
}

func (o *searchOutput) add(rel string, hits []hit, limit int) {
	if len(hits) > 0 {
		o.hitFile++
	}
	for _, h := range hits {
		if len(o.lines) >= limit {
			o.stopped = true
			return
		}
		o.lines = append(o.lines, fmt.Sprintf("%s:%d: %s", rel, h.line, h.text))
	}
}

func (o *searchOutput) render(a searchArgs) string {
	var b strings.Builder
	items := o.lines
	if a.Content == "" {
		items = o.paths
	}
	shown := 0
	for _, l := range items {
		if b.Len()+len(l) > searchBudget {
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
		shown++
	}
	what := describeSearch(a)
	cut := shown < len(items)
	switch {
	case len(items) == 0:
		fmt.Fprintf(&b, "[no matches for %s]", what)
	case a.Content == "" && (shown < o.total || cut):
		fmt.Fprintf(&b, "[showing %d of %s matching %s; narrow path or pattern, or raise max_results]", shown, plural(o.total, "file"), what)
	case a.Content == "":
		fmt.Fprintf(&b, "[%s matching %s]", plural(o.total, "file"), what)
	case o.stopped:
		fmt.Fprintf(&b, "[showing the first %d matching lines for %s; more exist: narrow path, pattern or content, or raise max_results (at most 2000)]", shown, what)
	case cut:
		fmt.Fprintf(&b, "[showing the first %d of %d matching lines (in %s) for %s; the rest did not fit in the result: narrow path, pattern or content to see them]", shown, len(items), plural(o.hitFile, "file"), what)
	default:
		fmt.Fprintf(&b, "[%d matching %s in %s for %s; %s searched]", len(items), pluralWord(len(items), "line"), plural(o.hitFile, "file"), what, plural(o.files, "file"))
	}
	return b.String()
}

// summary sums the search up for a screen: "12 matches in 3 files", "4
// files", "no matches".
func (o *searchOutput) summary(a searchArgs) string {
	switch {
	case a.Content == "" && o.total == 0, a.Content != "" && len(o.lines) == 0:
		return "no matches"
	case a.Content == "":
		return plural(o.total, "file")
	case o.stopped:
		return fmt.Sprintf("%d+ matches", len(o.lines))
	}
	return plural(len(o.lines), "match") + " in " + plural(o.hitFile, "file")
}

func plural(n int, word string) string { return fmt.Sprintf("%d %s", n, pluralWord(n, word)) }

func pluralWord(n int, word string) string {
	switch {
	case n == 1:
		return word
	case strings.HasSuffix(word, "y"):
		return word[:len(word)-1] + "ies"
	case strings.HasSuffix(word, "ch"), strings.HasSuffix(word, "s"):
		return word + "es"
	}
	return word + "s"
}

func describeSearch(a searchArgs) string {
	var parts []string
	if a.Content != "" {
		parts = append(parts, fmt.Sprintf("content /%s/", a.Content))
	}
	if a.Pattern != "" {
		parts = append(parts, fmt.Sprintf("pattern %q", a.Pattern))
	}
	if a.Path != "" && a.Path != "." {
		parts = append(parts, fmt.Sprintf("in %s", a.Path))
	}
	if len(parts) == 0 {
		return "all files"
	}
	return strings.Join(parts, " ")
}
