package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

const editFileSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "description": "File to edit, relative to the working directory"},
    "old_string": {"type": "string", "minLength": 1, "description": "Exact text to replace, including whitespace and indentation, without read_file's line-number prefixes; must occur exactly once unless replace_all is true"},
    "new_string": {"type": "string", "description": "Replacement text (may be empty to delete old_string)"},
    "replace_all": {"type": "boolean", "description": "Replace every occurrence of old_string instead of requiring exactly one (default false)"}
  },
  "required": ["path", "old_string", "new_string"],
  "additionalProperties": false
}`

func editFileTool(ws *Workspace) Tool {
	return Tool{
		Name: "edit_file",
		Description: "Replace exact text in an existing file. old_string must match the file byte for byte (indentation included) and be unique; " +
			"include enough surrounding lines to make it unique, or set replace_all to change every occurrence. " +
			"Refuses if the file changed on disk since this run read it. To create a file use write_file.",
		Schema: json.RawMessage(editFileSchema),
		Kind:   KindWrite,
		Source: SourceBuiltin,
		Preview: func(raw json.RawMessage) string {
			return previewEdit(ws, raw)
		},
		Execute: func(ctx context.Context, raw json.RawMessage) (Result, error) {
			var args editArgs
			if r := decodeArgs(raw, &args); r != nil {
				return *r, nil
			}
			return editFile(ws, args), nil
		},
	}
}

type editArgs struct {
	Path       string `json:"path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

// editFile does not require a prior read_file: an exact, unique match of
// old_string already proves the model knows that part of the file (it may
// have seen it through search_files or shell output). A file the run did
// read must still be unchanged on disk since.
func editFile(ws *Workspace, a editArgs) Result {
	if a.OldString == a.NewString {
		return Errorf("refused: old_string and new_string are identical, so the edit would change nothing")
	}
	abs, err := ws.ResolveWrite(a.Path)
	if err != nil {
		return Errorf("%v", err)
	}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Errorf("no such file: %s; use write_file to create it", a.Path)
	case err != nil:
		return Errorf("stat %s: %v", a.Path, err)
	case info.IsDir():
		return Errorf("refused: %s is a directory", a.Path)
	case notRegular(a.Path, info) != "":
		return Errorf("%s", notRegular(a.Path, info))
	case linkRefusal(a.Path, info) != "":
		return Errorf("%s", linkRefusal(a.Path, info))
	}
	if err := ws.checkFresh(abs); err != nil {
		return Errorf("%v", err)
	}
	data, err := readAllFrom(ws, abs)
	if err != nil {
		return Errorf("read %s: %v", a.Path, err)
	}
	kind := sniffText(data[:min(len(data), sniffSize)])
	if kind == kindBinary {
		return Errorf("refused: %s is a binary file; edit_file only edits text", a.Path)
	}
	content, bom, err := decodeBytes(data, kind)
	if err != nil {
		return Errorf("read %s as %s: %v", a.Path, kind, err)
	}
	oldS, newS := a.OldString, a.NewString
	n := strings.Count(content, oldS)
	if n == 0 && strings.Contains(content, "\r\n") && !strings.Contains(oldS, "\r") {
		// The model sees CRLF files as plain lines; match them as written.
		oldS = strings.ReplaceAll(oldS, "\n", "\r\n")
		newS = strings.ReplaceAll(newS, "\n", "\r\n")
		n = strings.Count(content, oldS)
	}
	if n == 0 {
		return Errorf("%s", notFoundMessage(a.Path, content, a.OldString))
	}
	if n > 1 && !a.ReplaceAll {
		return Errorf("refused: old_string occurs %d times in %s (at lines %s); add surrounding lines to old_string so it matches exactly one place, or set replace_all=true to change all of them",
			n, a.Path, matchLines(content, oldS, 10))
	}
	first := strings.Index(content, oldS)
	var updated string
	if a.ReplaceAll {
		updated = strings.ReplaceAll(content, oldS, newS)
	} else {
		updated = content[:first] + newS + content[first+len(oldS):]
	}
	encoded, err := kind.encode(updated, bom)
	if err != nil {
		return Errorf("refused: %s is %s text and %v; keep to its characters, or rewrite the file with write_file (as UTF-8)", a.Path, kind, err)
	}
	if err := writeAndNote(ws, abs, info, replaceOverwrite, encoded, true); err != nil {
		return Errorf("write %s: %v", a.Path, err)
	}
	line := strings.Count(content[:first], "\n") + 1
	what := "1 occurrence"
	if n > 1 {
		what = fmt.Sprintf("all %d occurrences", n)
	}
	if !a.ReplaceAll {
		n = 1
	}
	// The lines of the replaced text, taken out and put in, on each
	// replacement.
	summary := fmt.Sprintf("+%d −%d", n*countLines(newS), n*countLines(oldS))
	return Summed(fmt.Sprintf("Edited %s: replaced %s (first at line %d). The file now reads:\n%s",
		ws.Rel(abs), what, line, excerpt(updated, line, countLines(newS))), summary)
}

// matchLines lists the line numbers where sub starts, at most max of them.
func matchLines(content, sub string, max int) string {
	var lines []string
	line, pos := 1, 0
	for len(lines) < max {
		i := strings.Index(content[pos:], sub)
		if i < 0 {
			break
		}
		line += strings.Count(content[pos:pos+i], "\n")
		lines = append(lines, fmt.Sprint(line))
		line += strings.Count(sub, "\n")
		pos += i + len(sub)
	}
	s := strings.Join(lines, ", ")
	if len(lines) == max {
		s += ", …"
	}
	return s
}

// excerptBudget bounds the excerpt an edit result shows.
const excerptBudget = 4 * 1024

// excerpt returns lines around an edit, numbered like read_file, so the
// model can check the result without another read.
func excerpt(content string, line, count int) string {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	from := max(line-3, 1)
	to := min(line+max(count, 1)+2, len(lines))
	if to-from > 30 {
		to = from + 30
	}
	var b strings.Builder
	for i := from; i <= to; i++ {
		if b.Len() > excerptBudget {
			fmt.Fprintf(&b, "[… excerpt cut; read_file with offset=%d to see more]\n", i)
			break
		}
		fmt.Fprintf(&b, "%6d\t%s\n", i, cutLine([]byte(strings.TrimSuffix(lines[i-1], "\r"))))
	}
	return strings.TrimSuffix(b.String(), "\n")
}
