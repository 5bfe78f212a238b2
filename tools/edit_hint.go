package tools

import (
	"fmt"
	"regexp"
	"strings"
)

// lineNumberPrefix matches the "   12\t" prefix read_file puts before each
// line; models often paste it into old_string.
var lineNumberPrefix = regexp.MustCompile(`^\s*\d+\t`)

// notFoundMessage explains why old_string was not found and, when possible,
// where a near match is, so the model can retry with the exact text instead
// of guessing again.
func notFoundMessage(path, content, old string) string {
	msg := fmt.Sprintf("old_string was not found in %s; it must match the file exactly, including indentation and line breaks", path)
	oldLines := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	numbered := 0
	for _, l := range oldLines {
		if lineNumberPrefix.MatchString(l) {
			numbered++
		}
	}
	if numbered == len(oldLines) {
		return msg + ". old_string seems to include read_file's line-number prefixes (\"N<tab>\"); remove them and send only the file's text"
	}
	starts := fuzzyMatches(strings.Split(content, "\n"), oldLines, 3)
	if len(starts) == 0 {
		return msg + ". Read the file again (read_file) and copy the text to change exactly"
	}
	lines := strings.Split(content, "\n")
	first := starts[0]
	end := min(first+len(oldLines), len(lines), first+20)
	var b strings.Builder
	for i := first; i < end; i++ {
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, cutLine([]byte(strings.TrimSuffix(lines[i], "\r"))))
	}
	nums := make([]string, len(starts))
	for i, s := range starts {
		nums[i] = fmt.Sprint(s + 1)
	}
	return fmt.Sprintf("%s. A match that differs only in whitespace starts at line %s; the file has there:\n%sCopy that text exactly (spaces vs tabs, indentation, trailing spaces) into old_string",
		msg, strings.Join(nums, ", "), b.String())
}

// fuzzyMatches returns the 0-based lines where old matches content when
// runs of whitespace are treated as equal; the first line of old may end a
// content line and the last may begin one, as an exact match could.
func fuzzyMatches(content, old []string, limit int) []int {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	o := make([]string, len(old))
	for i, l := range old {
		o[i] = norm(l)
	}
	if len(o) == 1 && o[0] == "" {
		return nil
	}
	c := make([]string, len(content))
	for i, l := range content {
		c[i] = norm(l)
	}
	var out []int
	for i := 0; i+len(o) <= len(c) && len(out) < limit; i++ {
		if fuzzyAt(c[i:i+len(o)], o) {
			out = append(out, i)
		}
	}
	return out
}

func fuzzyAt(c, o []string) bool {
	k := len(o)
	if k == 1 {
		return strings.Contains(c[0], o[0])
	}
	if !strings.HasSuffix(c[0], o[0]) || !strings.HasPrefix(c[k-1], o[k-1]) {
		return false
	}
	for j := 1; j < k-1; j++ {
		if c[j] != o[j] {
			return false
		}
	}
	return true
}
