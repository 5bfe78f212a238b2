package cmd_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

const cityShape = `{"type":"object","properties":{"city":{"type":"string"},"population":{"type":"integer","minimum":0}},"required":["city","population"],"additionalProperties":false}`

// jsonAnswer is a final_answer call whose answer is the JSON value v.
func jsonAnswer(v string) scripted.Turn { return toolCall("final_answer", `{"answer":`+v+`}`) }

// finalAnswerParams returns the parameters of the final_answer tool an
// OpenAI request offered (Responses or Chat Completions shape).
func finalAnswerParams(t *testing.T, r fakellm.Request) string {
	t.Helper()
	type fn struct {
		Name       string          `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	}
	var body struct {
		Tools []struct {
			fn
			Function fn `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("request body: %v\n%s", err, r.Body)
	}
	for _, tl := range body.Tools {
		for _, f := range []fn{tl.fn, tl.Function} {
			if f.Name == "final_answer" {
				return string(f.Parameters)
			}
		}
	}
	t.Fatalf("no final_answer tool in the request:\n%s", r.Body)
	return ""
}

// TestJSONSchemaFromOutside: `run --json-schema` makes the answer a JSON
// value valid against the schema. An answer that fails goes back to the
// model with the reason; stdout holds the valid value alone, and
// -o json has it as structured_output.
func TestJSONSchemaFromOutside(t *testing.T) {
	t.Parallel()
	t.Run("an invalid answer, then a valid one", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, jsonAnswer(`{"city":"Lyon","population":"big"}`), jsonAnswer(`{ "city": "Lyon", "population": 522250 }`))
		o := openaiRun(sb, srv, "--json-schema", cityShape, "-p", "largest city near here")
		o.want(t, 0)
		if want := `{"city":"Lyon","population":522250}` + "\n"; o.stdout != want {
			t.Errorf("stdout: got %q, want %q", o.stdout, want)
		}
		reqs := srv.Requests()
		if len(reqs) != 2 {
			t.Fatalf("model calls: got %d, want 2", len(reqs))
		}
		if p := finalAnswerParams(t, reqs[0]); !strings.Contains(p, `"population":{"type":"integer","minimum":0}`) {
			t.Errorf("final_answer parameters: got %s, want the schema under answer", p)
		}
		second := string(reqs[1].Body)
		if !strings.Contains(second, "does not match the required JSON schema") || !strings.Contains(second, "population") {
			t.Errorf("second request: want the validation error naming population, got\n%s", second)
		}
	})
	t.Run("from a file, with -o json", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		path := sb.write("shape.json", cityShape)
		srv := fake(t, fakellm.OpenAI, jsonAnswer(`{"city":"Lyon","population":522250}`))
		o := openaiRun(sb, srv, "--json-schema", path, "-o", "json", "-p", "largest city")
		o.want(t, 0)
		var got struct {
			Status     string          `json:"status"`
			Output     string          `json:"output"`
			Structured json.RawMessage `json:"structured_output"`
		}
		if err := json.Unmarshal([]byte(o.stdout), &got); err != nil {
			t.Fatalf("stdout is not one JSON object: %v\n%s", err, o.stdout)
		}
		var compact bytes.Buffer
		json.Compact(&compact, got.Structured)
		if compact.String() != `{"city":"Lyon","population":522250}` || got.Output != compact.String() {
			t.Errorf("structured_output %s, output %q: want the answer's value in both", got.Structured, got.Output)
		}
	})
	t.Run("in the result of -o stream-json", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, jsonAnswer(`{"city":"Lyon","population":7}`))
		o := openaiRun(sb, srv, "--json-schema", cityShape, "-o", "stream-json", "-p", "largest city")
		o.want(t, 0)
		lines := strings.Split(strings.TrimSpace(o.stdout), "\n")
		var last struct {
			Type   string `json:"type"`
			Result struct {
				Structured json.RawMessage `json:"structured_output"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
			t.Fatalf("last line: %v\n%s", err, o.stdout)
		}
		if last.Type != "completed" || string(last.Result.Structured) != `{"city":"Lyon","population":7}` {
			t.Errorf("terminal event: got %s, want completed with structured_output", lines[len(lines)-1])
		}
	})
	t.Run("a plain-text answer in a fence", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, text("```json\n{\"city\":\"Lyon\",\"population\":1}\n```"))
		o := openaiRun(sb, srv, "--json-schema", cityShape, "-p", "largest city")
		o.want(t, 0)
		if want := `{"city":"Lyon","population":1}` + "\n"; o.stdout != want {
			t.Errorf("stdout: got %q, want %q", o.stdout, want)
		}
	})
	t.Run("answers that keep failing fail the run", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		turns := []scripted.Turn{}
		for i := 0; i < 5; i++ {
			turns = append(turns, jsonAnswer(`{"city":"Lyon"}`+strings.Repeat(" ", i)))
		}
		srv := fake(t, fakellm.OpenAI, turns...)
		o := openaiRun(sb, srv, "--json-schema", cityShape, "-p", "largest city")
		o.want(t, 1)
		if o.stdout != "" {
			t.Errorf("stdout: got %q, want nothing", o.stdout)
		}
		if !strings.Contains(o.stderr, "schema") {
			t.Errorf("stderr: got %q, want it to say the answer did not match the schema", o.stderr)
		}
	})
	for _, bad := range []struct{ name, value, want string }{
		{"not JSON", `{"type":`, "--json-schema"},
		{"not a schema", `{"type":12}`, "--json-schema"},
		{"no such file", "missing.json", "missing.json"},
	} {
		t.Run("bad schema: "+bad.name, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, fakellm.OpenAI, jsonAnswer(`{}`))
			o := openaiRun(sb, srv, "--json-schema", bad.value, "-p", "x")
			o.want(t, 2)
			if !strings.Contains(o.stderr, bad.want) {
				t.Errorf("stderr: got %q, want it to name %s", o.stderr, bad.want)
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("model calls: got %d, want none", n)
			}
		})
	}
}
