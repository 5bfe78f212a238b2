package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/llmrt/llmrt/providers"
)

// Kind is a tool's evidence kind (SPEC §3.7).
type Kind string

// Evidence kinds.
const (
	KindNone           Kind = "none"
	KindInteraction    Kind = "interaction"
	KindRead           Kind = "read"
	KindWrite          Kind = "write"
	KindExternalAction Kind = "external_action"
)

// Mutating reports whether a call of this kind changes something outside the
// conversation: writes and external actions.
func (k Kind) Mutating() bool { return k == KindWrite || k == KindExternalAction }

// Sources of tools, as listed by `llmrt tools`.
const (
	SourceBuiltin = "builtin"
	SourceControl = "control"
	SourceHost    = "host"
)

// Executor runs one call of a tool with arguments that have already been
// validated against the tool's schema.
type Executor func(ctx context.Context, args json.RawMessage) (Result, error)

// Tool is one callable tool.
type Tool struct {
	Name        string
	Description string
	// Schema is the JSON Schema of the arguments object.
	Schema json.RawMessage
	Kind   Kind
	// Source says where the tool comes from: builtin, control, host,
	// mcp:<server>.
	Source string
	// Execute runs the tool. A nil Execute makes the tool host-owned: the
	// loop stops with status tool_calls and the host supplies the result.
	Execute Executor
	// Validate, when set, checks arguments beyond what the schema expresses;
	// its error goes back to the model as an invalid_arguments result.
	Validate func(args json.RawMessage) error
}

// Spec returns the description of t sent to a model.
func (t Tool) Spec() providers.ToolSpec {
	return providers.ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.Schema}
}

// Result is what a tool call produced, as the model will see it.
type Result struct {
	Content string
	// Parts holds media (images, documents) returned next to Content.
	Parts   []providers.Part
	IsError bool
	// Failed marks an action that ran but did not succeed (a command that
	// exited non-zero, a program that stopped with an error). The model
	// sees the result as usual, but it is not evidence of work.
	Failed bool
}

// Text returns a successful text result.
func Text(s string) Result { return Result{Content: s} }

// Errorf returns an error result the model sees.
func Errorf(format string, args ...any) Result {
	return Result{Content: fmt.Sprintf(format, args...), IsError: true}
}

// JSON returns a successful result holding v as compact JSON.
func JSON(v any) Result {
	b, err := json.Marshal(v)
	if err != nil {
		return Errorf("encode result: %v", err)
	}
	return Result{Content: string(b)}
}

// decodeArgs unmarshals validated arguments into dst, turning a failure into
// an error result.
func decodeArgs(args json.RawMessage, dst any) *Result {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if err := json.Unmarshal(args, dst); err != nil {
		r := Errorf("invalid arguments: %v", err)
		return &r
	}
	return nil
}
