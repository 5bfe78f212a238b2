package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/scripted"
)

// The examples run against the scripted provider, which replays the model
// turns given to it, so their output is fixed. A real program builds an
// adapter instead, e.g. openai.New(openai.Config{APIKey: key}), and names
// a real model.

// demoRuntime returns a Runtime whose only provider plays turns as the
// model "demo".
func demoRuntime(turns ...scripted.Turn) *engine.Runtime {
	sp := scripted.New()
	sp.Register("demo", &scripted.Script{Turns: turns})
	rt, err := engine.New(engine.Config{
		Adapters: []engine.Provider{sp},
		Defaults: engine.Defaults{Model: "demo"},
	})
	if err != nil {
		log.Fatal(err)
	}
	return rt
}

// toolCall is a scripted model turn calling one tool.
func toolCall(name, args string) scripted.Turn {
	return scripted.Turn{ToolCalls: []scripted.Call{{Name: name, Arguments: json.RawMessage(args)}}}
}

func ExampleRuntime_Complete() {
	rt := demoRuntime(toolCall("final_answer", `{"answer":"There are 3 TODOs."}`))
	defer rt.Close()

	res, err := rt.Complete(context.Background(), engine.Request{
		Messages: []engine.Message{engine.UserMessage("How many TODOs are in this directory?")},
	})
	if err != nil {
		log.Fatal(err) // misuse: no provider or model, an unknown tool name, ...
	}
	if err := res.Err(); err != nil {
		log.Fatal(err) // the run failed: errors.Is(err, engine.ErrMaxIterations), ...
	}
	fmt.Println(res.Status)
	fmt.Println(res.Output)
	// Output:
	// completed
	// There are 3 TODOs.
}

func ExampleRuntime_Stream() {
	rt := demoRuntime(scripted.Turn{Text: "Streaming, one word at a time."})
	defer rt.Close()

	req := engine.Request{
		Messages: []engine.Message{engine.UserMessage("Say something.")},
		BuiltIns: []string{},        // no built-in tools
		Finish:   engine.FinishText, // a plain text reply ends the run
	}
	for ev := range rt.Stream(context.Background(), req) {
		switch {
		case ev.Type == engine.EventTextDelta:
			fmt.Print(ev.Delta)
		case ev.Type.Terminal():
			fmt.Println()
			fmt.Println(ev.Type, ev.Result.Iterations)
		}
	}
	// Output:
	// Streaming, one word at a time.
	// completed 1
}

func Example_hostTool() {
	rt := demoRuntime(
		toolCall("weather", `{"city":"Paris"}`),
		toolCall("final_answer", `{"answer":"It is sunny in Paris."}`),
	)
	defer rt.Close()

	weather := engine.Tool{
		Name:        "weather",
		Description: "Current weather in a city.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
		Kind:        engine.KindRead,
		Execute: func(ctx context.Context, args json.RawMessage) (engine.ToolResult, error) {
			var in struct{ City string }
			if err := json.Unmarshal(args, &in); err != nil {
				return engine.ErrorResult("bad arguments: %v", err), nil
			}
			return engine.JSONResult(map[string]string{"city": in.City, "sky": "sunny"}), nil
		},
	}
	res, err := rt.Complete(context.Background(), engine.Request{
		Messages: []engine.Message{engine.UserMessage("What is the weather in Paris?")},
		BuiltIns: []string{},
		Tools:    []engine.Tool{weather},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range res.Messages {
		if m.Role == engine.RoleTool && m.ToolName == "weather" {
			fmt.Println("weather returned", m.Text())
		}
	}
	fmt.Println(res.Status, res.Output)
	// Output:
	// weather returned {"city":"Paris","sky":"sunny"}
	// completed It is sunny in Paris.
}

func Example_hostOwnedTool() {
	rt := demoRuntime(
		toolCall("approve_refund", `{"order":"A-17","amount":40}`),
		toolCall("final_answer", `{"answer":"Refund of 40 for A-17 approved."}`),
	)
	defer rt.Close()

	// A tool without Execute is host-owned: the run pauses and the host
	// answers the call itself, now or in another process.
	approve := engine.Tool{
		Name:        "approve_refund",
		Description: "Ask a manager to approve a refund.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"order":{"type":"string"},"amount":{"type":"number"}},"required":["order","amount"]}`),
	}
	req := engine.Request{
		Messages: []engine.Message{engine.UserMessage("Refund order A-17.")},
		BuiltIns: []string{},
		Tools:    []engine.Tool{approve},
	}
	ctx := context.Background()
	res, err := rt.Complete(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, res.PendingCalls[0].Name, res.PendingCalls[0].Arguments)

	// Answer every pending call, then run again on the whole conversation.
	req.Messages = res.Messages
	for _, call := range res.PendingCalls {
		req.Messages = append(req.Messages, engine.ToolResultMessage(call, "approved by J. Smith", false))
	}
	res, err = rt.Complete(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, res.Output)
	// Output:
	// tool_calls approve_refund {"order":"A-17","amount":40}
	// completed Refund of 40 for A-17 approved.
}

func ExampleRuntime_Generate() {
	rt := demoRuntime(scripted.Turn{Text: "Bonjour"})
	defer rt.Close()

	resp, err := rt.Generate(context.Background(), engine.Request{
		Messages: []engine.Message{engine.UserMessage("Say hello in French.")},
		BuiltIns: []string{},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Message.Text(), resp.Stop)
	// Output: Bonjour natural
}
