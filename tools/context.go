package tools

import "context"

type workspaceKey struct{}

// WithWorkspace returns a context carrying the run's workspace. The engine
// installs it for every tool call, so tools that are not built per run (a
// skill loader, an MCP tool) can still reach the run's workspace, for
// example to make a loaded skill's files readable.
func WithWorkspace(ctx context.Context, ws *Workspace) context.Context {
	return context.WithValue(ctx, workspaceKey{}, ws)
}

// WorkspaceFrom returns the workspace installed by WithWorkspace, or nil.
func WorkspaceFrom(ctx context.Context) *Workspace {
	ws, _ := ctx.Value(workspaceKey{}).(*Workspace)
	return ws
}
