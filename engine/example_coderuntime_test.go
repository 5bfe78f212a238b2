package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"slices"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools/runcode"
)

// steps is a code runtime for a language of one step per line: a name,
// then its arguments as a JSON object. A tool's function is called and its
// result printed; a global of the host's is printed. A runtime embedding a
// real interpreter (Lua, JavaScript) has the same shape: it calls env's
// functions through Function.Call, shows env's globals, and reports the
// line where a program failed.
type steps struct{}

func (steps) Language() string { return "Steps" }

func (steps) Describe(env runcode.Env) string {
	var names []string
	for _, f := range env.Functions {
		names = append(names, f.Name)
	}
	return "Run a Steps program: one step per line, a function's name and its arguments as a JSON object; each result is printed. Functions: " +
		strings.Join(names, ", ")
}

func (steps) Run(ctx context.Context, code string, env runcode.Env) (runcode.Result, error) {
	var out strings.Builder
	lines := strings.Split(strings.TrimSpace(code), "\n")
	for n, line := range lines {
		name, args, _ := strings.Cut(line, " ")
		if v, ok := env.Globals[name]; ok {
			fmt.Fprintf(&out, "%s = %v\n", name, v)
			continue
		}
		i := slices.IndexFunc(env.Functions, func(f runcode.Function) bool { return f.Name == name })
		if i < 0 {
			return runcode.Result{Stdout: out.String(), Err: &runcode.Error{Line: n + 1, Msg: "no function " + name}}, nil
		}
		// The call goes through the run: validation, permissions, events.
		r := env.Functions[i].Call(ctx, json.RawMessage(args))
		fmt.Fprintf(&out, "%s: %s\n", name, r.Content)
	}
	return runcode.Result{Stdout: out.String(), Value: len(lines)}, nil
}

func Example_codeRuntime() {
	program := `price {"item":"apple"}
currency
order {"item":"apple"}`
	args, _ := json.Marshal(map[string]string{"code": program})
	sp := scripted.New()
	sp.Register("demo", &scripted.Script{Turns: []scripted.Turn{
		toolCall(engine.RunCodeTool, string(args)),
		toolCall("final_answer", `{"answer":"An apple costs 40 cents; ordering is not allowed."}`),
	}})
	// run_code runs Steps programs instead of Starlark, and every program
	// sees the host's global currency.
	rt, err := engine.New(engine.Config{
		Adapters: []engine.Provider{sp},
		Defaults: engine.Defaults{Model: "demo"},
		RunCode:  runcode.Options{Runtime: steps{}, Globals: map[string]any{"currency": "EUR"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer rt.Close()

	price, _ := engine.FuncTool("price", "Price of an item in cents.", engine.KindRead,
		func(ctx context.Context, in struct {
			Item string `json:"item"`
		}) (engine.ToolResult, error) {
			return engine.JSONResult(map[string]int{"cents": 40}), nil
		})
	order, _ := engine.FuncTool("order", "Order an item.", engine.KindExternalAction,
		func(ctx context.Context, in struct {
			Item string `json:"item"`
		}) (engine.ToolResult, error) {
			return engine.TextResult("ordered"), nil
		})
	res, err := rt.Complete(context.Background(), engine.Request{
		Messages: []engine.Message{engine.UserMessage("What does an apple cost? Order one.")},
		BuiltIns: []string{engine.RunCodeTool},
		Tools:    []engine.Tool{price, order},
		// A read-only run: the program's order is refused like the
		// model's own would be.
		Permission: engine.Permission{Mode: engine.ModeRead},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range res.Messages {
		if m.Role == engine.RoleTool && m.ToolName == engine.RunCodeTool {
			var out struct {
				Stdout string `json:"stdout"`
				Value  int    `json:"value"`
			}
			_ = json.Unmarshal([]byte(m.Text()), &out)
			fmt.Print(out.Stdout)
			fmt.Println("steps:", out.Value)
		}
	}
	fmt.Println(res.Status, res.Output)
	// Output:
	// price: {"cents":40}
	// currency = EUR
	// order: permission denied: this run is read-only, so order (which changes things) is not allowed; work with read tools or report what you would change
	// steps: 3
	// completed An apple costs 40 cents; ordering is not allowed.
}
