package tools

import (
	"context"
	"encoding/json"
)

// Caller runs one call of another tool of the current run on behalf of a
// running tool (run_code's programs), through the same argument
// validation, permission checks and events as a call from the model. The
// engine installs one on every tool call's context.
type Caller func(ctx context.Context, name string, args json.RawMessage) Result

type callerKey struct{}

// WithCaller returns a context carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the Caller installed by WithCaller, or nil.
func CallerFrom(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}
