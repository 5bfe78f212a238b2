package trace_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/trace"
	"github.com/llmrt/llmrt/providers/scripted"
)

func ExampleWriter() {
	dir, err := os.MkdirTemp("", "trace")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "run.jsonl")

	sp := scripted.New() // replays the turns below offline
	sp.Register("demo", &scripted.Script{Turns: []scripted.Turn{
		{ToolCalls: []scripted.Call{{Name: "final_answer", Arguments: json.RawMessage(`{"answer":"42"}`)}}},
	}})
	rt, err := engine.New(engine.Config{Adapters: []engine.Provider{sp}, Defaults: engine.Defaults{Model: "demo"}})
	if err != nil {
		log.Fatal(err)
	}
	defer rt.Close()

	w, err := trace.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	// The writer is one more consumer of the run's events; a host with
	// several (a printer, a session file) joins them with engine.FanOut.
	var werr error
	res, err := rt.CompleteWith(context.Background(), engine.Request{
		Messages: []engine.Message{engine.UserMessage("What is six times seven?")},
		BuiltIns: []string{},
	}, func(ev engine.Event) {
		if err := w.Write(ev); err != nil && werr == nil {
			werr = err // the first failure; the writer refuses the rest
		}
	})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil || werr != nil {
		log.Fatal(err, werr)
	}
	fmt.Println(res.Status, res.Output)

	// Each line is one JSON object; event lines hold the event's stable
	// JSON form, the one `llmrt run --output stream-json` prints.
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct {
			Type  string `json:"type"`
			Event struct {
				Type string `json:"type"`
			} `json:"event"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			log.Fatal(err)
		}
		fmt.Println(strings.TrimSpace(l.Type + " " + l.Event.Type))
	}
	// Output:
	// completed 42
	// run.start
	// event run_start
	// event model_start
	// event tool_call_delta
	// event answer_delta
	// event assistant_message
	// event tool_result
	// event completed
	// run.success
	// run.end
}
