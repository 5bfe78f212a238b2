package engine

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Environment is where a run works, told to the model as one short part
// of the managed system prompt (Request.Environment), as Claude Code and
// Codex tell theirs: the date, the system, the shell commands run in,
// the working directory and its git state. A host computes it once per
// session (DetectEnvironment) and gives the same value to every run of
// it, so the prompt's prefix stays byte for byte the same and providers'
// prompt caches keep working; a new day does not change it mid-session.
type Environment struct {
	// Date is the day, as YYYY-MM-DD.
	Date string `json:"date,omitempty"`
	// OS and Arch are the operating system and architecture (GOOS,
	// GOARCH spelling: linux/amd64, darwin/arm64).
	OS   string `json:"os,omitempty"`
	Arch string `json:"arch,omitempty"`
	// Shell is the shell shell_cmd runs command lines with (bash, which
	// the permission rules read lines as).
	Shell string `json:"shell,omitempty"`
	// WorkDir is the working directory, absolute.
	WorkDir string `json:"work_dir,omitempty"`
	// Git says the working directory is inside a git repository; Branch
	// is its checked-out branch ("" when HEAD is detached or unknown).
	Git    bool   `json:"git,omitempty"`
	Branch string `json:"branch,omitempty"`
}

// DetectEnvironment describes a run working in dir at time now. It reads
// files only (the git state from .git, without running git), so it costs
// a few stats; a directory it cannot read is simply not a repository.
func DetectEnvironment(dir string, now time.Time) Environment {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	e := Environment{Date: now.Format("2006-01-02"), OS: runtime.GOOS, Arch: runtime.GOARCH, Shell: "bash", WorkDir: dir}
	e.Git, e.Branch = gitHead(dir)
	return e
}

// gitHead finds the git repository holding dir and its branch. .git is
// a directory, or in a worktree or submodule a file naming the git
// directory.
func gitHead(dir string) (bool, string) {
	for d := dir; ; {
		dotGit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotGit); err == nil {
			gitDir := dotGit
			if !fi.IsDir() {
				b, err := os.ReadFile(dotGit)
				if err != nil {
					return true, ""
				}
				p, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
				if !ok {
					return true, ""
				}
				gitDir = strings.TrimSpace(p)
				if !filepath.IsAbs(gitDir) {
					gitDir = filepath.Join(d, gitDir)
				}
			}
			head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
			if err != nil {
				return true, ""
			}
			ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: refs/heads/")
			if !ok {
				return true, "" // detached
			}
			return true, ref
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false, ""
		}
		d = parent
	}
}

// prompt is the environment's part of the managed system prompt.
func (e *Environment) prompt() string {
	var b strings.Builder
	b.WriteString("## Environment\n")
	line := func(k, v string) {
		if v != "" {
			b.WriteString("- " + k + ": " + v + "\n")
		}
	}
	line("Date", e.Date)
	if e.OS != "" {
		line("System", strings.TrimSuffix(e.OS+"/"+e.Arch, "/"))
	}
	line("Shell", e.Shell)
	line("Working directory", e.WorkDir)
	switch {
	case e.Git && e.Branch != "":
		line("Git", "a repository, on branch "+e.Branch)
	case e.Git:
		line("Git", "a repository, HEAD detached")
	case e.WorkDir != "":
		line("Git", "not a repository")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
