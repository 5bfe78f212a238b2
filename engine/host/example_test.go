package host_test

import (
	"context"
	"fmt"
	"os"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// A host opens a conversation once and runs a turn per prompt; the
// conversation keeps the messages and records them in a session that a
// later Open can resume.
func ExampleConversation() {
	script, _ := scripted.Parse([]byte(`{"turns":[
		{"tool_calls":[{"name":"final_answer","arguments":{"answer":"Hello."}}]},
		{"tool_calls":[{"name":"final_answer","arguments":{"answer":"Hello again."}}]}]}`), "demo")
	p := scripted.New()
	p.Register("demo", script)
	rt, _ := engine.New(engine.Config{Adapters: []providers.Provider{p}})
	defer rt.Close()

	dir, _ := os.MkdirTemp("", "sessions")
	defer os.RemoveAll(dir)
	store := &session.Store{Dir: dir}
	conv, _ := host.Open(host.Options{Store: store, System: "Be brief."})
	for _, text := range []string{"Say hello.", "Again, please."} {
		prompt := providers.TextMessage(providers.RoleUser, text)
		out, err := conv.Turn(context.Background(), host.Turn{
			Runtime: rt,
			Request: engine.Request{Provider: "scripted", Model: "demo"},
			Prompt:  &prompt,
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(out.Status, out.Output)
	}
	conv.Close()

	saved, _ := store.Load(conv.ID())
	fmt.Println(saved.Meta.Title, len(saved.Messages), "messages")
	// Output:
	// completed Hello.
	// completed Hello again.
	// Say hello. 7 messages
}
