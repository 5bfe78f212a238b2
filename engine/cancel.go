package engine

import "context"

// CancelError is the one error of a person who stopped a run at one of
// its prompts (a question, a permission request) instead of answering.
// The prompt returns it, and it travels unchanged to the end of the run:
// an Asker returns it from Ask, which ends the run cancelled; an Approver
// answers with the Cancel decision. A host that cancels the run's context
// with it as the cause (context.WithCancelCause) can say afterwards where
// the run was stopped.
//
// It matches ErrCancelled and context.Canceled with errors.Is, so code
// that handles a cancelled run or context handles it too.
type CancelError struct {
	// At is the prompt the person stopped at, as messages name it: "a
	// question", "the permission prompt".
	At string
}

// Error says where the run was cancelled.
func (e *CancelError) Error() string { return "cancelled at " + e.At }

// Is reports whether target is ErrCancelled or context.Canceled.
func (e *CancelError) Is(target error) bool {
	return target == ErrCancelled || target == context.Canceled
}
