package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/scripted"
)

// These examples show the ways a host takes part in a run: typed tools,
// questions for a person (paused or answered inline), approvals, tool
// sources, programs the model writes, and calls made outside the loop.
// Like those in example_test.go they run on the scripted provider.

// askDatabase is an ask_user_input call with one question.
const askDatabase = `{"questions":[{"header":"Database","id":"db",
	"question":"Which database should the service use?",
	"options":[{"id":"pg","label":"PostgreSQL"},{"id":"sqlite","label":"SQLite"}]}]}`

// weatherArgs are the arguments of the weather tool of the examples.
type weatherArgs struct {
	City string `json:"city" jsonschema:"the city, in English"`
	Days int    `json:"days,omitempty" jsonschema:"how many days ahead; 0 is today"`
}

func ExampleFuncTool() {
	rt := demoRuntime(
		toolCall("weather", `{"days":1}`), // no city: the run refuses the call
		toolCall("weather", `{"city":"Oslo","days":1}`),
		toolCall("final_answer", `{"answer":"Snow in Oslo tomorrow."}`),
	)
	defer rt.Close()

	// The schema comes from weatherArgs; the function gets the decoded
	// arguments of calls that match it.
	weather, err := engine.FuncTool("weather", "Weather forecast for a city.", engine.KindRead,
		func(ctx context.Context, in weatherArgs) (engine.ToolResult, error) {
			return engine.JSONResult(map[string]any{"city": in.City, "days": in.Days, "sky": "snow"}), nil
		})
	if err != nil {
		log.Fatal(err) // weatherArgs has no JSON Schema
	}
	fmt.Println(string(weather.Schema))

	res, err := rt.Complete(context.Background(), engine.Request{
		Messages: []engine.Message{engine.UserMessage("Will it snow in Oslo tomorrow?")},
		BuiltIns: []string{},
		Tools:    []engine.Tool{weather},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range res.Messages {
		if m.Role == engine.RoleTool && m.ToolName == "weather" {
			fmt.Println(m.IsError, m.Text())
		}
	}
	fmt.Println(res.Status, res.Output)
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","description":"the city, in English"},"days":{"type":"integer","description":"how many days ahead; 0 is today"}},"required":["city"],"additionalProperties":false}
	// true arguments do not match the weather schema: required: missing properties: ["city"]
	// false {"city":"Oslo","days":1,"sky":"snow"}
	// completed Snow in Oslo tomorrow.
}

func Example_pauseAndResume() {
	rt := demoRuntime(
		toolCall(engine.AskUserTool, askDatabase),
		toolCall("final_answer", `{"answer":"Configured for PostgreSQL."}`),
	)
	defer rt.Close()

	// With no Asker, a question pauses the run: the host can put it to a
	// person now, or store res.Messages and resume in another process.
	req := engine.Request{
		Messages: []engine.Message{engine.UserMessage("Set up the service's database.")},
		BuiltIns: []string{engine.AskUserTool},
	}
	ctx := context.Background()
	res, err := rt.Complete(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status)

	req.Messages = res.Messages
	for _, call := range res.PendingCalls {
		var in engine.AskInput // validated by the run before it paused
		if err := json.Unmarshal([]byte(call.Arguments), &in); err != nil {
			log.Fatal(err)
		}
		fmt.Println("asking:", in.Questions[0].Question)
		// Resolve checks a person's choice against the questions and
		// builds the result the model reads.
		answer, err := in.Resolve(engine.Answer{Selected: map[string][]string{"db": {"pg"}}})
		if err != nil {
			log.Fatal(err) // not an answer to these questions: ask again
		}
		fmt.Println("answer:", answer.Content())
		req.Messages = append(req.Messages, engine.ToolResultMessage(call, answer.Content(), false))
	}
	res, err = rt.Complete(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, res.Output)
	// Output:
	// tool_calls
	// asking: Which database should the service use?
	// answer: {"answers":{"db":"pg"},"skipped":false,"other":{}}
	// completed Configured for PostgreSQL.
}

func ExampleAsker() {
	rt := demoRuntime(
		toolCall(engine.AskUserTool, askDatabase),
		toolCall("final_answer", `{"answer":"Configured for SQLite."}`),
	)
	defer rt.Close()

	// An Asker answers questions inline: the run does not pause. A
	// terminal host would prompt here; an error from Ask cancels the run.
	asker := engine.AskerFunc(func(ctx context.Context, q engine.Question) (engine.Answer, error) {
		fmt.Println("asking:", q.Input.Questions[0].Question)
		return engine.Answer{Selected: map[string][]string{"db": {"sqlite"}}}, nil
	})
	res, err := rt.Complete(context.Background(), engine.Request{
		Messages: []engine.Message{engine.UserMessage("Set up the service's database.")},
		BuiltIns: []string{engine.AskUserTool},
		Asker:    asker,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, res.Output)
	// Output:
	// asking: Which database should the service use?
	// completed Configured for SQLite.
}

func ExampleApprover() {
	rt := demoRuntime(
		toolCall("delete_branch", `{"name":"feature-x"}`),
		toolCall("delete_branch", `{"name":"main"}`),
		toolCall("final_answer", `{"answer":"Deleted feature-x; main is protected."}`),
	)
	defer rt.Close()

	type branch struct {
		Name string `json:"name"`
	}
	deleteBranch, err := engine.FuncTool("delete_branch", "Delete a git branch.", engine.KindWrite,
		func(ctx context.Context, in branch) (engine.ToolResult, error) {
			return engine.TextResult("deleted " + in.Name), nil
		})
	if err != nil {
		log.Fatal(err)
	}
	// In ask mode every call that changes something and no rule settles
	// goes to the Approver; a denial's reason reaches the model.
	approver := engine.ApproverFunc(func(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error) {
		fmt.Println("approve?", req.Tool, req.Arguments)
		if strings.Contains(req.Arguments, `"main"`) {
			return engine.Decision{Action: engine.Deny, Reason: "main is protected"}, nil
		}
		return engine.Decision{Action: engine.AllowOnce}, nil
	})
	res, err := rt.Complete(context.Background(), engine.Request{
		Messages:   []engine.Message{engine.UserMessage("Delete the merged branches.")},
		BuiltIns:   []string{},
		Tools:      []engine.Tool{deleteBranch},
		Permission: engine.Permission{Mode: engine.ModeAsk, Approver: approver},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range res.Messages {
		if m.Role == engine.RoleTool && m.ToolName == "delete_branch" {
			fmt.Println(m.Text())
		}
	}
	fmt.Println(res.Status, res.Output)
	// Output:
	// approve? delete_branch {"name":"feature-x"}
	// approve? delete_branch {"name":"main"}
	// deleted feature-x
	// permission denied: the user declined this call; their reason: main is protected. Do not retry it unchanged.
	// completed Deleted feature-x; main is protected.
}

// orders is a ToolSource: a Runtime offers its tools to every run and asks
// for them again before each model call, so the list may change between
// calls. Instructions (an Instructor) join the system prompt.
type orders struct{ list []engine.Tool }

func (o *orders) Tools(ctx context.Context) ([]engine.Tool, error) { return o.list, nil }

func (o *orders) Instructions() string {
	return "Order numbers look like A-17; look them up rather than guessing."
}

func ExampleToolSource() {
	type order struct {
		ID string `json:"id" jsonschema:"the order number"`
	}
	lookup, err := engine.FuncTool("lookup_order", "Look up an order.", engine.KindRead,
		func(ctx context.Context, in order) (engine.ToolResult, error) {
			return engine.TextResult(in.ID + ": shipped"), nil
		})
	if err != nil {
		log.Fatal(err)
	}
	lookup.Source = "orders" // what `llmrt tools` and ResolveTools show
	sp := scripted.New()
	sp.Register("demo", &scripted.Script{Turns: []scripted.Turn{
		toolCall("lookup_order", `{"id":"A-17"}`),
		toolCall("final_answer", `{"answer":"A-17 has shipped."}`),
	}})
	rt, err := engine.New(engine.Config{
		Adapters: []engine.Provider{sp},
		Defaults: engine.Defaults{Model: "demo"},
		Sources:  []engine.ToolSource{&orders{list: []engine.Tool{lookup}}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer rt.Close() // closes the sources that are io.Closers

	req := engine.Request{
		Messages: []engine.Message{engine.UserMessage("Where is order A-17?")},
		BuiltIns: []string{},
	}
	ctx := context.Background()
	surface, err := rt.ResolveTools(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range surface {
		fmt.Println(t.Name, t.Source, t.Kind)
	}
	res, err := rt.Complete(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, res.Output)
	// Output:
	// lookup_order orders read
	// final_answer control none
	// blocked control none
	// completed A-17 has shipped.
}

func Example_runCode() {
	// The model writes one Starlark program that calls the run's other
	// tools as functions, instead of one model call per tool call.
	program := `
total = 0
for item in ["apple", "pear", "plum"]:
    p = price(item=item)
    total += p["cents"]
print("total:", total)
`
	args, _ := json.Marshal(map[string]string{"code": program})
	rt := demoRuntime(
		toolCall(engine.RunCodeTool, string(args)),
		toolCall("final_answer", `{"answer":"The basket costs 1.35."}`),
	)
	defer rt.Close()

	cents := map[string]int{"apple": 40, "pear": 55, "plum": 40}
	price, err := engine.FuncTool("price", "Price of an item in cents.", engine.KindRead,
		func(ctx context.Context, in struct {
			Item string `json:"item"`
		}) (engine.ToolResult, error) {
			return engine.JSONResult(map[string]int{"cents": cents[in.Item]}), nil
		})
	if err != nil {
		log.Fatal(err)
	}
	// Inner calls take the path of the model's own: validation,
	// permissions and events, marked with the run_code call as parent.
	inner := 0
	res, err := rt.CompleteWith(context.Background(), engine.Request{
		Messages: []engine.Message{engine.UserMessage("What does a basket of an apple, a pear and a plum cost?")},
		BuiltIns: []string{engine.RunCodeTool},
		Tools:    []engine.Tool{price},
	}, func(ev engine.Event) {
		if ev.Type == engine.EventToolResult && ev.Call.ParentID != "" {
			inner++
		}
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range res.Messages {
		if m.Role == engine.RoleTool && m.ToolName == engine.RunCodeTool {
			fmt.Println(m.Text()) // the program's output, as JSON
		}
	}
	fmt.Println("inner calls:", inner)
	fmt.Println(res.Status, res.Output)
	// Output:
	// {"stdout":"total: 135\n","stderr":"","return_code":0}
	// inner calls: 3
	// completed The basket costs 1.35.
}

func ExampleRuntime_ExecuteToolCall() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	rt := demoRuntime()
	defer rt.Close()

	// A host with a loop of its own runs the model's calls one by one,
	// with the same validation and permission policy as a run, and sends
	// the outcomes back itself (engine.ToolResultMessage).
	req := engine.Request{
		WorkDir:    dir,
		BuiltIns:   engine.AllBuiltIns(),
		Permission: engine.Permission{Mode: engine.ModeRead}, // nothing may change
	}
	ctx := context.Background()
	for _, call := range []engine.ToolCall{
		{ID: "call_1", Name: "read_file", Arguments: `{"path":"notes.txt"}`},
		{ID: "call_2", Name: "read_file", Arguments: `{"file":"notes.txt"}`},
		{ID: "call_3", Name: "write_file", Arguments: `{"path":"notes.txt","content":"sell milk\n"}`},
	} {
		out := rt.ExecuteToolCall(ctx, call, req)
		fmt.Printf("%s %s error=%v code=%q\n", call.ID, call.Name, out.IsError, out.Code)
		if !out.IsError {
			fmt.Printf("%q\n", out.Content)
		}
	}
	// Output:
	// call_1 read_file error=false code=""
	// "     1\tbuy milk\n[lines 1-1 of 1]"
	// call_2 read_file error=true code="invalid_arguments"
	// call_3 write_file error=true code="permission_denied"
}
