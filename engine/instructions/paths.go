package instructions

import (
	"os"
	"path/filepath"
)

// candidates returns the instruction files to read, in order: the user
// file, then one per directory from the git root down to the working
// directory (AGENTS.md, or CLAUDE.md where there is no AGENTS.md).
func candidates(o Options) []string {
	var out []string
	config := o.ConfigHome
	if config == "" && o.Home != "" {
		config = filepath.Join(o.Home, ".config")
	}
	if config != "" {
		out = append(out, filepath.Join(config, "llmrt", AgentsFile))
	}
	if o.WorkDir == "" {
		return out
	}
	dir, err := filepath.Abs(o.WorkDir)
	if err != nil {
		return out
	}
	for _, d := range projectDirs(dir) {
		if p := filepath.Join(d, AgentsFile); exists(p) {
			out = append(out, p)
		} else if p := filepath.Join(d, ClaudeFile); exists(p) {
			out = append(out, p)
		}
	}
	return out
}

// projectDirs returns the directories from the git root above dir down to
// dir, outermost first; just dir when it is in no git repository.
func projectDirs(dir string) []string {
	var chain []string
	for d := dir; ; {
		chain = append(chain, d)
		if exists(filepath.Join(d, ".git")) {
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			return []string{dir} // no git root: the working directory only
		}
		d = parent
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
