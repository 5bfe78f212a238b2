package ui

import (
	"fmt"
	"strings"
	"time"
)

// Ago says how long ago something happened, as people say it: just now,
// 5m ago, 3h ago, 4d ago.
func Ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}

// FileSize says how big a file is: 812 B, 4.2 KB, 1.3 MB.
func FileSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// ShortHome writes a path under home with ~.
func ShortHome(path, home string) string {
	if home != "" && home != "/" {
		if rest, ok := strings.CutPrefix(path, home); ok && (rest == "" || strings.HasPrefix(rest, "/")) {
			return "~" + rest
		}
	}
	return path
}
