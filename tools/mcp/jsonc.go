package mcp

import "bytes"

// StripJSONC turns JSON with comments into JSON, as VS Code reads its
// mcp.json: // and /* */ comments become spaces, and a comma before a
// closing bracket or brace is dropped. Strings are copied as they are, so
// a URL's // stays. Newlines are kept, so a decoder's error offsets still
// point at the right line. An unterminated comment or string is left for
// the decoder to report.
func StripJSONC(data []byte) []byte {
	if !bytes.Contains(data, []byte("/")) && !bytes.Contains(data, []byte(",")) {
		return data
	}
	out := make([]byte, 0, len(data))
	pendingComma := -1 // index in out of a comma that may be trailing
	var last byte      // the last byte copied that is not space or comment
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			pendingComma = -1
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(data) {
				return append(out, data[i:]...)
			}
			out = append(out, data[i:j+1]...)
			i, last = j, '"'
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				out = append(out, ' ')
				i++
			}
			i-- // the newline, if any, is copied next
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return append(out, data[i:]...)
			}
			for _, b := range data[i : i+2+end+2] {
				if b == '\n' {
					out = append(out, '\n')
				} else {
					out = append(out, ' ')
				}
			}
			i += 2 + end + 1
		case c == ',':
			// Only a comma after a value can be trailing; "{," stays an
			// error for the decoder.
			pendingComma = -1
			if last != '{' && last != '[' && last != ',' && last != 0 {
				pendingComma = len(out)
			}
			out, last = append(out, c), c
		case c == '}' || c == ']':
			if pendingComma >= 0 {
				out[pendingComma] = ' '
				pendingComma = -1
			}
			out, last = append(out, c), c
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			out = append(out, c)
		default:
			pendingComma = -1
			out, last = append(out, c), c
		}
	}
	return out
}
