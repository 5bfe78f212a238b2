package engine

import (
	"context"
	"errors"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// This file gathers what a program embedding the engine needs besides the
// Runtime, so the common program imports engine and the adapters it uses,
// nothing else: message and tool-result helpers, the names of roles,
// evidence kinds and reasoning efforts, built-in tool presets and the
// sentinel errors for errors.Is.

// Provider is one model API; the adapters in providers/... implement it.
type Provider = providers.Provider

// Role is the author of a message.
type Role = providers.Role

// The four roles of a conversation.
const (
	RoleSystem    = providers.RoleSystem
	RoleUser      = providers.RoleUser
	RoleAssistant = providers.RoleAssistant
	RoleTool      = providers.RoleTool
)

// TextMessage returns a message holding a single text part.
func TextMessage(role Role, text string) Message { return providers.TextMessage(role, text) }

// UserMessage returns a user message holding text.
func UserMessage(text string) Message { return providers.TextMessage(RoleUser, text) }

// SystemMessage returns a system message holding text. System messages
// may appear anywhere in a conversation; the engine keeps their order.
func SystemMessage(text string) Message { return providers.TextMessage(RoleSystem, text) }

// ToolResultMessage returns the tool message answering call, for
// resuming a run that paused on host-owned calls (Result.PendingCalls).
func ToolResultMessage(call ToolCall, content string, isError bool) Message {
	return providers.ToolResultMessage(call, content, isError)
}

// Kind is a tool's evidence kind: what a successful call proves about the
// run's work, and whether the permission policy treats it as a change.
type Kind = tools.Kind

// Evidence kinds.
const (
	KindNone           = tools.KindNone
	KindInteraction    = tools.KindInteraction
	KindRead           = tools.KindRead
	KindWrite          = tools.KindWrite
	KindExternalAction = tools.KindExternalAction
)

// Executor runs one call of a host tool with arguments already validated
// against its schema. A returned error is broken infrastructure; a
// failure the model should see is a ToolResult with IsError set.
type Executor = tools.Executor

// ToolResult is what an Executor returns: the text (and media) the model
// sees.
type ToolResult = tools.Result

// TextResult returns a successful tool result holding s.
func TextResult(s string) ToolResult { return tools.Text(s) }

// JSONResult returns a successful tool result holding v as compact JSON.
func JSONResult(v any) ToolResult { return tools.JSON(v) }

// ErrorResult returns a tool result the model sees as an error.
func ErrorResult(format string, args ...any) ToolResult { return tools.Errorf(format, args...) }

// FuncTool returns a host tool whose arguments are a value of type In,
// usually a struct: its schema is inferred from In (json tags name the
// properties, omitempty makes one optional, a jsonschema tag describes it),
// the run validates every call against that schema, and fn gets the
// arguments decoded. It is tools.Func; see there for the details. The
// error is misuse, such as an In that is not a struct.
func FuncTool[In any](name, description string, kind Kind, fn func(ctx context.Context, in In) (ToolResult, error)) (Tool, error) {
	return tools.Func(name, description, kind, fn)
}

// AskInput is the payload of an ask_user_input call: the questions an
// Asker puts to a person (Question.Input).
type AskInput = tools.AskInput

// Answer is what a person chose in reply to an AskInput; an Asker returns
// it, and AskInput.Resolve checks it against the questions.
type Answer = tools.Answer

// Effort is a reasoning-effort level; empty keeps the provider's default.
type Effort = providers.Effort

// Reasoning effort levels.
const (
	EffortNone   = providers.EffortNone
	EffortLow    = providers.EffortLow
	EffortMedium = providers.EffortMedium
	EffortHigh   = providers.EffortHigh
)

// defaultBuiltIns are the built-ins of a request that names none: they
// read the workspace and do nothing else.
var defaultBuiltIns = []string{"read_file", "list_files", "search_files", "path_exists"}

// DefaultBuiltIns returns the built-in tools a Request with nil BuiltIns
// gets: read_file, list_files, search_files and path_exists. They only
// read files inside Request.WorkDir: no commands, no programs, no
// sub-runs, no writes, no network and no questions for a person. Select more explicitly (AllBuiltIns, or a
// list of names) and choose a permission mode to go with them. A nil
// BuiltIns also offers load_skill when the runtime has skills; a list,
// this one included, offers it only when it names LoadSkillTool.
func DefaultBuiltIns() []string { return append([]string(nil), defaultBuiltIns...) }

// AllBuiltIns returns the name of every built-in a Request's BuiltIns may
// name: the workspace tools of package tools (the file tools, shell_cmd,
// web_fetch, ask_user_input), then the engine's run_code and spawn_agent,
// then load_skill (LoadSkillTool), offered when the runtime has skills.
// In the library's default permission mode (auto) the mutating ones run
// without asking anyone; use ModeAsk with an Approver, or ModeRead, when
// that is not what you want.
func AllBuiltIns() []string {
	return append(tools.BuiltinNames(), RunCodeTool, SpawnAgentTool, LoadSkillTool)
}

// Sentinel errors, for errors.Is on the error Complete, Generate and
// Runtime.New return and on Result.Err. A *RunError matches the sentinel
// of its code; misuse errors (CodeInvalidRequest) may also match a more
// precise one such as ErrNoProvider.
var (
	// ErrInvalidRequest: the request or configuration is unusable.
	ErrInvalidRequest = errors.New("invalid request")
	// ErrNoProvider: the request names no provider, or one the Runtime
	// does not know, or no model for it. It is also an ErrInvalidRequest.
	ErrNoProvider = errors.New("no usable provider")
	// ErrClosed: the Runtime has been closed. It is also an
	// ErrInvalidRequest.
	ErrClosed = errors.New("runtime closed")
	// ErrProvider: a provider call failed after its retries. The
	// *providers.Error is in the chain too.
	ErrProvider = errors.New("provider error")
	// ErrMaxIterations: the run used all its model calls.
	ErrMaxIterations = errors.New("max iterations reached")
	// ErrBudget: the run used more tokens than Request.TokenBudget.
	ErrBudget = errors.New("token budget exceeded")
	// ErrCancelled: the run's context ended. The context's error is in
	// the chain too.
	ErrCancelled = errors.New("cancelled")
	// ErrBlocked: the model said it cannot continue (the blocked tool).
	ErrBlocked = errors.New("blocked")
	// ErrEmptyResponse: the model kept returning empty replies.
	ErrEmptyResponse = errors.New("empty response")
	// ErrRepeatedToolCalls: the model repeated the same calls after being
	// told not to.
	ErrRepeatedToolCalls = errors.New("repeated tool calls")
	// ErrInvalidAnswer: the model's answers kept failing the request's
	// AnswerSchema.
	ErrInvalidAnswer = errors.New("invalid answer")
)

var codeErrors = map[ErrorCode]error{
	CodeInvalidRequest:    ErrInvalidRequest,
	CodeProviderError:     ErrProvider,
	CodeMaxIterations:     ErrMaxIterations,
	CodeBudgetExceeded:    ErrBudget,
	CodeCancelled:         ErrCancelled,
	CodeBlocked:           ErrBlocked,
	CodeEmptyResponse:     ErrEmptyResponse,
	CodeRepeatedToolCalls: ErrRepeatedToolCalls,
	CodeInvalidAnswer:     ErrInvalidAnswer,
	CodeInvalidToken:      ErrInvalidToken,
	CodeTokenInUse:        ErrTokenInUse,
}

// Is reports whether target is the sentinel error of e's code, so
// errors.Is(err, ErrMaxIterations) works on any error wrapping e.
func (e *RunError) Is(target error) bool {
	return target != nil && codeErrors[e.Code] == target
}

// Err returns the run's error as a Go error, or nil when the run
// completed or paused on host-owned calls. Unlike Result.Error, a nil
// result is a nil interface, so `if err := res.Err(); err != nil` is safe.
func (r Result) Err() error {
	if r.Error == nil {
		return nil
	}
	return r.Error
}
