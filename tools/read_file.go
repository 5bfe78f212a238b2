package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"syscall"
	"unicode/utf8"
)

const (
	defaultReadLimit = 2000
	maxLineChars     = 2000
	// readBudget keeps read_file output under the engine's default result
	// cap, so the model gets an exact offset to continue from instead of a
	// blunt cut.
	readBudget = 30 * 1024
	sniffSize  = 8 * 1024
)

const readFileSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File path, relative to the working directory"},
    "offset": {"type": "integer", "minimum": 1, "description": "First line to return, 1-based (default 1)"},
    "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of lines to return (default 2000)"}
  },
  "required": ["path"],
  "additionalProperties": false
}`

func readFileTool(ws *Workspace) Tool {
	return Tool{
		Name:        "read_file",
		Description: "Read a text file. Returns numbered lines (cat -n style), the total line count, and whether the output was truncated; use offset and limit to page through large files.",
		Schema:      json.RawMessage(readFileSchema),
		Kind:        KindRead,
		Source:      SourceBuiltin,
		Execute: func(ctx context.Context, raw json.RawMessage) (Result, error) {
			var args struct {
				Path   string `json:"path"`
				Offset int    `json:"offset"`
				Limit  int    `json:"limit"`
			}
			if r := decodeArgs(raw, &args); r != nil {
				return *r, nil
			}
			return readFile(ws, args.Path, args.Offset, args.Limit), nil
		},
	}
}

func readFile(ws *Workspace, path string, offset, limit int) Result {
	abs, err := ws.Resolve(path)
	if err != nil {
		return Errorf("%v", err)
	}
	if info, err := os.Stat(abs); err == nil {
		if why := notRegular(path, info); why != "" {
			return Errorf("%s", why)
		}
	}
	f, err := ws.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return Errorf("no such file: %s", path)
	}
	if err != nil {
		return Errorf("open %s: %v", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Errorf("stat %s: %v", path, err)
	}
	if info.IsDir() {
		return Errorf("%s is a directory; use list_files to see what it holds", path)
	}
	if why := notRegular(path, info); why != "" {
		return Errorf("%s", why)
	}
	br := bufio.NewReaderSize(f, 64*1024)
	head, _ := br.Peek(sniffSize)
	kind := sniffText(head)
	switch {
	case kind == kindBinary:
		return Errorf("refused: %s is a binary file (%s, %d bytes); read_file only reads text", path, http.DetectContentType(head), info.Size())
	case kind != kindUTF8:
		br = bufio.NewReaderSize(decodeReader(br, kind), 64*1024)
	case bytes.HasPrefix(head, utf8BOM):
		br.Discard(len(utf8BOM))
	}
	ws.noteRead(abs, info)
	if offset <= 0 {
		offset = 1
	}
	if limit <= 0 {
		limit = defaultReadLimit
	}
	var out strings.Builder
	lineNo, last := 0, 0
	budgetHit := false
	for {
		line, err := readLine(br)
		if err == io.EOF {
			break
		}
		if err != nil {
			return Errorf("read %s: %v", path, err)
		}
		lineNo++
		if lineNo < offset || lineNo >= offset+limit || budgetHit {
			continue
		}
		if out.Len() > readBudget {
			budgetHit = true
			continue
		}
		fmt.Fprintf(&out, "%6d\t%s\n", lineNo, cutLine(line))
		last = lineNo
	}
	summary := plural(lineNo, "line")
	if offset > 1 || last < lineNo {
		summary = fmt.Sprintf("lines %d-%d of %d", offset, last, lineNo)
	}
	switch {
	case lineNo == 0:
		return Summed(fmt.Sprintf("[%s is empty]", path), "empty")
	case offset > lineNo:
		return Errorf("offset %d is past the end of %s (%d lines)", offset, path, lineNo)
	case last < lineNo:
		fmt.Fprintf(&out, "[lines %d-%d of %d; truncated: call read_file with offset=%d to read on]", offset, last, lineNo, last+1)
	default:
		fmt.Fprintf(&out, "[lines %d-%d of %d]", offset, last, lineNo)
	}
	if kind != kindUTF8 {
		fmt.Fprintf(&out, "\n[note: %s is %s text, shown decoded; edit_file keeps its encoding, write_file writes UTF-8]", path, kind)
	}
	if n := hardLinks(info); n > 1 {
		fmt.Fprintf(&out, "\n[note: %s has %d hard links, so it is also reachable under another name, maybe outside the workspace; write_file and edit_file refuse it]", path, n)
	}
	if kind != kindUTF8 {
		summary += ", " + kind.String()
	}
	return Summed(out.String(), summary)
}

// readLine returns the next line without its terminator, however long it
// is; io.EOF once no bytes are left.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		long := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = br.ReadSlice('\n')
			if len(long) < 4*maxLineChars {
				long = append(long, line...)
			}
		}
		line = long
	}
	if err == io.EOF && len(line) > 0 {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), nil
}

// cutLine shortens over-long lines on a rune boundary.
func cutLine(line []byte) string {
	if len(line) <= maxLineChars {
		return string(line)
	}
	cut := maxLineChars
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… [line cut at %d bytes]", line[:cut], maxLineChars)
}

// utf8BOM is UTF-8's byte-order mark, which read_file does not show.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}
