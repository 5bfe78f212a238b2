package cmd

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/llmrt/llmrt/ui"
)

// printTable writes rows under a header, columns two spaces apart, and cuts
// the last column so each line fits width: the listings read well on an
// 80-column terminal. Use --json for the full text.
func printTable(w io.Writer, width int, header []string, rows [][]string) error {
	w = ui.NewTextWriter(w) // names and descriptions from servers and files
	n := len(header)
	cols := make([]int, n)
	for _, r := range append([][]string{header}, rows...) {
		for i := 0; i < n-1; i++ {
			cols[i] = max(cols[i], utf8.RuneCountInString(r[i]))
		}
	}
	used := 0
	for i := 0; i < n-1; i++ {
		used += cols[i] + 2
	}
	last := max(width-used, 12)
	var b strings.Builder
	for _, r := range append([][]string{header}, rows...) {
		b.Reset()
		for i := 0; i < n-1; i++ {
			b.WriteString(r[i])
			b.WriteString(strings.Repeat(" ", cols[i]-utf8.RuneCountInString(r[i])+2))
		}
		b.WriteString(oneLine(r[n-1], last))
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
	}
	return nil
}

// oneLine flattens s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
