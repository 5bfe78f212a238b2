package engine

import (
	"encoding/json"
	"fmt"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// Conversation types, shared with the providers package so a Result's
// messages can be sent to any provider as they are.
type (
	// Message is one entry of a conversation.
	Message = providers.Message
	// Part is one piece of multipart content.
	Part = providers.Part
	// ToolCall is a tool invocation requested by the model.
	ToolCall = providers.ToolCall
	// Usage counts tokens.
	Usage = providers.Usage
	// Tool is a tool definition, with an optional executor.
	Tool = tools.Tool
)

// FinishPolicy decides when a plain-text reply may end a run.
type FinishPolicy string

// Finish policies.
const (
	// FinishEvidence ends on text only after a successful mutating tool
	// result in this run; otherwise the model is told to continue.
	FinishEvidence FinishPolicy = "evidence"
	// FinishText ends on any non-empty text reply with a natural stop.
	FinishText FinishPolicy = "text"
)

// ParseFinish checks a finish policy name; the empty name is the default,
// FinishEvidence.
func ParseFinish(s string) (FinishPolicy, error) {
	switch f := FinishPolicy(s); f {
	case "":
		return FinishEvidence, nil
	case FinishEvidence, FinishText:
		return f, nil
	}
	return "", fmt.Errorf("unknown finish policy %q (use evidence or text)", s)
}

// Request is what Generate, Complete and Stream take. Its zero value, with
// Messages added, is a safe request: the Runtime's default provider and
// model, the read-only default built-ins confined to the process's working
// directory, and the default bounds.
type Request struct {
	// Provider names a configured provider; empty means the Runtime's
	// default (Config.Defaults.Provider, or its only provider).
	Provider string
	// Model is the provider's model; empty means Config.Defaults.Model
	// when the request uses the default provider.
	Model    string
	Messages []Message

	Temperature     *float64
	MaxTokens       int
	ReasoningEffort providers.Effort
	WebSearch       *providers.WebSearch
	// Raw adds a raw event for every payload the provider's adapter
	// receives during the run's model calls (see EventRaw), for hosts that
	// need what the other events leave out. Off, a run costs nothing more.
	// Generate, which has no events, and compaction's summary calls
	// ignore it.
	Raw bool

	// BuiltIns selects built-in tools by name. nil means DefaultBuiltIns,
	// the tools that only read the workspace, and load_skill when the
	// runtime has skills; an empty non-nil slice means none; AllBuiltIns
	// names every one. A list offers load_skill only if it names it
	// (LoadSkillTool). Unknown names are an error.
	BuiltIns []string
	// Tools are the host's tools. A tool without an executor is host-owned.
	Tools []Tool
	// WorkDir is the workspace: the file tools are confined to it and
	// shell_cmd runs there. Empty means the process's working directory.
	WorkDir string
	// Permission decides which tool calls run. Its zero value is auto
	// mode (or Config.Defaults.Permission): every selected tool runs
	// without asking, which is safe for the default built-ins and the
	// host's own tools; choose ModeAsk or ModeRead before selecting
	// shell_cmd or the writing tools.
	Permission Permission
	// Asker answers ask_user_input calls inline. Without it (and without
	// AskViaEvents) such calls pause the run with status tool_calls.
	Asker Asker
	// AskViaEvents makes ask_user_input calls wait for a QuestionReply
	// sent on the Reply channel of the question event (when Asker is nil).
	AskViaEvents bool

	// MaxIterations bounds model calls (default 24).
	MaxIterations int
	// EmptyRetryLimit bounds consecutive empty replies (default 2; negative
	// means none are retried).
	EmptyRetryLimit int
	// TokenBudget fails the run once its summed tokens pass it (0 = none).
	TokenBudget int
	// Retry is how this run's failed provider calls are retried. The zero
	// value means Config.Defaults.Retry, else the policy the adapter
	// declares (providers.RetryDefaulter), else none: with no policy
	// anywhere, calls are not retried. MaxAttempts 1 says "no retries".
	Retry  providers.RetryPolicy
	Finish FinishPolicy
	// AnswerSchema, when set, is the JSON Schema of a loop run's answer
	// (Complete, Stream; Generate ignores it): the answer parameter of
	// final_answer takes it (the model sees it in the tool's definition),
	// and the run completes only with a JSON value valid against it, in
	// Result.Structured. An answer that fails is sent back to the model
	// with the reason; so is a plain-text reply, read as JSON (a ```json
	// fence stripped) whatever the finish policy. A schema that does not
	// compile is an invalid_request error.
	AnswerSchema json.RawMessage
	// AnswerRetries bounds the answers that fail AnswerSchema: the one
	// after the last retry fails the run with code invalid_answer
	// (default 3; negative means none is retried).
	AnswerRetries int
	// MaxResultBytes caps each tool result the model sees (default 32 KiB).
	MaxResultBytes int
	// Redact, when set, rewrites the text of every tool result before the
	// model sees it. Hosts pass the values of the secrets they know (API
	// keys), so a command or a file that prints one does not send it to
	// the model. Sub-runs use the same function.
	Redact func(string) string
	// Hooks, when set, run around every tool call and before the run
	// completes (see Hooks). Sub-runs use the same hooks.
	Hooks Hooks

	// ContextWindow is the model's context window in tokens; zero means
	// the built-in table's value for the model (see ContextWindow), or
	// DefaultContextWindow for a model it does not know.
	ContextWindow int
	// Compaction keeps the conversation inside the window; on by default.
	Compaction Compaction

	// Environment, when set, is told to the model in the managed system
	// prompt: date, system, shell, working directory, git state. Give
	// every run of a session the same value (DetectEnvironment, computed
	// once), so the prompt's prefix stays the same from call to call.
	// Sub-runs inherit it.
	Environment *Environment

	// ParentID marks the events of a sub-run with its parent's run id.
	ParentID string
	// Diagnostics are problems the host found preparing this request (an
	// unknown configuration key, an ignored option). Result.Diagnostics
	// repeats them beside the runtime's own; those without a level or kind
	// are warnings of kind DiagRequest.
	Diagnostics []Diagnostic
	// Strict refuses to run with diagnostics: when the request's or the
	// runtime's (Runtime.Diagnostics) are not empty before the first model
	// call, Generate, Complete and Stream end with an invalid_request
	// error whose Err is a *DiagnosticsError. Config.Defaults.Strict makes
	// every request strict. Diagnostics found later (a context window
	// guessed mid-run) stay warnings.
	Strict bool

	// only, when set, limits the runtime's sources' tools (MCP tools,
	// load_skill) to those it names: an agent's sub-run gets no tool its
	// definition leaves out. Sub-runs of that sub-run inherit it.
	only map[string]bool
}

// Status is how a run ended.
type Status string

// Run statuses.
const (
	StatusCompleted     Status = "completed"
	StatusToolCalls     Status = "tool_calls"
	StatusFailed        Status = "failed"
	StatusMaxIterations Status = "max_iterations"
	StatusCancelled     Status = "cancelled"
)

// ErrorCode classifies a failed or stopped run.
type ErrorCode string

// Error codes; each matches a sentinel error (ErrBlocked, ErrProvider, ...)
// with errors.Is.
const (
	CodeBlocked           ErrorCode = "blocked"
	CodeProviderError     ErrorCode = "provider_error"
	CodeRepeatedToolCalls ErrorCode = "repeated_tool_calls"
	CodeEmptyResponse     ErrorCode = "empty_response"
	CodeBudgetExceeded    ErrorCode = "budget_exceeded"
	CodeMaxIterations     ErrorCode = "max_iterations"
	CodeCancelled         ErrorCode = "cancelled"
	CodeInvalidRequest    ErrorCode = "invalid_request"
	// CodeInvalidAnswer: every answer the model gave failed the request's
	// AnswerSchema, up to AnswerRetries times.
	CodeInvalidAnswer ErrorCode = "invalid_answer"
)

// RunError describes why a run did not complete. As a Go error it is what
// Complete returns for misuse (CodeInvalidRequest).
type RunError struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
	// Err is the underlying error (a *providers.Error for provider
	// failures); it is not serialised.
	Err error `json:"-"`
}

