package engine

import (
	"context"

	"github.com/llmrt/llmrt/tools"
)

// ToolSource supplies tools from outside a request: the tools of MCP
// servers, the load_skill tool of a skill catalogue. A Runtime consults its
// sources before every model call, so a source whose tool list changes (an
// MCP server's list_changed notification) is seen by the next call; Tools
// should therefore return a cached list and be cheap.
//
// A source may also implement Diagnoser (problems to report, such as a
// server that failed to start), Instructor (text for the managed system
// prompt, such as a skill catalogue) and io.Closer (released by
// Runtime.Close).
type ToolSource interface {
	Tools(ctx context.Context) ([]tools.Tool, error)
}

// Diagnoser is implemented by tool sources that found problems which do not
// stop a run.
type Diagnoser interface {
	Diagnostics() []tools.Diagnostic
}

// Instructor is implemented by tool sources that add text to the managed
// system prompt of every model call.
type Instructor interface {
	Instructions() string
}
