//go:build !linux

package checkpoint

import "errors"

// watcher is not available here: every checkpoint walks the whole tree.
type watcher struct{}

func newWatcher() (*watcher, error)             { return nil, errors.New("no directory watching on this platform") }
func (w *watcher) add(rel, abs string) error    { return nil }
func (w *watcher) close()                       {}
func (w *watcher) drain(d *dirty) (bool, error) { return true, nil }

const watching = false
