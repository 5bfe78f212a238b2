package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
)

// maxDepth bounds how many deltas a manifest is stored as before a
// whole one is written again, so reading one back reads at most that
// many blobs.
const maxDepth = 32

// stored is a manifest as the store keeps it: the paths that differ from
// the manifest Base (Set, Del), or with no Base every path. A session's
// store so grows by what each change touched, not by the size of the
// tree.
type stored struct {
	V     int      `json:"v"`
	Base  string   `json:"base,omitempty"`
	Depth int      `json:"depth,omitempty"`
	Set   Manifest `json:"set,omitempty"`
	Del   []string `json:"del,omitempty"`
}

// writeManifest stores m, as a delta from the latest manifest when there
// is one and the chain is short enough, and returns its hash and depth.
// touched, when not nil, holds every path that may differ from the
// latest manifest; nil means any may.
func (s *Store) writeManifest(m Manifest, touched map[string]bool) (string, int, error) {
	st := stored{V: 2, Set: m}
	if len(s.log) > 0 && s.last != nil && s.depth < maxDepth {
		st = stored{V: 2, Base: s.log[len(s.log)-1].Manifest, Depth: s.depth + 1, Set: Manifest{}}
		if touched == nil {
			touched = map[string]bool{}
			for k := range m {
				touched[k] = true
			}
			for k := range s.last {
				touched[k] = true
			}
		}
		for k := range touched {
			e, inM := m[k]
			o, inLast := s.last[k]
			switch {
			case inM && (!inLast || o != e):
				st.Set[k] = e
			case !inM && inLast:
				st.Del = append(st.Del, k)
			}
		}
		sort.Strings(st.Del)
	}
	data, err := json.Marshal(st)
	if err != nil {
		return "", 0, err
	}
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	return h, st.Depth, s.putBlob(h, data)
}

// manifest reads back the manifest stored under h.
func (s *Store) manifest(h string) (Manifest, error) {
	m, _, err := s.manifestDepth(h, 0)
	return m, err
}

func (s *Store) manifestDepth(h string, hops int) (Manifest, int, error) {
	if hops > maxDepth {
		return nil, 0, fmt.Errorf("checkpoint: manifest %s: more than %d deltas deep", h[:12], maxDepth)
	}
	data, err := s.blob(h)
	if err != nil {
		return nil, 0, err
	}
	var st stored
	if err := json.Unmarshal(data, &st); err != nil || st.V != 2 {
		// A manifest written whole, before deltas.
		var m Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, 0, fmt.Errorf("checkpoint: manifest %s: %w", h[:12], err)
		}
		return m, 0, nil
	}
	if st.Set == nil {
		st.Set = Manifest{}
	}
	if st.Base == "" {
		return st.Set, 0, nil
	}
	m, _, err := s.manifestDepth(st.Base, hops+1)
	if err != nil {
		return nil, 0, err
	}
	for _, k := range st.Del {
		delete(m, k)
	}
	for k, e := range st.Set {
		m[k] = e
	}
	return m, st.Depth, nil
}
