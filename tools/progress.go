package tools

import "context"

// Progress is a report from a running tool; the engine sends it on as a
// tool_progress event.
type Progress struct {
	Message  string  `json:"message,omitempty"`
	Progress float64 `json:"progress,omitempty"`
	Total    float64 `json:"total,omitempty"`
}

type progressKey struct{}

// WithProgress returns a context whose tools report progress to fn. The
// engine installs one per call; fn must be safe for concurrent use.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// ReportProgress sends p to the progress function of ctx, if any.
func ReportProgress(ctx context.Context, p Progress) {
	if fn, ok := ctx.Value(progressKey{}).(func(Progress)); ok && fn != nil {
		fn(p)
	}
}
