package checkpoint

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/llmrt/llmrt/tools"
)

// DefaultMaxFileSize is the largest file a snapshot stores by default.
const DefaultMaxFileSize = 8 << 20

// Options configure a Store.
type Options struct {
	// Dir is the store's own directory, created on the first snapshot.
	Dir string
	// Root is the workspace the snapshots are of. Empty takes it from
	// the store's records (as rewind does).
	Root string
	// MaxFileSize is the largest file stored; larger ones are listed but
	// never restored. Zero means DefaultMaxFileSize.
	MaxFileSize int64
}

// Entry is one path of a snapshot.
type Entry struct {
	Size  int64       `json:"size,omitempty"`
	MTime int64       `json:"mtime,omitempty"` // Unix nanoseconds
	Inode uint64      `json:"inode,omitempty"`
	Mode  fs.FileMode `json:"mode"`
	// Hash is the content's sha256 (a symlink's: its target's text);
	// empty for directories and files too big to keep.
	Hash string `json:"hash,omitempty"`
	// Link is a symlink's target.
	Link string `json:"link,omitempty"`
	// Big marks a file over the size limit: not stored, not restored.
	Big bool `json:"big,omitempty"`
}

// sameStat reports whether e and o look like the same version of a file
// without reading it.
func (e Entry) sameStat(o Entry) bool {
	return e.Size == o.Size && e.MTime == o.MTime && e.Inode == o.Inode && e.Mode == o.Mode
}

// sameContent reports whether e and o hold the same thing: type, mode
// and content.
func (e Entry) sameContent(o Entry) bool {
	return e.Mode == o.Mode && e.Hash == o.Hash && e.Link == o.Link && e.Big == o.Big &&
		(!e.Big || e.sameStat(o))
}

// Manifest is a snapshot: every path the walk saw, relative to the root
// with forward slashes.
type Manifest map[string]Entry

// Checkpoint is one snapshot as the store's log records it.
type Checkpoint struct {
	Seq  int       `json:"seq"`
	Time time.Time `json:"time"`
	// Turn is the conversation's turn (from 1) the snapshot belongs to.
	Turn int `json:"turn"`
	// Phase says when it was taken: before a change, after one, or after
	// a restore.
	Phase string `json:"phase"`
	// Tool is the call about to run or just run.
	Tool     string `json:"tool,omitempty"`
	Root     string `json:"root"`
	Manifest string `json:"manifest"` // the manifest's hash
}

// Phases of a checkpoint.
const (
	PhaseBefore  = "before"
	PhaseAfter   = "after"
	PhaseRestore = "restore"
)

// Store is one session's checkpoints. It is safe for concurrent use;
// snapshots are taken one at a time.
type Store struct {
	opts Options

	mu     sync.Mutex
	loaded bool
	log    []Checkpoint
	last   Manifest // the latest checkpoint's manifest
	// depth is how many deltas the latest manifest is stored as, on top
	// of a whole one (see writeManifest).
	depth int

	// w reports what changed since the latest checkpoint; nil until the
	// first walk, and for good once watching failed (noWatch).
	w       *watcher
	noWatch bool
	// walks counts walks of the whole tree, for tests.
	walks int
}

// Open returns the store in o.Dir. Nothing is read or written until it
// is used.
func Open(o Options) *Store {
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	return &Store{opts: o}
}

// Root returns the workspace the store's snapshots are of.
func (s *Store) Root() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.load()
	return s.opts.Root
}

// List returns the checkpoints taken, oldest first.
func (s *Store) List() ([]Checkpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return nil, err
	}
	return append([]Checkpoint(nil), s.log...), nil
}

// Take snapshots the workspace as checkpoint turn/phase/tool.
func (s *Store) Take(ctx context.Context, turn int, phase, tool string) (Checkpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return Checkpoint{}, err
	}
	return s.take(ctx, turn, phase, tool)
}

func (s *Store) take(ctx context.Context, turn int, phase, tool string) (Checkpoint, error) {
	if s.opts.Root == "" {
		return Checkpoint{}, errors.New("checkpoint: no workspace root")
	}
	m, touched, ok, err := s.refresh(ctx, true)
	if errors.Is(err, errWatch) {
		s.stopWatching()
		ok, err = false, nil
	}
	if err != nil {
		return Checkpoint{}, err
	}
	changed := ok && s.changedPaths(m, touched)
	if !ok {
		touched = nil
		if m, changed, err = s.scan(ctx, true, !s.noWatch); err != nil {
			return Checkpoint{}, err
		}
	}
	cp := Checkpoint{Seq: len(s.log) + 1, Time: time.Now().UTC(), Turn: turn, Phase: phase, Tool: tool, Root: s.opts.Root}
	depth := s.depth
	if !changed && len(s.log) > 0 {
		cp.Manifest = s.log[len(s.log)-1].Manifest
	} else if cp.Manifest, depth, err = s.writeManifest(m, touched); err != nil {
		return Checkpoint{}, err
	}
	if err := s.appendLog(cp); err != nil {
		return Checkpoint{}, err
	}
	s.log, s.last, s.depth = append(s.log, cp), m, depth
	return cp, nil
}

// Close stops watching the workspace. The store can still be used; its
// next checkpoint walks the tree.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w.close()
	s.w = nil
	return nil
}

func (s *Store) stopWatching() {
	s.w.close()
	s.w, s.noWatch = nil, true
}

