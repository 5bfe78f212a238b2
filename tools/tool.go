package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/providers"
)

// Kind is a tool's evidence kind: what a successful call proves about a
// run's work, and whether permissions treat the call as a change.
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

// Describe names the kind in prose, with its article: "a read tool", "an
// external action tool". Hosts use it in prompts and messages.
func (k Kind) Describe() string {
	if k == KindNone || k == "" {
		return "a tool that changes nothing"
	}
	name := strings.ReplaceAll(string(k), "_", " ")
	if strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name + " tool"
	}
	return "a " + name + " tool"
}

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
	// Sandboxed marks a tool whose processes run confined by the OS
	// sandbox; a host may let such calls run without asking.
	Sandboxed bool
	// Validate, when set, checks arguments beyond what the schema expresses;
	// its error goes back to the model as an invalid_arguments result.
	Validate func(args json.RawMessage) error
	// Preview, when set, shows a person deciding whether to allow a call
	// what it would change (a unified diff for file writes); "" when there
	// is nothing to show. It must not change anything.
	Preview func(args json.RawMessage) string
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
	// Failed means the action ran but did not succeed (a command that
	// exited non-zero or timed out, a program that stopped with an error).
	// The model sees the result as usual, but it is not evidence of work:
	// narration after it does not end a run whose finish policy asks for
	// evidence.
	Failed bool
	// Summary says what the call did in a few words, for the one line a
	// screen gives the call: "12 lines", "3 matches in 2 files", "+4 −1".
	// The model never sees it; Content says the same and more.
	Summary string
}

// Text returns a successful text result.
func Text(s string) Result { return Result{Content: s} }

// Summed returns a successful text result with a summary for a screen.
func Summed(content, summary string) Result { return Result{Content: content, Summary: summary} }

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