func (e *RunError) Error() string { return string(e.Code) + ": " + e.Message }

func (e *RunError) Unwrap() error { return e.Err }

// Warning is a problem that did not stop the run. It is the same type
// adapters report, so a provider's warning passes through unchanged.
type Warning = providers.Warning

// Diagnostic is a configuration problem found while preparing a run (a
// skill that does not parse, an MCP server that did not start, a tool
// left out because its name is taken, an unknown configuration key): a
// structured entry with a level, a kind (the Diag constants), where it is
// and what. Result.Diagnostics and Runtime.Diagnostics hold them, every
// one with its level and kind.
type Diagnostic = tools.Diagnostic

// Result is the outcome of Complete, and the payload of Stream's terminal
// event.
type Result struct {
	RunID  string `json:"run_id"`
	Status Status `json:"status"`
	Output string `json:"output"`
	// Messages is the whole conversation, the request's messages included.
	// Every tool call has a result except the PendingCalls of a tool_calls
	// run, which the host answers.
	Messages     []Message    `json:"messages"`
	PendingCalls []ToolCall   `json:"pending_calls,omitempty"`
	Error        *RunError    `json:"error,omitempty"`
	Usage        Usage        `json:"usage"`
	Iterations   int          `json:"iterations"`
	Warnings     []Warning    `json:"warnings,omitempty"`
	Diagnostics  []Diagnostic `json:"diagnostics,omitempty"`
	// Structured, on a completed run of a request with AnswerSchema, is
	// the answer as a JSON value valid against it; Output holds the same
	// value as compact JSON text.
	Structured json.RawMessage `json:"structured_output,omitempty"`
	// PauseKind, on a tool_calls run, says what it waits for.
	PauseKind PauseKind `json:"pause_kind,omitempty"`
	// Token, on a tool_calls run of a Runtime with Config.Checkpoints,
	// resumes it with Runtime.Resume, from any process sharing the store.
	Token string `json:"token,omitempty"`
}

// Response is the outcome of Generate: one model reply, as the providers
// package assembles it.
type Response = providers.Reply
