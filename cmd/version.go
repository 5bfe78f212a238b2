package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Set at release build time:
//
//	-ldflags "-X github.com/llmrt/llmrt/cmd.version=1.2.3 -X github.com/llmrt/llmrt/cmd.commit=abc123 -X github.com/llmrt/llmrt/cmd.date=2026-11-24T12:00:00Z"
//
// A build without them (go build, go install) reads what the Go toolchain
// stamped into the binary instead.
var version, commit, date string

// buildInfo is what is known of this binary's build.
type buildInfo struct {
	Version, Commit, Date string
	Modified              bool // built from a work tree with changes
}

func readBuildInfo() buildInfo {
	b := buildInfo{Version: version, Commit: commit, Date: date}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return fill(b)
	}
	if b.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		b.Version = bi.Main.Version // go install module@version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if b.Commit == "" {
				b.Commit = s.Value
			}
		case "vcs.time":
			if b.Date == "" {
				b.Date = s.Value
			}
		case "vcs.modified":
			b.Modified = s.Value == "true" && commit == ""
		}
	}
	return fill(b)
}

func fill(b buildInfo) buildInfo {
	if b.Version == "" {
		b.Version = "dev"
	}
	if len(b.Commit) > 12 {
		b.Commit = b.Commit[:12]
	}
	return b
}

// Version is llmrt's version: the release's, or "dev" for a build from a
// work tree.
func Version() string { return readBuildInfo().Version }

// versionText is what `llmrt version` prints.
func versionText() string {
	b := readBuildInfo()
	var extra []string
	if b.Commit != "" {
		c := "commit " + b.Commit
		if b.Modified {
			c += " (modified)"
		}
		extra = append(extra, c)
	}
	if b.Date != "" {
		extra = append(extra, "built "+b.Date)
	}
	extra = append(extra, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
	return fmt.Sprintf("llmrt %s (%s)", b.Version, strings.Join(extra, ", "))
}
