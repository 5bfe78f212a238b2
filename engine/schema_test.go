package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/tools"
)

// TestArgumentSchemas: schemas of every draft tool schemas are written in
// validate, and a failure names where and what.
func TestArgumentSchemas(t *testing.T) {
	cases := []struct {
		name, schema, args string
		bad                string // "" when the arguments are valid, else words the message holds
	}{
		{"draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`, `{"n":3}`, ""},
		{"draft-07 missing", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`, `{}`, "n"},
		{"2020-12 wrong type", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"path":{"type":"string"}}}`, `{"path":5}`, "/properties/path"},
		{"draft-04 exclusive bound", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true}}}`, `{"n":0}`, "exclusiveMinimum"},
		{"draft-04 inside bound", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true}}}`, `{"n":0.5}`, ""},
		{"draft 2019-09", `{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object","properties":{"a":{"enum":["x","y"]}}}`, `{"a":"z"}`, "enum"},
		{"no $schema, additional properties", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, `{"a":"x","b":1}`, "b"},
		{"definitions and $ref", `{"type":"object","definitions":{"p":{"type":"string","minLength":2}},"properties":{"a":{"$ref":"#/definitions/p"}}}`, `{"a":"x"}`, "minLength"},
		{"nested arrays", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}}}}}}`, `{"l":[{"id":1},{"id":"two"}]}`, `at /properties/l/items/properties/id: type: two has type "string", want "integer"`},
		{"empty schema", ``, `{"anything":true}`, ""},
	}
	rt := &Runtime{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tl := tools.Tool{Name: "t", Schema: json.RawMessage(c.schema)}
			_, out := rt.validateArgs(&tl, c.args)
			switch {
			case c.bad == "" && out != nil:
				t.Fatalf("valid arguments %s refused: %s", c.args, out.Content)
			case c.bad != "" && out == nil:
				t.Fatalf("invalid arguments %s accepted", c.args)
			case c.bad != "" && !strings.Contains(out.Content, c.bad):
				t.Fatalf("the message should name %q: %s", c.bad, out.Content)
			}
		})
	}
}
