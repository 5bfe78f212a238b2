package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
)

type bookArgs struct {
	Room   string    `json:"room" jsonschema:"the room to book"`
	At     time.Time `json:"at" jsonschema:"start, RFC 3339"`
	Hours  int       `json:"hours,omitempty"`
	Guests []string  `json:"guests,omitempty"`
}

// TestFuncToolThroughTheLoop: a typed tool's inferred schema is what the
// model is offered and what its calls are checked against; a call that
// does not fit it, or does not decode into the Go type, is an
// invalid_arguments result the model sees and the function never runs.
func TestFuncToolThroughTheLoop(t *testing.T) {
	cases := []struct {
		name    string
		args    string
		code    string // the outcome's code; "" for a result
		content string // the start of what the model sees
		ran     *bookArgs
	}{
		{name: "valid", args: `{"room":"Blue","at":"2025-03-01T10:00:00Z","hours":2,"guests":["ann"]}`,
			content: "booked Blue for 2h at 10:00",
			ran:     &bookArgs{Room: "Blue", At: time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC), Hours: 2, Guests: []string{"ann"}}},
		{name: "optional fields left out", args: `{"room":"Red","at":"2025-03-01T09:30:00Z"}`,
			content: "booked Red for 0h at 09:30",
			ran:     &bookArgs{Room: "Red", At: time.Date(2025, 3, 1, 9, 30, 0, 0, time.UTC)}},
		{name: "a required field missing", args: `{"room":"Blue"}`,
			code: engine.OutcomeInvalidArguments, content: "arguments do not match the book schema"},
		{name: "a field of the wrong type", args: `{"room":"Blue","at":"2025-03-01T10:00:00Z","hours":"two"}`,
			code: engine.OutcomeInvalidArguments, content: "arguments do not match the book schema"},
		{name: "a property the type does not have", args: `{"room":"Blue","at":"2025-03-01T10:00:00Z","floor":3}`,
			code: engine.OutcomeInvalidArguments, content: "arguments do not match the book schema"},
		{name: "matches the schema, does not decode", args: `{"room":"Blue","at":"next tuesday"}`,
			code: engine.OutcomeInvalidArguments, content: `invalid book arguments: parsing time "next tuesday"`},
		{name: "not JSON", args: `{"room":`,
			code: engine.OutcomeInvalidArguments, content: "arguments are not valid JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var ran []bookArgs
			book, err := engine.FuncTool("book", "Book a meeting room.", engine.KindWrite,
				func(_ context.Context, in bookArgs) (engine.ToolResult, error) {
					mu.Lock()
					ran = append(ran, in)
					mu.Unlock()
					return engine.TextResult(fmt.Sprintf("booked %s for %dh at %s", in.Room, in.Hours, in.At.Format("15:04"))), nil
				})
			if err != nil {
				t.Fatal(err)
			}
			h := newHarness(t, call("book", tc.args), answer("done"))
			req := h.request("book a room")
			req.BuiltIns = []string{}
			req.Tools = []engine.Tool{book}
			// A finish after a refused call is what the evidence rule of
			// host actions is about, not this test.
			req.Finish = engine.FinishText
			var outcome *engine.ToolOutcome
			res, err := h.rt.CompleteWith(t.Context(), req, func(ev engine.Event) {
				if ev.Type == engine.EventToolResult || ev.Type == engine.EventToolError {
					if ev.Call.Name == "book" {
						outcome = ev.Outcome
					}
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != engine.StatusCompleted {
				t.Fatalf("status: got %s (%+v), want completed", res.Status, res.Error)
			}
			if outcome == nil {
				t.Fatal("no outcome for the book call")
			}
			if outcome.Code != tc.code || outcome.IsError != (tc.code != "") || !strings.HasPrefix(outcome.Content, tc.content) {
				t.Errorf("args %s: got %q (code %q, error %v), want %q (code %q)", tc.args, outcome.Content, outcome.Code, outcome.IsError, tc.content, tc.code)
			}
			if got := toolResults(res.Messages)[0]; !strings.Contains(got, tc.content) {
				t.Errorf("the model saw %q, want %q", got, tc.content)
			}
			switch {
			case tc.ran == nil && len(ran) != 0:
				t.Errorf("args %s: the function ran with %+v, want it not run", tc.args, ran)
			case tc.ran != nil && (len(ran) != 1 || !equalBook(ran[0], *tc.ran)):
				t.Errorf("args %s: the function got %+v, want %+v", tc.args, ran, *tc.ran)
			}
			if spec := toolSpec(h.rec.request(0), "book"); spec == nil || !bytes.Equal(spec.Parameters, book.Schema) {
				t.Errorf("the model was offered %+v, want the inferred schema %s", spec, book.Schema)
			}
		})
	}
}

func equalBook(a, b bookArgs) bool {
	return a.Room == b.Room && a.At.Equal(b.At) && a.Hours == b.Hours && strings.Join(a.Guests, ",") == strings.Join(b.Guests, ",")
}

func toolSpec(req providers.Request, name string) *providers.ToolSpec {
	for i := range req.Tools {
		if req.Tools[i].Name == name {
			return &req.Tools[i]
		}
	}
	return nil
}
