package tools

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// ansiEscape matches terminal control sequences: CSI (colours, cursor
// moves), OSC (titles, hyperlinks) and two-byte escapes. They mean nothing
// to a model and each ESC costs six bytes once JSON-escaped.
var ansiEscape = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]`)

// cleanOutput makes command output readable as text: escape sequences
// removed, carriage returns (progress bars) turned into line breaks, other
// control characters dropped.
func cleanOutput(s string) string {
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = ansiEscape.ReplaceAllString(s, "")
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case r == '\n' || r == '\t':
			return r
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, s)
}

// shellToolResult is the tool result for res: its JSON within limit bytes,
// marked Failed whenever the command did not succeed, so a non-zero exit is
// reported to the model as data but never taken as evidence of work.
func shellToolResult(res shellResult, limit int) Result {
	r := Text(encodeShellResult(res, limit))
	r.Failed = res.TimedOut || res.ExitCode != 0 || res.Signal != ""
	return r
}

// encodeShellResult renders res as JSON of at most limit bytes. Escaping
// can make the JSON longer than the output it holds (quotes, backslashes),
// so more is cut from the middle of the output until it fits: the engine's
// own result cap would otherwise cut the JSON itself.
func encodeShellResult(res shellResult, limit int) string {
	for {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // keep < > & readable: compilers print them a lot
		if err := enc.Encode(res); err != nil {
			return `{"error":"encode result"}`
		}
		b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		if len(b) <= limit || res.Output == "" {
			return string(b)
		}
		keep := max(len(res.Output)-(len(b)-limit)-200, 0)
		res.Output = cutMiddle(res.Output, keep)
		res.Truncated = true
	}
}

// cutMiddle keeps about keep bytes of s, a third from the start and the
// rest from the end, on UTF-8 boundaries, with a marker between them.
func cutMiddle(s string, keep int) string {
	if len(s) <= keep {
		return s
	}
	head := runeBoundary(s, keep/3)
	tail := runeBoundary(s, len(s)-(keep-head))
	return s[:head] + "\n[… more output cut to fit the result …]\n" + s[tail:]
}

func runeBoundary(s string, i int) int {
	i = min(max(i, 0), len(s))
	for i > 0 && i < len(s) && !isRuneStart(s[i]) {
		i--
	}
	return i
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