// scan walks the workspace, reusing the latest manifest's hashes for
// files whose stat is unchanged. With store set the content of new
// versions is kept as blobs. changed says whether the result differs
// from the latest manifest. With watch set the walk also watches every
// directory it enters, each before listing it, so the next checkpoint
// need only look at what the watcher reports.
//
// The walk only lists; the entries' stat and any hashing run in as many
// goroutines as there are CPUs, since a checkpoint's cost is one system
// call per file and those wait on the kernel, not on each other.
func (s *Store) scan(ctx context.Context, store, watch bool) (Manifest, bool, error) {
	ws, err := tools.NewWorkspace(s.opts.Root)
	if err != nil {
		return nil, false, fmt.Errorf("checkpoint: %w", err)
	}
	root := ws.Root()
	s.walks++
	var w *watcher
	if watch && watching {
		s.w.close()
		s.w = nil
		if w, err = newWatcher(); err == nil {
			if err = w.add("", root); err != nil {
				w.close()
				w = nil
			}
		}
		if w == nil {
			s.noWatch = true
		}
	}
	var seen []found
	err = ws.Walk(ctx, root, tools.WalkOptions{Hidden: true}, func(rel string, d fs.DirEntry) error {
		if w != nil && d.IsDir() {
			if err := w.add(rel, filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				// Out of watches: walk the whole tree every time.
				w.close()
				w, s.noWatch = nil, true
			}
		}
		seen = append(seen, found{rel: rel, d: d})
		return nil
	})
	if err != nil {
		w.close()
		return nil, false, err
	}
	s.w = w
	workers := min(runtime.GOMAXPROCS(0), len(seen)/256+1)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(seen) || ctx.Err() != nil {
					return
				}
				if err := s.entry(root, &seen[i], store); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		s.w.close()
		s.w = nil
		return nil, false, err
	}
	if err := ctx.Err(); err != nil {
		s.w.close()
		s.w = nil
		return nil, false, err
	}
	m := make(Manifest, len(seen))
	changed := false
	for _, f := range seen {
		if !f.ok {
			continue
		}
		if prev, had := s.last[f.rel]; !had || !prev.sameContent(f.e) || !prev.sameStat(f.e) {
			changed = true
		}
		m[f.rel] = f.e
	}
	if len(m) != len(s.last) {
		changed = true
	}
	return m, changed, nil
}

// found is one entry of a walk and, once looked at, its manifest entry
// (ok false: not part of the snapshot).
type found struct {
	rel string
	d   fs.DirEntry
	e   Entry
	ok  bool
}

// entry fills in f's manifest entry.
func (s *Store) entry(root string, f *found, store bool) error {
	info, err := f.d.Info()
	if err != nil {
		return nil // gone since the listing: not part of the snapshot
	}
	e := Entry{Mode: info.Mode()}
	if !info.IsDir() {
		e.Size, e.MTime, e.Inode = info.Size(), info.ModTime().UnixNano(), inode(info)
	}
	prev, had := s.last[f.rel]
	switch {
	case info.IsDir():
	case had && prev.sameStat(e):
		e = prev
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(filepath.Join(root, filepath.FromSlash(f.rel)))
		if err != nil {
			return nil
		}
		e.Link = target
	case !info.Mode().IsRegular():
		return nil // sockets, pipes, devices: nothing to keep
	case info.Size() > s.opts.MaxFileSize:
		e.Big = true
	default:
		if e.Hash, err = s.hashFile(filepath.Join(root, filepath.FromSlash(f.rel)), store); err != nil {
			return fmt.Errorf("checkpoint: %s: %w", f.rel, err)
		}
	}
	f.e, f.ok = e, true
	return nil
}

// hashFile returns the sha256 of the file at abs, keeping its content as
// a blob when store is set and the store lacks it.
func (s *Store) hashFile(abs string, store bool) (string, error) {
	data, err := os.ReadFile(abs)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	if store {
		if err := s.putBlob(h, data); err != nil {
			return "", err
		}
	}
	return h, nil
}

func (s *Store) blobPath(h string) string {
	return filepath.Join(s.opts.Dir, "blobs", h[:2], h)
}

// putBlob keeps data under its hash unless it is already there.
func (s *Store) putBlob(h string, data []byte) error {
	p := s.blobPath(h)
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	return writeAtomic(p, data, 0o600)
}

func (s *Store) blob(h string) ([]byte, error) {
	data, err := os.ReadFile(s.blobPath(h))
	if err != nil {
		return nil, fmt.Errorf("checkpoint: stored content %s: %w", h[:12], err)
	}
	return data, nil
}

func (s *Store) logPath() string { return filepath.Join(s.opts.Dir, "checkpoints.jsonl") }

func (s *Store) appendLog(cp Checkpoint) error {
	if err := os.MkdirAll(s.opts.Dir, 0o700); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	f, err := os.OpenFile(s.logPath(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	line, _ := json.Marshal(cp)
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// load reads the log and the latest manifest once, so a store opened in
// a later process (a resumed session, rewind) continues where the last
// left off.
func (s *Store) load() error {
	if s.loaded {
		return nil
	}
	f, err := os.Open(s.logPath())
	if errors.Is(err, fs.ErrNotExist) {
		s.loaded = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	defer f.Close()
	var log []Checkpoint
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 && err == nil {
			var cp Checkpoint
			if json.Unmarshal(line, &cp) == nil {
				log = append(log, cp)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
	}
	if len(log) > 0 {
		m, depth, err := s.manifestDepth(log[len(log)-1].Manifest, 0)
		if err != nil {
			return err
		}
		s.last, s.depth = m, depth
		if s.opts.Root == "" {
			s.opts.Root = log[len(log)-1].Root
		}
	}
	s.log, s.loaded = log, true
	return nil
}

// writeAtomic writes data to p through a temporary file in the same
// directory and a rename, so p never holds half of it.
func writeAtomic(p string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".llmrt-restore-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, mode)
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
