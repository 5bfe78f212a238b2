package engine

import (
	"slices"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/runcode"
)

// The built-ins the engine provides itself, beside package tools' ones,
// because they need the run: run_code calls the run's other tools, and
// spawn_agent starts a sub-run.
const (
	RunCodeTool    = runcode.Name
	SpawnAgentTool = "spawn_agent"
)

// engineBuiltins are the engine's own built-ins as they enter selection.
// run_code is a placeholder until the surface it calls is known
// (finishRunCode).
func (rt *Runtime) engineBuiltins() []tools.Tool {
	return []tools.Tool{
		{Name: RunCodeTool, Kind: tools.KindRead, Source: tools.SourceBuiltin},
		rt.spawnTool(),
	}
}

// finishRunCode replaces run_code's placeholder with the real tool, whose
// functions and description come from the finished surface. run_code
// itself only computes: every effect goes through an inner call that is
// checked like a direct one, so it counts as a read.
func (rt *Runtime) finishRunCode(ts *toolset) {
	i, ok := ts.index[RunCodeTool]
	if !ok {
		return
	}
	surface := slices.DeleteFunc(slices.Clone(ts.list), func(t tools.Tool) bool {
		return t.Source == tools.SourceControl || t.Name == RunCodeTool
	})
	t := runcode.Tool(surface, rt.cfg.RunCode)
	t.Kind = tools.KindRead
	ts.list[i] = t
	ts.specs[i] = t.Spec()
}
