package engine_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/scripted"
)

// A host that needs what the neutral events leave out (a provider's
// citations, logprobs or ids) asks for raw events: each payload the
// adapter received, named by the adapter, before the events decoded from
// it. The scripted provider's payload is its turn.
func ExampleRequest_raw() {
	rt := demoRuntime(scripted.Turn{Text: "Hello."})
	defer rt.Close()

	req := engine.Request{
		Messages: []engine.Message{engine.UserMessage("Greet me.")},
		BuiltIns: []string{},
		Finish:   engine.FinishText,
		Raw:      true,
	}
	for ev := range rt.Stream(context.Background(), req) {
		switch ev.Type {
		case engine.EventRaw:
			fmt.Printf("raw from %s: %s\n", ev.Provider, ev.Raw)
		case engine.EventTextDelta:
			fmt.Printf("text: %q\n", ev.Delta)
		}
	}
	// Output:
	// raw from scripted: {"text":"Hello."}
	// text: "Hello."
}

// A host that owns its loop runs the calls of a reply with
// ExecuteToolCalls: validated, read calls together, mutating ones alone
// and in order, under the request's permission policy, with the outcomes
// in the order of the calls.
func ExampleRuntime_ExecuteToolCalls() {
	type city struct {
		Name string `json:"name"`
	}
	weather, err := engine.FuncTool("weather", "Today's weather in a city.", engine.KindRead,
		func(_ context.Context, in city) (engine.ToolResult, error) {
			return engine.TextResult("sunny in " + in.Name), nil
		})
	if err != nil {
		log.Fatal(err)
	}
	rt := demoRuntime()
	defer rt.Close()

	calls := []engine.ToolCall{
		{ID: "1", Name: "weather", Arguments: `{"name":"Lisbon"}`},
		{ID: "2", Name: "weather", Arguments: `{"name":"Porto"}`},
		{ID: "3", Name: "weather", Arguments: `{"city":"Faro"}`},
	}
	req := engine.Request{BuiltIns: []string{}, Tools: []engine.Tool{weather}}
	for i, o := range rt.ExecuteToolCalls(context.Background(), calls, req) {
		fmt.Printf("%s: error=%v code=%q %.40s\n", calls[i].ID, o.IsError, o.Code, o.Content)
	}
	// Output:
	// 1: error=false code="" sunny in Lisbon
	// 2: error=false code="" sunny in Porto
	// 3: error=true code="invalid_arguments" arguments do not match the weather schem
}

// A strict request runs only when nothing was found wrong preparing it:
// the host's own diagnostics (here a configuration key it did not know)
// and the runtime's (a tool source that did not start, a tool left out)
// make it an invalid_request error before the first model call.
func ExampleRequest_strict() {
	rt := demoRuntime(toolCall("final_answer", `{"answer":"never sent"}`))
	defer rt.Close()

	req := engine.Request{
		Messages:    []engine.Message{engine.UserMessage("Go.")},
		Strict:      true,
		Diagnostics: []engine.Diagnostic{{Source: "llmrt.toml", Message: `unknown key "modle"`}},
	}
	_, err := rt.Complete(context.Background(), req)
	fmt.Println(errors.Is(err, engine.ErrInvalidRequest))
	var de *engine.DiagnosticsError
	if errors.As(err, &de) {
		for _, d := range de.Diagnostics {
			fmt.Printf("%s %s %s: %s\n", d.Level, d.Kind, d.Source, d.Message)
		}
	}
	// Output:
	// true
	// error request llmrt.toml: unknown key "modle"
}
