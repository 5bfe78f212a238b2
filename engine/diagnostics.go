package engine

import (
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/tools"
)

// DiagnosticLevel is how serious a Diagnostic is.
type DiagnosticLevel = tools.DiagnosticLevel

// Diagnostic levels. An error-level diagnostic says something the run
// was given is missing (a tool source that did not start); the run goes
// on without it unless it is strict.
const (
	DiagnosticWarning = tools.DiagnosticWarning
	DiagnosticError   = tools.DiagnosticError
)

// Kinds of the diagnostics the engine reports (Diagnostic.Kind). A
// diagnostic that comes without a kind gets the kind of where it came
// from: DiagRequest for the host's, DiagSource for a source's.
const (
	DiagRequest       = "request"        // the host's own, from Request.Diagnostics
	DiagSourceStart   = "source_start"   // a tool source did not start (an error)
	DiagSourceList    = "source_list"    // a tool source could not list its tools (an error)
	DiagSource        = "source"         // a tool source's own problem (a skill that does not parse)
	DiagToolLeftOut   = "tool_left_out"  // a source's tool is not offered: its name is taken, its schema broken
	DiagRule          = "rule"           // a permission rule that can never apply
	DiagContextWindow = "context_window" // the model's context window is a guess
)

// normalized returns ds with the level and kind their finders left empty
// filled in: a warning of kind kind. ds itself is not changed.
func normalized(ds []Diagnostic, kind string) []Diagnostic {
	var out []Diagnostic
	for i, d := range ds {
		if d.Level != "" && d.Kind != "" {
			continue
		}
		if out == nil {
			out = append([]Diagnostic(nil), ds...)
		}
		out[i].Level = cmpOr(d.Level, DiagnosticWarning)
		out[i].Kind = cmpOr(d.Kind, kind)
	}
	if out == nil {
		return ds
	}
	return out
}

// DiagnosticsError is why a strict run did not start (Request.Strict): the
// diagnostics found preparing it, each promoted to DiagnosticError. It is
// the Err of the invalid_request *RunError that Complete, Generate and
// Stream's failed event carry; find it with errors.As.
type DiagnosticsError struct {
	Diagnostics []Diagnostic
}

// Error lists the diagnostics, each with where it is.
func (e *DiagnosticsError) Error() string {
	parts := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		parts[i] = d.Message
		if d.Source != "" {
			parts[i] = d.Source + ": " + d.Message
		}
	}
	noun := "diagnostics"
	if len(parts) == 1 {
		noun = "diagnostic"
	}
	return fmt.Sprintf("%d %s: %s", len(parts), noun, strings.Join(parts, "; "))
}

// strictError refuses a strict run with diagnostics; nil when there are
// none.
func strictError(ds []Diagnostic) error {
	if len(ds) == 0 {
		return nil
	}
	promoted := make([]Diagnostic, len(ds))
	for i, d := range ds {
		d.Level = DiagnosticError
		promoted[i] = d
	}
	de := &DiagnosticsError{Diagnostics: promoted}
	return &RunError{Code: CodeInvalidRequest, Message: "strict run refused: " + de.Error(), Err: de}
}

// prepared returns the diagnostics of a run before its first model call:
// the request's own, then the surface's, each once.
func prepared(req *Request, ts *toolset) []Diagnostic {
	var out []Diagnostic
	seen := make(map[Diagnostic]bool)
	for _, d := range append(normalized(req.Diagnostics, DiagRequest), ts.diags...) {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// Reporter hears the warnings of every run of a Runtime as they happen
// (Config.Reporter), for a host that has no event consumer, such as one
// calling Complete: the provider's, retries, refused calls, and the
// diagnostics shown as warnings (code WarningDiagnostic). runID names the
// run; it is empty for Generate, which has none. Warn is called from the
// run's goroutines, one warning at a time per run; it must not block for
// long.
type Reporter interface {
	Warn(runID string, w Warning)
}

// ReporterFunc is a function that is a Reporter.
type ReporterFunc func(runID string, w Warning)

// Warn calls f.
func (f ReporterFunc) Warn(runID string, w Warning) { f(runID, w) }
