// Package frontmatter reads the YAML header of a Markdown file, the
// "---" block skills, commands and agent definitions start with.
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"

	"go.yaml.in/yaml/v4"
)

// ErrNone is returned by Split for a file that does not begin with a
// "---" line.
var ErrNone = errors.New("no front matter: the file must begin with a line holding ---")

// Split returns the YAML between the opening and closing "---" lines
// (or "...") and the Markdown after them. A byte-order mark is ignored.
func Split(data []byte) (head, body []byte, err error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if string(bytes.TrimRight(first, " \t\r")) != "---" {
		return nil, data, ErrNone
	}
	offset := 0
	for offset <= len(rest) {
		line, _, found := bytes.Cut(rest[offset:], []byte("\n"))
		if t := string(bytes.TrimRight(line, " \t\r")); t == "---" || t == "..." {
			end := offset + len(line)
			if found {
				end++
			}
			return rest[:offset], rest[end:], nil
		}
		if !found {
			break
		}
		offset += len(line) + 1
	}
	return nil, nil, errors.New("front matter is not terminated: no closing --- line")
}

// Parse decodes the front matter of data into v and returns the body. A
// file without front matter is all body, and v is left as it is.
func Parse(data []byte, v any) (body []byte, err error) {
	head, body, err := Split(data)
	switch {
	case errors.Is(err, ErrNone):
		return body, nil
	case err != nil:
		return nil, err
	}
	if err := yaml.Unmarshal(head, v); err != nil {
		return nil, fmt.Errorf("front matter (YAML from line 2): %w", err)
	}
	return body, nil
}
