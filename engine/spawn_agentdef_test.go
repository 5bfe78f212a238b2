package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

func agentCall(agent, task string, tools ...string) scripted.Call {
	args := map[string]any{"task": task, "agent": agent}
	if tools != nil {
		args["tools"] = tools
	}
	b, _ := json.Marshal(args)
	return scripted.Call{Name: engine.SpawnAgentTool, Arguments: b}
}

// requestsFor returns the recorded model calls whose first user message
// is task: the calls of the run that was given task.
func requestsFor(rec *recorder, task string) []providers.Request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []providers.Request
	for _, req := range rec.reqs {
		for _, m := range req.Messages {
			if m.Role == providers.RoleUser {
				if m.Text() == task {
					out = append(out, req)
				}
				break
			}
		}
	}
	return out
}

func toolNames(specs []providers.ToolSpec) []string {
	var out []string
	for _, s := range specs {
		out = append(out, s.Name)
	}
	return out
}

func agentRuntime(t *testing.T, rec *recorder, agents []engine.AgentDef) *engine.Runtime {
	t.Helper()
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": rec}, Agents: agents})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return rt
}

var testAgents = []engine.AgentDef{
	{Name: "tester", Description: "Runs the tests and reports failures", Instructions: "You are the tester. Only read.",
		Tools: []string{"read_file", "search_files", "write_file"}},
	{Name: "planner", Description: "Plans a change", Instructions: "You plan."},
}

