package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

const personSchema = `{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0}},"required":["name","age"],"additionalProperties":false}`

// structuredAnswer is a final_answer call whose answer is the JSON value v.
func structuredAnswer(v string) scripted.Turn {
	return call("final_answer", `{"answer":`+v+`}`)
}

// finalAnswerSpec returns the final_answer tool a request offered.
func finalAnswerSpec(t *testing.T, req providers.Request) providers.ToolSpec {
	t.Helper()
	for _, s := range req.Tools {
		if s.Name == engine.FinalAnswerTool {
			return s
		}
	}
	t.Fatalf("final_answer is not among the request's tools")
	return providers.ToolSpec{}
}

// toolErrors lists the text of the error results in msgs.
func toolErrors(msgs []engine.Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role == providers.RoleTool && m.IsError {
			out = append(out, m.Text())
		}
	}
	return out
}

// TestAnswerSchema: with Request.AnswerSchema the answer of final_answer
// is a JSON value checked against it. The model sees the schema in the
// tool's definition; an answer that fails is sent back with the reason,
// a bounded number of times; a valid one ends the run with the value in
// Result.Structured and its compact text in Output.
func TestAnswerSchema(t *testing.T) {
	t.Run("an invalid answer is returned, then a valid one ends the run", func(t *testing.T) {
		h := newHarness(t, structuredAnswer(`{"name":"Ada","age":-3}`), structuredAnswer(`{ "name": "Ada", "age": 36 }`))
		req := h.request("who?")
		req.AnswerSchema = json.RawMessage(personSchema)
		res := h.complete(req)
		if res.Status != engine.StatusCompleted {
			t.Fatalf("status: got %s (%+v), want completed", res.Status, res.Error)
		}
		if want := `{"name":"Ada","age":36}`; res.Output != want || string(res.Structured) != want {
			t.Errorf("output: got %q, structured %s; want %s for both", res.Output, res.Structured, want)
		}
		var params struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(finalAnswerSpec(t, h.rec.request(0)).Parameters, &params); err != nil {
			t.Fatal(err)
		}
		var shown, want any
		json.Unmarshal(params.Properties["answer"], &shown)
		json.Unmarshal([]byte(personSchema), &want)
		if b1, b2 := mustJSON(shown), mustJSON(want); b1 != b2 {
			t.Errorf("final_answer's answer parameter: got %s, want the schema %s", b1, b2)
		}
		errs := toolErrors(h.rec.request(1).Messages)
		if len(errs) != 1 || !strings.Contains(errs[0], "age") || !strings.Contains(errs[0], "schema") {
			t.Errorf("second request's tool errors: got %q, want one naming the schema and the failing field age", errs)
		}
	})
	t.Run("too many invalid answers fail the run", func(t *testing.T) {
		turns := make([]scripted.Turn, 0, 6)
		for i := 0; i < 6; i++ {
			turns = append(turns, structuredAnswer(`{"name":"Ada"}`+strings.Repeat(" ", i)))
		}
		h := newHarness(t, turns...)
		req := h.request("who?")
		req.AnswerSchema = json.RawMessage(personSchema)
		req.AnswerRetries = 2
		res := h.complete(req)
		if res.Status != engine.StatusFailed || res.Error == nil || res.Error.Code != engine.CodeInvalidAnswer {
			t.Fatalf("got %s %+v, want failed with code %s", res.Status, res.Error, engine.CodeInvalidAnswer)
		}
		if !errors.Is(res.Error, engine.ErrInvalidAnswer) {
			t.Errorf("errors.Is(%v, ErrInvalidAnswer) is false", res.Error)
		}
		if got := h.rec.calls(); got != 3 {
			t.Errorf("model calls: got %d, want 3 (one answer and two retries)", got)
		}
		if !strings.Contains(res.Error.Message, "required") {
			t.Errorf("error: got %q, want the last validation problem (a required property)", res.Error.Message)
		}
		assertReplayable(t, res.Messages, nil)
	})
	t.Run("an answer quoted as a string holding JSON is read as that JSON", func(t *testing.T) {
		quoted, _ := json.Marshal("```json\n{\"name\":\"Ada\",\"age\":36}\n```")
		h := newHarness(t, structuredAnswer(string(quoted)))
		req := h.request("who?")
		req.AnswerSchema = json.RawMessage(personSchema)
		res := h.complete(req)
		if res.Status != engine.StatusCompleted || string(res.Structured) != `{"name":"Ada","age":36}` {
			t.Fatalf("got %s %s (%+v), want completed with the quoted object", res.Status, res.Structured, res.Error)
		}
	})
	t.Run("a final_answer without an answer is sent back", func(t *testing.T) {
		h := newHarness(t, call("final_answer", `{"evidenceRefs":[]}`), structuredAnswer(`{"name":"Ada","age":36}`))
		req := h.request("who?")
		req.AnswerSchema = json.RawMessage(personSchema)
		if res := h.complete(req); res.Status != engine.StatusCompleted {
			t.Fatalf("status: got %s (%+v), want completed", res.Status, res.Error)
		}
		errs := toolErrors(h.rec.request(1).Messages)
		if len(errs) != 1 || !strings.Contains(errs[0], `"answer"`) {
			t.Errorf("tool errors: got %q, want one saying the answer goes in \"answer\"", errs)
		}
	})
	t.Run("plain-text JSON in a fence is accepted", func(t *testing.T) {
		h := newHarness(t, say("Here it is:\n```json\n{\"name\":\"Ada\",\"age\":36}\n```\n"), answer("never"))
		req := h.request("who?")
		req.AnswerSchema = json.RawMessage(personSchema)
		res := h.complete(req)
		if res.Status != engine.StatusCompleted || res.Output != `{"name":"Ada","age":36}` {
			t.Fatalf("got %s %q (%+v), want completed with the fenced JSON", res.Status, res.Output, res.Error)
		}
	})
	t.Run("plain-text JSON that fails is sent back with the reason", func(t *testing.T) {
		h := newHarness(t, say(`{"name":"Ada","age":"old"}`), structuredAnswer(`{"name":"Ada","age":36}`))
		req := h.request("who?")
		req.AnswerSchema = json.RawMessage(personSchema)
		res := h.complete(req)
		if res.Status != engine.StatusCompleted {
			t.Fatalf("status: got %s (%+v), want completed", res.Status, res.Error)
		}
		note := lastSystem(h.rec.request(1))
		if !strings.Contains(note, "age") || !strings.Contains(note, "final_answer") {
			t.Errorf("note on the second call: got %q, want the validation problem (age) and final_answer", note)
		}
	})
	t.Run("plain text never ends the run with an answer that is not JSON", func(t *testing.T) {
		h := newHarness(t, say("Ada, 36."), say("Ada, 36."), say("Ada, 36."), structuredAnswer(`{"name":"Ada","age":36}`))
		req := h.request("who?")
		req.AnswerSchema = json.RawMessage(personSchema)
		res := h.complete(req)
		if res.Status != engine.StatusCompleted || res.Output != `{"name":"Ada","age":36}` {
			t.Fatalf("got %s %q (%+v), want completed with the final_answer's JSON", res.Status, res.Output, res.Error)
		}
	})
	t.Run("the reason sent back is bounded", func(t *testing.T) {
		huge := `{"name":"Ada","age":"` + strings.Repeat("x", 100_000) + `"}`
		h := newHarness(t, structuredAnswer(huge), structuredAnswer(`{"name":"Ada","age":36}`))
		req := h.request("who?")
		req.AnswerSchema = json.RawMessage(personSchema)
		if res := h.complete(req); res.Status != engine.StatusCompleted {
			t.Fatalf("status: got %s (%+v), want completed", res.Status, res.Error)
		}
		errs := toolErrors(h.rec.request(1).Messages)
		if len(errs) != 1 || len(errs[0]) > 2000 {
			t.Errorf("tool errors: got %d, the first %d bytes long; want one under 2000 bytes", len(errs), len(strings.Join(errs, "")))
		}
	})
	t.Run("a bad schema is a bad request", func(t *testing.T) {
		h := newHarness(t, answer("never"))
		req := h.request("who?")
		req.AnswerSchema = json.RawMessage(`{"type":"object","properties":{"a":{"type":12}}}`)
		_, err := h.rt.Complete(context.Background(), req)
		var re *engine.RunError
		if !errors.As(err, &re) || re.Code != engine.CodeInvalidRequest || !strings.Contains(re.Message, "answer schema") {
			t.Fatalf("got %v, want an invalid_request error naming the answer schema", err)
		}
		if err := engine.CheckAnswerSchema(req.AnswerSchema); err == nil {
			t.Errorf("CheckAnswerSchema(%s): got nil, want an error", req.AnswerSchema)
		}
		for _, bad := range []string{`{"type":"nope"}`, `{"type":"object","properties":{"a":{"type":["string","strnig"]}}}`, ``} {
			if err := engine.CheckAnswerSchema(json.RawMessage(bad)); err == nil {
				t.Errorf("CheckAnswerSchema(%s): got nil, want an error", bad)
			}
		}
		// A property named type, and data that looks like a schema, are
		// not type names.
		odd := `{"type":"object","properties":{"type":{"type":"string"}},"const":{"type":"x"}}`
		if err := engine.CheckAnswerSchema(json.RawMessage(odd)); err != nil {
			t.Errorf("CheckAnswerSchema(%s): got %v, want nil", odd, err)
		}
		if err := engine.CheckAnswerSchema(json.RawMessage(personSchema)); err != nil {
			t.Errorf("CheckAnswerSchema(person): got %v, want nil", err)
		}
	})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
