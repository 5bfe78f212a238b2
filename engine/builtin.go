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

// LoadSkillTool is the skills' tool. A skill catalogue among
// Config.Sources supplies it, but requests select it like a built-in (see
// Request.BuiltIns): it is offered when the runtime has skills and the
// selection is the default or names it.
const LoadSkillTool = "load_skill"

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
// functions and description come from the finished surface.
//
// run_code and spawn_agent are of kind read, not external actions:
// neither changes anything by itself. Every
// effect is a call (an inner call of a program, a call of a sub-run) that
// meets the run's deny rules, mode and person on its own and, when it
// succeeds, counts as the run's evidence on its own (Caller.CallTool,
// run.adopt). As mutating tools they would be refused outright under mode
// read, asked about in ask mode before any of their calls were, be
// evidence of work when they only read, and run one at a time, so two
// sub-runs of one reply could not overlap.
func (rt *Runtime) finishRunCode(ts *toolset) {
	i, ok := ts.index[RunCodeTool]
	if !ok {
		return
	}
	surface := slices.DeleteFunc(slices.Clone(ts.list), func(t tools.Tool) bool {
		return t.Source == tools.SourceControl || t.Name == RunCodeTool
	})
	t := runcode.Tool(surface, rt.cfg.RunCode)
	ts.list[i] = t
	ts.specs[i] = t.Spec()
}
