package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// DefaultMaxAge is how long a session's checkpoints are kept after its
// last one.
const DefaultMaxAge = 30 * 24 * time.Hour

// DefaultMaxSize bounds all sessions' checkpoints together.
const DefaultMaxSize = 2 << 30

// busyFor is how recently written a store is taken to be in use, by this
// process or another: a prune by size never removes it.
const busyFor = time.Hour

// prunedPrefix marks a store moved aside to be removed. The move is one
// rename, so a prune cut short never leaves half a store behind that
// looks whole: the next prune removes what it finds under this prefix.
const prunedPrefix = ".pruned-"

// Policy says which stores a prune removes.
type Policy struct {
	// MaxAge removes the stores whose latest checkpoint is older.
	// Zero keeps them however old.
	MaxAge time.Duration
	// MaxSize, in bytes, removes the least recently used stores until
	// the rest fit. Zero sets no bound.
	MaxSize int64
	// Keep names a store never removed: the session in use.
	Keep string
}

type storeInfo struct {
	name string
	used time.Time
	size int64
}

// Prune removes the stores under base (one directory per session) that
// p says go, and returns their names, oldest first. A store with no log
// is left alone: it may be one being written.
func Prune(base string, p Policy, now time.Time) ([]string, error) {
	entries, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: prune: %w", err)
	}
	var stores []storeInfo
	var total int64
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(base, e.Name())
		if strings.HasPrefix(e.Name(), prunedPrefix) {
			os.RemoveAll(dir)
			continue
		}
		info, err := os.Stat(filepath.Join(dir, "checkpoints.jsonl"))
		if err != nil {
			continue
		}
		st := storeInfo{name: e.Name(), used: info.ModTime()}
		if p.MaxSize > 0 {
			st.size = treeSize(dir)
			total += st.size
		}
		stores = append(stores, st)
	}
	sort.Slice(stores, func(i, j int) bool { return stores[i].used.Before(stores[j].used) })
	var removed []string
	for _, st := range stores {
		old := p.MaxAge > 0 && now.Sub(st.used) > p.MaxAge
		over := p.MaxSize > 0 && total > p.MaxSize && now.Sub(st.used) > busyFor
		if st.name == p.Keep || !old && !over {
			continue
		}
		aside := filepath.Join(base, prunedPrefix+st.name)
		if err := os.Rename(filepath.Join(base, st.name), aside); err != nil {
			return removed, fmt.Errorf("checkpoint: prune %s: %w", st.name, err)
		}
		if err := os.RemoveAll(aside); err != nil {
			return removed, fmt.Errorf("checkpoint: prune %s: %w", st.name, err)
		}
		total -= st.size
		removed = append(removed, st.name)
	}
	return removed, nil
}

// treeSize is the bytes of the files below dir.
func treeSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
