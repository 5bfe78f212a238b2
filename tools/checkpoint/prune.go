package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// DefaultMaxAge is how long a session's checkpoints are kept after its
// last one.
const DefaultMaxAge = 30 * 24 * time.Hour

// Prune removes the stores under base (one directory per session) whose
// latest checkpoint is older than maxAge at now, and returns their
// names. A store with no log is left alone: it may be one being
// written.
func Prune(base string, maxAge time.Duration, now time.Time) ([]string, error) {
	entries, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: prune: %w", err)
	}
	var removed []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(base, e.Name())
		info, err := os.Stat(filepath.Join(dir, "checkpoints.jsonl"))
		if err != nil || now.Sub(info.ModTime()) <= maxAge {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			return removed, fmt.Errorf("checkpoint: prune %s: %w", e.Name(), err)
		}
		removed = append(removed, e.Name())
	}
	return removed, nil
}
