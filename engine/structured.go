package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// defaultAnswerRetries is how many answers that fail a request's
// AnswerSchema are sent back before the run fails.
const defaultAnswerRetries = 3

// structuredAnswerDescription is final_answer's description when the
// answer has a schema.
const structuredAnswerDescription = "Finish the task and give the final answer as a JSON value (not a string holding JSON) " +
	"that is valid against the schema of the answer parameter. Call it alone, once the work is done."

// CheckAnswerSchema reports why raw cannot be a Request's AnswerSchema:
// it is not JSON, or not a JSON Schema the validator compiles. Hosts call
// it to refuse a bad schema before a run starts.
func CheckAnswerSchema(raw json.RawMessage) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return fmt.Errorf("the schema is empty")
	}
	if err := compileSchema(raw).err; err != nil {
		return err
	}
	var doc any
	_ = json.Unmarshal(raw, &doc) // compiled, so it is JSON
	return checkTypes(doc, "")
}

// jsonTypes are the names a schema's "type" may hold.
var jsonTypes = map[string]bool{"null": true, "boolean": true, "object": true, "array": true, "number": true, "string": true, "integer": true}

// checkTypes finds a "type" naming no JSON type anywhere in a schema,
// which the validator accepts and no value could then match: a typo the
// person should hear of before the model is asked. Values that are data
// (const, enum, default, examples) are not schemas and are skipped.
func checkTypes(v any, at string) error {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			switch k {
			case "const", "enum", "default", "examples":
				continue
			case "type":
				names, _ := c.([]any)
				if s, ok := c.(string); ok {
					names = []any{s}
				}
				for _, n := range names {
					if s, ok := n.(string); ok && !jsonTypes[s] {
						return fmt.Errorf("at %s/type: %q is not a JSON type (use object, array, string, number, integer, boolean or null)", at, clip(s, 40))
					}
				}
				if _, isMap := c.(map[string]any); !isMap {
					continue
				}
			}
			if err := checkTypes(c, at+"/"+k); err != nil {
				return err
			}
		}
	case []any:
		for i, c := range v {
			if err := checkTypes(c, fmt.Sprintf("%s/%d", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// answerShape is a run's AnswerSchema, compiled, and the answers that
// failed it so far. Only the loop goroutine touches it.
type answerShape struct {
	sch    *jsonschema.Resolved
	misses int
	// value is the accepted answer, compact; set just before the run
	// completes with it.
	value json.RawMessage
}

// newAnswerShape compiles a request's answer schema; nil when it has none.
func (rt *Runtime) newAnswerShape(req *Request) (*answerShape, error) {
	if len(req.AnswerSchema) == 0 {
		return nil, nil
	}
	if err := CheckAnswerSchema(req.AnswerSchema); err != nil {
		return nil, invalidRequest("answer schema: %v", err)
	}
	sch, err := rt.schema(req.AnswerSchema)
	if err != nil {
		return nil, invalidRequest("answer schema: %v", err)
	}
	return &answerShape{sch: sch}, nil
}

// check validates an answer and returns it as compact JSON, or what is
// wrong with it. An answer given as a string that holds valid JSON (a
// model that quoted its object) is read as that JSON.
func (s *answerShape) check(raw json.RawMessage) (json.RawMessage, string) {
	problem := s.validate(raw)
	if problem == "" {
		return compactJSON(raw), ""
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		if inner, ok := answerJSON(str); ok && s.validate(inner) == "" {
			return compactJSON(inner), ""
		}
	}
	return nil, problem
}

func (s *answerShape) validate(raw json.RawMessage) string {
	var inst any
	if err := json.Unmarshal(raw, &inst); err != nil {
		return fmt.Sprintf("the answer is not valid JSON (%v)", err)
	}
	if err := s.sch.Validate(inst); err != nil {
		return clip(describeValidation(err), maxProblem)
	}
	return ""
}

// maxProblem bounds a validation message, which quotes the model's
// values, in what goes back to the model and into the run's error.
const maxProblem = 512

// clip cuts s to at most n bytes on a character boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func compactJSON(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

// answerJSON reads a plain-text reply as a JSON value: the whole text, or
// the first fenced code block in it (```json ... ```).
func answerJSON(text string) (json.RawMessage, bool) {
	t := strings.TrimSpace(text)
	if i := strings.Index(t, "```"); i >= 0 {
		body := t[i+3:]
		nl := strings.IndexByte(body, '\n')
		if nl < 0 {
			return nil, false
		}
		body = body[nl+1:]
		if end := strings.Index(body, "```"); end >= 0 {
			body = body[:end]
		}
		t = strings.TrimSpace(body)
	}
	if t == "" || !json.Valid([]byte(t)) {
		return nil, false
	}
	return json.RawMessage(t), true
}

// structured makes final_answer of a surface take an answer valid against
// schema, which the model sees in the tool's definition.
func (ts *toolset) structured(schema json.RawMessage) {
	i, ok := ts.index[FinalAnswerTool]
	if !ok {
		return
	}
	t := ts.list[i]
	t.Description = structuredAnswerDescription
	t.Schema = json.RawMessage(`{"type":"object","properties":{` +
		`"answer":` + string(compactJSON(schema)) + `,` +
		`"evidenceRefs":{"type":"array","items":{"type":"string"},"description":"Optional references (files, tool results) backing the answer"}},` +
		`"required":["answer"],"additionalProperties":false}`)
	ts.list[i] = t
	ts.specs[i] = t.Spec()
}

// shape adjusts a loop run's surface to its request: final_answer
// describes a plan in plan mode and takes the answer schema when there is
// one.
func (ts *toolset) shape(req *Request) {
	if req.Permission.Mode == ModePlan {
		ts.planning()
	}
	if ts.control && len(req.AnswerSchema) > 0 {
		ts.structured(req.AnswerSchema)
	}
}

// structuredCall handles a lone final_answer call of a run whose answer
// has a schema: a valid answer ends the run, one that fails goes back to
// the model with the reason, until the retries are spent.
func (r *run) structuredCall(ctx context.Context, c ToolCall) (Result, bool) {
	var args struct {
		Answer json.RawMessage `json:"answer"`
	}
	var value json.RawMessage
	problem := ""
	if err := json.Unmarshal([]byte(c.Arguments), &args); err != nil || len(args.Answer) == 0 || string(args.Answer) == "null" {
		problem = `the arguments must be a JSON object with the answer in "answer"`
	} else {
		value, problem = r.shape.check(args.Answer)
	}
	if problem != "" {
		r.record(0, c, ToolOutcome{IsError: true, Code: OutcomeInvalidArguments,
			Content: "not accepted: the answer does not match the required JSON schema: " + problem +
				". Call final_answer again with an answer valid against the schema of its answer parameter."})
		return r.answerMissed(problem)
	}
	if !r.finishProven(string(value)) {
		r.record(0, c, refusedAnswer(r.tools.actions))
		return Result{}, false
	}
	if reason, ok := r.stopHook(ctx, string(value)); !ok {
		r.record(0, c, ToolOutcome{IsError: true, Code: OutcomeNotRun, Content: "not accepted yet: a Stop hook says: " + reason})
		return Result{}, false
	}
	r.record(0, c, ToolOutcome{Content: "final answer recorded"})
	r.shape.value = value
	return r.end(StatusCompleted, string(value), nil, nil), true
}

// structuredText handles a plain-text reply of a run whose answer has a
// schema, whatever the finish policy: text that reads as a valid JSON
// answer ends the run; JSON that fails the schema is sent back with the
// reason; other text is narration, and a reply the finish policy would
// have ended the run with is a failed answer.
func (r *run) structuredText(ctx context.Context, text string) (Result, bool) {
	raw, isJSON := answerJSON(text)
	if !isJSON {
		if r.req.Finish == FinishText || r.guard.plainFinish(text) {
			r.guard.note = "Your reply was plain text, not JSON. The answer must be a JSON value valid against the schema of final_answer's answer parameter: call final_answer with it."
			return r.answerMissed("the reply was plain text, not JSON")
		}
		r.guard.note = noteNarration
		return Result{}, false
	}
	value, problem := r.shape.check(raw)
	if problem != "" {
		r.guard.note = "Your reply was plain text, not a final_answer call, and read as the answer it does not match the required JSON schema: " +
			problem + ". Call final_answer with an answer valid against the schema of its answer parameter."
		return r.answerMissed(problem)
	}
	if !r.finishProven(string(value)) {
		return Result{}, false
	}
	r.shape.value = value
	return r.finish(ctx, string(value))
}

// answerMissed counts an answer that failed the schema and fails the run
// once the retries are spent.
func (r *run) answerMissed(problem string) (Result, bool) {
	r.shape.misses++
	if r.shape.misses <= r.req.AnswerRetries {
		return Result{}, false
	}
	return r.fail(CodeInvalidAnswer, nil, "the model's answer did not match the answer schema after %d attempts; the last one: %s", r.shape.misses, problem), true
}
