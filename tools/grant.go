package tools

import "context"

// Granter adds allow rules (in the engine's rule syntax, e.g.
// "shell_cmd(command=git status *)") to the current run, for the rest of
// it. The engine installs one on every tool call's context, so a tool
// such as load_skill can let a loaded skill's tools run without asking.
// Deny rules still win over what it adds. It returns an error naming any
// rule it could not read; the others are added.
type Granter func(rules []string) error

type granterKey struct{}

// WithGranter returns a context carrying g.
func WithGranter(ctx context.Context, g Granter) context.Context {
	return context.WithValue(ctx, granterKey{}, g)
}

// GranterFrom returns the Granter installed by WithGranter, or nil.
func GranterFrom(ctx context.Context) Granter {
	g, _ := ctx.Value(granterKey{}).(Granter)
	return g
}
