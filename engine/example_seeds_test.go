package engine_test

import (
	"context"
	"fmt"

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
