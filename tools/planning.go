package tools

import "context"

type planningKey struct{}

// WithPlanning marks a context as one of a run in plan mode: the run
// plans and changes nothing, so a tool that starts processes confines
// them read-only whatever its own sandbox setting says.
func WithPlanning(ctx context.Context) context.Context {
	return context.WithValue(ctx, planningKey{}, true)
}

// Planning reports whether ctx belongs to a run in plan mode
// (WithPlanning).
func Planning(ctx context.Context) bool {
	p, _ := ctx.Value(planningKey{}).(bool)
	return p
}
