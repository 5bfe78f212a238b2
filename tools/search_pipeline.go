package tools

import (
	"context"
	"io/fs"
	"sync"
)

// searchJob is one file to scan; seq is its position in walk order.
type searchJob struct {
	seq      int
	rel, abs string
}

type searchDone struct {
	seq  int
	rel  string
	hits []hit
}

// grep scans the files below s.start in parallel. One goroutine walks (in
// lexical order, honouring .gitignore) and numbers the files; s.workers
// goroutines scan them; this goroutine puts the results back in walk order,
// so the output is deterministic, and cancels the rest once the first
// s.max+1 matching lines in that order are known.
func (s *search) grep(ctx context.Context, out *searchOutput) error {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Closed once every worker has returned: the results loop below ends
	// only then.
	b := openBeneath(s.start)
	defer b.close()
	jobs := make(chan searchJob, 4*s.workers)
	results := make(chan searchDone, 4*s.workers)
	var walkErr error
	// The walker closes jobs when the walk ends or is cancelled.
	go func() {
		defer close(jobs)
		seq := 0
		walkErr = s.ws.walk(sctx, s.start, WalkOptions{Hidden: s.hidden, listers: s.workers, beneath: b}, func(rel, abs string, d fs.DirEntry) error {
			if !d.Type().IsRegular() || !s.matches(rel) {
				return nil
			}
			select {
			case jobs <- searchJob{seq: seq, rel: rel, abs: abs}:
				seq++
				return nil
			case <-sctx.Done():
				return ErrStopWalk
			}
		})
	}()
	var wg sync.WaitGroup
	for range s.workers {
		// Each worker ends when jobs is closed; after cancellation it
		// drains jobs without scanning.
		wg.Go(func() {
			sc := &scanner{m: s.m, b: b}
			for j := range jobs {
				var hits []hit
				if sctx.Err() == nil {
					hits = sc.scanFile(j.abs, s.max+1)
				}
				results <- searchDone{seq: j.seq, rel: j.rel, hits: hits}
			}
		})
	}
	// results is closed once every worker has returned.
	go func() {
		wg.Wait()
		close(results)
	}()
	pending := make(map[int]searchDone)
	next := 0
	for r := range results {
		if out.stopped {
			continue // drain so the workers can finish
		}
		pending[r.seq] = r
		for {
			d, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			out.files++
			out.add(d.rel, d.hits, s.max)
			if out.stopped {
				cancel()
				break
			}
		}
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case out.stopped:
		return nil // the walk saw our own cancellation
	}
	return walkErr
}

// list collects the paths of files matching the glob, counting all of them
// but keeping only the first s.max.
func (s *search) list(ctx context.Context, out *searchOutput) error {
	return s.ws.Walk(ctx, s.start, WalkOptions{Hidden: s.hidden, listers: s.workers}, func(rel string, d fs.DirEntry) error {
		if !d.Type().IsRegular() || !s.matches(rel) {
			return nil
		}
		out.total++
		if len(out.paths) < s.max {
			out.paths = append(out.paths, rel)
		}
		return nil
	})
}
