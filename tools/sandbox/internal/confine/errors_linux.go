package confine

// opError is a failed step: what was done, to which path, and the
// kernel's answer. (This package does without fmt; see doc.go.)
type opError struct {
	op, path string
	err      error
}

func (e *opError) Error() string {
	msg := "sandbox: " + e.op
	if e.path != "" {
		msg += " " + e.path
	}
	return msg + ": " + e.err.Error()
}

func (e *opError) Unwrap() error { return e.err }

func fail(op, path string, err error) error { return &opError{op: op, path: path, err: err} }