// TestSpawnAgentOffersTheAgents: spawn_agent's schema names the defined
// agents as an enum and its description lists each with its description.
func TestSpawnAgentOffersTheAgents(t *testing.T) {
	rec := &recorder{p: routed{"parent": script(answer("done"))}}
	rt := agentRuntime(t, rec, testAgents)
	if _, err := rt.Complete(context.Background(), spawnRequest(t, "parent")); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(rec.request(0).Tools, func(s providers.ToolSpec) bool { return s.Name == engine.SpawnAgentTool })
	if i < 0 {
		t.Fatal("spawn_agent is not offered")
	}
	spec := rec.request(0).Tools[i]
	var schema struct {
		Properties map[string]struct {
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(spec.Parameters, &schema); err != nil {
		t.Fatal(err)
	}
	if got := schema.Properties["agent"].Enum; !slices.Equal(got, []string{"tester", "planner"}) {
		t.Errorf("agent enum %q, want [tester planner]", got)
	}
	for _, want := range []string{"tester: Runs the tests and reports failures", "planner: Plans a change"} {
		if !strings.Contains(spec.Description, want) {
			t.Errorf("spawn_agent's description does not list %q:\n%s", want, spec.Description)
		}
	}
}

// TestSpawnAgentWithoutAgentsKeepsItsSchema: with no agents defined the
// tool has no agent argument, and a call naming one is refused.
func TestSpawnAgentWithoutAgents(t *testing.T) {
	rec := &recorder{p: routed{"parent": script(calls(agentCall("tester", "child")), answer("done"))}}
	rt := agentRuntime(t, rec, nil)
	res, err := rt.Complete(context.Background(), spawnRequest(t, "parent"))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(rec.request(0).Tools, func(s providers.ToolSpec) bool { return s.Name == engine.SpawnAgentTool })
	if strings.Contains(string(rec.request(0).Tools[i].Parameters), `"agent"`) {
		t.Errorf("spawn_agent has an agent argument with no agents defined: %s", rec.request(0).Tools[i].Parameters)
	}
	if got := toolResultFor(res.Messages, engine.SpawnAgentTool); !strings.Contains(got, "agent") {
		t.Errorf("a call naming an agent when none is defined got %q, want a refusal", got)
	}
}

// TestSpawnAgentRunsTheAgent: the sub-run of an agent gets the agent's
// instructions as its system text (not the parent's), and only the
// agent's tools that the parent may use: write_file, which the parent
// lacks, is not added.
func TestSpawnAgentRunsTheAgent(t *testing.T) {
	rec := &recorder{p: routed{
		"parent":     script(calls(agentCall("tester", "child task")), answer("parent done")),
		"child task": script(answer("tests pass")),
	}}
	rt := agentRuntime(t, rec, testAgents)
	req := spawnRequest(t, "parent")
	req.BuiltIns = []string{"read_file", "list_files", "search_files", engine.SpawnAgentTool}
	req.Messages = append([]engine.Message{engine.SystemMessage("PARENT SYSTEM TEXT")}, req.Messages...)
	res, err := rt.Complete(context.Background(), req)
	if err != nil || res.Status != engine.StatusCompleted {
		t.Fatal(err, res.Status, res.Error)
	}
	if got := toolResultFor(res.Messages, engine.SpawnAgentTool); got != "tests pass" {
		t.Errorf("the parent got %q from the sub-run, want its answer", got)
	}
	child := requestsFor(rec, "child task")
	if len(child) != 1 {
		t.Fatalf("%d model calls for the sub-run, want 1", len(child))
	}
	system := child[0].Messages[0].Text()
	if !strings.Contains(system, "You are the tester. Only read.") || strings.Contains(system, "PARENT SYSTEM TEXT") {
		t.Errorf("the sub-run's system text should be the agent's, not the parent's:\n%s", system)
	}
	got := toolNames(child[0].Tools)
	for _, want := range []string{"read_file", "search_files"} {
		if !slices.Contains(got, want) {
			t.Errorf("the sub-run lacks %s: %q", want, got)
		}
	}
	for _, not := range []string{"write_file", "list_files", engine.SpawnAgentTool} {
		if slices.Contains(got, not) {
			t.Errorf("the sub-run was offered %s, which the agent or the parent does not have: %q", not, got)
		}
	}
}

// TestSpawnAgentUnknownAgent: a name that is not defined is a tool error
// naming the defined ones.
func TestSpawnAgentUnknownAgent(t *testing.T) {
	rec := &recorder{p: routed{"parent": script(calls(agentCall("nobody", "child")), answer("done"))}}
	rt := agentRuntime(t, rec, testAgents)
	res, err := rt.Complete(context.Background(), spawnRequest(t, "parent"))
	if err != nil {
		t.Fatal(err)
	}
	got := toolResultFor(res.Messages, engine.SpawnAgentTool)
	for _, want := range []string{"nobody", "tester", "planner"} {
		if !strings.Contains(got, want) {
			t.Errorf("the result %q should name %q", got, want)
		}
	}
	if len(requestsFor(rec, "child")) != 0 {
		t.Error("a sub-run started for an unknown agent")
	}
}

// TestSpawnAgentModelAndProvider: an agent's model replaces the parent's,
// and an agent naming a provider the runtime was not given gets it from
// Config.OpenProvider; one the host cannot build is a tool error.
func TestSpawnAgentModelAndProvider(t *testing.T) {
	vendor2 := scripted.New()
	vendor2.Register("agent-model", &scripted.Script{Turns: []scripted.Turn{answer("from the other vendor")}})
	other := &recorder{p: routed{"child task": vendor2}}
	main := &recorder{p: routed{"parent": script(calls(agentCall("coder", "child task"), agentCall("broken", "never")), answer("done"))}}
	var mu sync.Mutex
	var asked []string
	rt, err := engine.New(engine.Config{
		Providers: map[string]providers.Provider{"fake": main},
		Agents: []engine.AgentDef{
			{Name: "coder", Description: "codes", Provider: "vendor2", Model: "agent-model"},
			{Name: "broken", Description: "cannot start", Provider: "nowhere", Model: "m"},
		},
		OpenProvider: func(name string) (providers.Provider, error) {
			mu.Lock()
			asked = append(asked, name)
			mu.Unlock()
			if name == "vendor2" {
				return other, nil
			}
			return nil, errors.New("no key for nowhere")
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	req := spawnRequest(t, "parent")
	res, err := rt.Complete(context.Background(), req)
	if err != nil || res.Status != engine.StatusCompleted {
		t.Fatal(err, res.Status, res.Error)
	}
	var results []string
	for _, m := range res.Messages {
		if m.Role == providers.RoleTool && m.ToolName == engine.SpawnAgentTool {
			results = append(results, m.Text())
		}
	}
	if len(results) != 2 || results[0] != "from the other vendor" || !strings.Contains(results[1], "no key for nowhere") {
		t.Errorf("results %q, want the other vendor's answer and the host's refusal", results)
	}
	if c := other.calls(); c != 1 || other.request(0).Model != "agent-model" {
		t.Errorf("the other vendor got %d calls (model %q), want 1 with the agent's model", c, other.request(0).Model)
	}
	if !slices.Contains(asked, "vendor2") || !slices.Contains(asked, "nowhere") {
		t.Errorf("OpenProvider was asked for %q", asked)
	}
}

// TestAgentDefsAreChecked: an agent without a name or description, or a
// name given twice, is a configuration error.
func TestAgentDefsAreChecked(t *testing.T) {
	cases := map[string][]engine.AgentDef{
		"has no name":    {{Description: "x"}},
		"no description": {{Name: "a"}},
		"twice":          {{Name: "a", Description: "x"}, {Name: "a", Description: "y"}},
	}
	for want, defs := range cases {
		_, err := engine.New(engine.Config{Agents: defs})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: got %v, want an error saying %q", defs, err, want)
		}
	}
}

// TestSpawnAgentNarrowsSourceTools: an agent's tool list also limits the
// runtime's sources' tools (MCP servers): one it does not name is not
// offered to its sub-run, while a plain sub-run still gets them.
func TestSpawnAgentNarrowsSourceTools(t *testing.T) {
	mcpTool := func(name string) tools.Tool {
		return tools.Tool{Name: name, Description: name, Schema: json.RawMessage(`{"type":"object"}`), Kind: tools.KindRead,
			Execute: func(context.Context, json.RawMessage) (tools.Result, error) { return tools.Text("ok"), nil }}
	}
	src := &fakeSource{list: []tools.Tool{mcpTool("mcp__gh__issue"), mcpTool("mcp__gh__push")}}
	rec := &recorder{p: routed{
		"parent":     script(calls(agentCall("triager", "agent task"), spawnCall("plain task")), answer("done")),
		"agent task": script(answer("a")),
		"plain task": script(answer("b")),
	}}
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": rec}, Sources: []engine.ToolSource{src},
		Agents: []engine.AgentDef{{Name: "triager", Description: "triages issues", Tools: []string{"read_file", "mcp__gh__issue"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if res, err := rt.Complete(context.Background(), spawnRequest(t, "parent")); err != nil || res.Status != engine.StatusCompleted {
		t.Fatal(err, res.Status, res.Error)
	}
	agent := toolNames(requestsFor(rec, "agent task")[0].Tools)
	if !slices.Contains(agent, "mcp__gh__issue") || slices.Contains(agent, "mcp__gh__push") || !slices.Contains(agent, "read_file") {
		t.Errorf("the agent's sub-run was offered %q, want read_file and mcp__gh__issue but not mcp__gh__push", agent)
	}
	if plain := toolNames(requestsFor(rec, "plain task")[0].Tools); !slices.Contains(plain, "mcp__gh__push") {
		t.Errorf("a plain sub-run lost the sources' tools: %q", plain)
	}
}
