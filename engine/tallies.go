package engine

import (
	"sync"

	"github.com/llmrt/llmrt/tools"
)

// tallies is what a run has used, proved and run into: token usage,
// evidence of work, warnings and diagnostics, each warning and diagnostic
// once. The loop adds to it, and so do running tools from their own
// goroutines (inner calls of run_code, sub-runs, approvals), hence mu.
// The zero value is ready to use; nothing holds mu while emitting.
type tallies struct {
	mu    sync.Mutex
	usage Usage
	// evidence reports a successful mutating tool result in this run,
	// verified any successful tool result.
	evidence bool
	verified bool
	// hostActed reports a successful result of one of the request's host
	// actions (hostActions) in this run, or one refused by the permission
	// policy or a person.
	hostActed bool
	warnings  []Warning
	seenWarn  map[Warning]bool
	diags     []Diagnostic
	seenDiag  map[Diagnostic]bool
}

// addUsage counts a model call's usage and returns the run's total.
func (t *tallies) addUsage(u Usage) Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.usage = t.usage.Add(u)
	return t.usage
}

// used is the run's usage so far.
func (t *tallies) used() Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.usage
}

// prove records a successful result of a tool of kind k: any result is
// verification, a mutating one is evidence of work, and one of a host
// action (hostAction) is what the evidence rule of host actions asks for.
func (t *tallies) prove(k tools.Kind, hostAction bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.verified = true
	if k.Mutating() {
		t.evidence = true
	}
	t.hostActed = t.hostActed || hostAction
}

// settleActions records that one of the request's host actions was
// refused by the permission policy or a person, which settles the
// evidence rule of host actions as a success would.
func (t *tallies) settleActions() {
	t.mu.Lock()
	t.hostActed = true
	t.mu.Unlock()
}

// acted reports whether one of the request's host actions succeeded in
// this run, or was refused by the permission policy or a person.
func (t *tallies) acted() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.hostActed
}

// proof reports whether the run holds evidence of work and any verified
// result.
func (t *tallies) proof() (evidence, verified bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.evidence, t.verified
}

// unverify forgets verified results: a person's answer asks for new ones.
func (t *tallies) unverify() {
	t.mu.Lock()
	t.verified = false
	t.mu.Unlock()
}

// adopt adds what a finished sub-run used and proved.
func (t *tallies) adopt(child *tallies) {
	child.mu.Lock()
	usage, evidence, verified, acted := child.usage, child.evidence, child.verified, child.hostActed
	child.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.usage = t.usage.Add(usage)
	t.evidence = t.evidence || evidence
	t.verified = t.verified || verified
	t.hostActed = t.hostActed || acted
}

// addWarning records a warning once and reports whether it was new.
func (t *tallies) addWarning(w Warning) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.seenWarn[w] {
		return false
	}
	if t.seenWarn == nil {
		t.seenWarn = make(map[Warning]bool)
	}
	t.seenWarn[w] = true
	t.warnings = append(t.warnings, w)
	return true
}

// addDiagnostics records diagnostics once each and returns the new ones.
func (t *tallies) addDiagnostics(ds []Diagnostic) []Diagnostic {
	t.mu.Lock()
	defer t.mu.Unlock()
	var fresh []Diagnostic
	for _, d := range ds {
		if t.seenDiag[d] {
			continue
		}
		if t.seenDiag == nil {
			t.seenDiag = make(map[Diagnostic]bool)
		}
		t.seenDiag[d] = true
		t.diags = append(t.diags, d)
		fresh = append(fresh, d)
	}
	return fresh
}

// report is what a Result carries of the tallies.
func (t *tallies) report() (Usage, []Warning, []Diagnostic) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.usage, t.warnings, t.diags
}
