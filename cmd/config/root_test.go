package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestProjectDirs(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(home, "src", "repo")
	sub := filepath.Join(repo, "pkg", "deep")
	loose := filepath.Join(home, "notes", "a")
	for _, d := range []string{filepath.Join(repo, ".git"), sub, loose} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{sub, []string{repo, filepath.Join(repo, "pkg"), sub}},
		{repo, []string{repo}},
		{loose, []string{loose}}, // no repository: the directory alone
		{home, []string{home}},
	} {
		if got := ProjectDirs(tc.dir, home); !slices.Equal(got, tc.want) {
			t.Errorf("ProjectDirs(%s) = %v, want %v", tc.dir, got, tc.want)
		}
	}
	if got := ProjectRoot(sub, home); got != repo {
		t.Errorf("ProjectRoot = %s, want %s", got, repo)
	}
}
