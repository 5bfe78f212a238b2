package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// Func returns a tool whose arguments are a value of type In, usually a
// struct, so a host writes a Go function instead of a JSON Schema and an
// unmarshalling step.
//
// The tool's Schema is inferred from In by jsonschema-go: each exported
// field is a property named by its json tag; fields tagged omitempty or
// omitzero are optional and all others required; a `jsonschema:"..."` tag
// is the property's description; properties In does not have are refused.
// That schema is what the engine sends the model and validates each call
// against, so fn only ever sees arguments that match it. What the schema
// cannot say is checked by decoding: Validate decodes the arguments into
// In, so a value that matches the schema but not the Go type (a time.Time
// that does not parse) comes back to the model as an invalid_arguments
// result before anything runs or anyone is asked to approve it. Execute
// decodes them again and calls fn; it returns a decoding failure as an
// error result too, for callers that did not validate.
//
// fn's Result is what the model sees: Text, JSON, or Errorf for a failure
// the model should act on. A non-nil error means broken infrastructure;
// the engine shows the model that the call failed. An empty kind is left
// for the engine to treat as KindExternalAction, as it treats every host
// tool that declares none.
//
// The error is misuse: a nil fn, or an In whose schema is not an object
// (In must be a struct, a pointer to one, or a map with string keys) or
// cannot be inferred (a func or chan field, a recursive type). The
// returned Tool is a plain value; its fields may be changed before use,
// for instance to tighten the Schema with an enum the Go type cannot
// express.
func Func[In any](name, description string, kind Kind, fn func(ctx context.Context, in In) (Result, error)) (Tool, error) {
	if fn == nil {
		return Tool{}, fmt.Errorf("tools: func tool %q has a nil function", name)
	}
	schema, err := argumentSchema[In]()
	if err != nil {
		return Tool{}, fmt.Errorf("tools: func tool %q: %w", name, err)
	}
	return Tool{
		Name:        name,
		Description: description,
		Schema:      schema,
		Kind:        kind,
		Execute: func(ctx context.Context, args json.RawMessage) (Result, error) {
			var in In
			if bad := decodeArgs(args, &in); bad != nil {
				return *bad, nil
			}
			return fn(ctx, in)
		},
		Validate: func(args json.RawMessage) error {
			var in In
			if len(args) == 0 {
				args = json.RawMessage("{}")
			}
			return json.Unmarshal(args, &in)
		},
	}, nil
}

// argumentSchema infers the JSON Schema of In and checks that it describes
// an object, which is what tool arguments are. A pointer's "null or
// object" is narrowed to "object": a call always has arguments.
func argumentSchema[In any]() (json.RawMessage, error) {
	t := reflect.TypeFor[In]()
	s, err := jsonschema.For[In](nil)
	if err != nil {
		return nil, fmt.Errorf("infer the argument schema from %v: %w", t, err)
	}
	if s.Type == "" && slices.Equal(s.Types, []string{"null", "object"}) {
		s.Type, s.Types = "object", nil
	}
	if s.Type != "object" {
		return nil, fmt.Errorf("arguments must be a JSON object, so %v must be a struct, a pointer to one, or a map with string keys", t)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encode the argument schema of %v: %w", t, err)
	}
	return raw, nil
}
