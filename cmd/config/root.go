package config

import (
	"os"
	"path/filepath"
)

// ProjectDirs returns the directories whose .claude/ and .llmrt/ folders
// hold a project's skills, commands, agents and hooks when llmrt runs in
// dir: dir and its parents up to the repository root (the nearest holding
// .git), root first, dir last, so a nearer folder's file wins. Outside a
// repository, or where the walk would pass home, it is dir alone.
func ProjectDirs(dir, home string) []string {
	dir = filepath.Clean(dir)
	home = filepath.Clean(home)
	chain := []string{dir}
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(d)
		if parent == d || d == home || (home != "." && parent == home) {
			return []string{dir} // no repository below home: the directory alone
		}
		d = parent
		chain = append(chain, d)
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}

// ProjectRoot is the first of ProjectDirs: the repository root dir is in,
// or dir itself.
func ProjectRoot(dir, home string) string { return ProjectDirs(dir, home)[0] }
