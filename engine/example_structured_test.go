package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/llmrt/llmrt/engine"
)

// A request with an AnswerSchema completes only with a JSON value valid
// against it. Here the model's first answer misses a required field; it
// is sent back with the reason, and the second one ends the run.
func ExampleRequest_answerSchema() {
	rt := demoRuntime(
		toolCall("final_answer", `{"answer":{"title":"Fix the parser"}}`),
		toolCall("final_answer", `{"answer":{"title":"Fix the parser","labels":["bug"]}}`),
	)
	defer rt.Close()

	res, err := rt.Complete(context.Background(), engine.Request{
		Messages: []engine.Message{engine.UserMessage("File an issue for the crash in parse.go")},
		AnswerSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"},` +
			`"labels":{"type":"array","items":{"type":"string"}}},"required":["title","labels"]}`),
	})
	if err != nil {
		log.Fatal(err) // misuse, such as a schema that does not compile
	}
	if err := res.Err(); err != nil {
		log.Fatal(err) // errors.Is(err, engine.ErrInvalidAnswer) once the retries are spent
	}
	var issue struct {
		Title  string   `json:"title"`
		Labels []string `json:"labels"`
	}
	if err := json.Unmarshal(res.Structured, &issue); err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Iterations, issue.Title, issue.Labels)
	// Output:
	// 2 Fix the parser [bug]
}
