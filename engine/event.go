package engine

import (
	"encoding/json"
	"time"

	"github.com/llmrt/llmrt/tools"
)

// EventType names an event; docs/design.md lists them with their meaning.
type EventType string

// Event types, in the order a run produces them. The last four are
// terminal: a run emits exactly one of them, last.
const (
	EventRunStart          EventType = "run_start"
	EventModelStart        EventType = "model_start"
	EventTextDelta         EventType = "text_delta"
	EventReasoningDelta    EventType = "reasoning_delta"
	EventToolCallDelta     EventType = "tool_call_delta"
	EventAnswerDelta       EventType = "answer_delta"
	EventAssistantMessage  EventType = "assistant_message"
	EventToolStart         EventType = "tool_start"
	EventToolProgress      EventType = "tool_progress"
	EventToolResult        EventType = "tool_result"
	EventToolError         EventType = "tool_error"
	EventPermissionRequest EventType = "permission_request"
	EventQuestion          EventType = "question"
	EventUsage             EventType = "usage"
	EventWarning           EventType = "warning"
	// EventRaw carries one payload as the adapter received it; only runs
	// whose Request.Raw is set have them.
	EventRaw EventType = "raw"

	EventCompleted EventType = "completed"
	EventToolCalls EventType = "tool_calls"
	EventFailed    EventType = "failed"
	EventCancelled EventType = "cancelled"
)

// Sink receives a run's events. The engine calls it from the run's
// goroutines one event at a time; it must not block for long.
type Sink func(Event)

// FanOut returns a Sink that hands each event to every non-nil sink, in
// order: the TUI or printer, the session writer, the trace writer.
func FanOut(sinks ...Sink) Sink {
	live := make([]Sink, 0, len(sinks))
	for _, s := range sinks {
		if s != nil {
			live = append(live, s)
		}
	}
	return func(ev Event) {
		for _, s := range live {
			s(ev)
		}
	}
}

// Terminal reports whether t ends a run.
func (t EventType) Terminal() bool {
	switch t {
	case EventCompleted, EventToolCalls, EventFailed, EventCancelled:
		return true
	}
	return false
}

// Event is one thing that happened in a run. Which optional fields are set
// depends on Type; the JSON form is what `--output stream-json` prints and
// is stable.
//
// Every message a run appends to the conversation is visible as an event:
// assistant_message for replies, and tool_result or tool_error for every
// tool message, including results the engine made itself (control calls,
// refused, skipped and cancelled calls). A consumer can therefore persist
// the conversation as it grows; results of concurrent calls arrive in
// completion order, while Result.Messages holds them in model order.
//
// A tool that runs a sub-run (spawn_agent) may pass the sub-run's events
// to its parent's consumer (Caller.Forward). They keep their own RunID and
// carry ParentID, the parent's run id; the sub-run's own terminal event is
// among them, so a consumer that persists one conversation or waits for
// "the" terminal event looks only at events without a ParentID.
type Event struct {
	Type      EventType `json:"type"`
	RunID     string    `json:"run_id"`
	Iteration int       `json:"iteration"`
	ParentID  string    `json:"parent_id,omitempty"`
	Time      time.Time `json:"time"`

	// Provider and Model are set on run_start and model_start. On raw
	// events Provider is the adapter's own name (Provider.Name), which
	// says how to read Raw.
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	// Delta is the new text of text_delta, reasoning_delta and
	// answer_delta, and the argument fragment of tool_call_delta.
	Delta string `json:"delta,omitempty"`
	// Call identifies the tool call of tool_call_delta, tool_start,
	// tool_progress, tool_result, tool_error and permission_request; on a
	// sub-run's run_start, the spawn_agent call that started it.
	Call *CallInfo `json:"call,omitempty"`
	// Message is the complete reply of assistant_message, and on
	// tool_result and tool_error the exact tool message appended to the
	// conversation (unset for calls outside the loop and for calls made by
	// a running tool, whose results are not appended).
	Message *Message `json:"message,omitempty"`
	// Outcome is the result of tool_result and tool_error.
	Outcome *ToolOutcome `json:"outcome,omitempty"`
	// Progress is the report of tool_progress.
	Progress *tools.Progress `json:"progress,omitempty"`
	// Permission is the question of permission_request.
	Permission *PermissionRequest `json:"permission,omitempty"`
	// Question is the ask_user_input call of a question event.
	Question *Question `json:"question,omitempty"`
	// Usage is the run's running token total on usage events.
	Usage *Usage `json:"usage,omitempty"`
	// Warning is set on warning events.
	Warning *Warning `json:"warning,omitempty"`
	// Result is set on terminal events.
	Result *Result `json:"result,omitempty"`
	// Raw, on raw events, is one payload as the adapter received it: the
	// data of a server-sent event, a line of a JSON stream, an element of
	// a streamed JSON array (providers.ChunkRaw). It comes right before
	// the events decoded from it, and holds what they leave out
	// (citations, logprobs, server-side tool results, ids).
	Raw json.RawMessage `json:"raw,omitempty"`
	// Compacted, on a context_compacted warning, is the whole conversation
	// the run continues from, so a session store can resume from it.
	Compacted []Message `json:"compacted,omitempty"`
}

// CallInfo identifies a tool call in events.
type CallInfo struct {
	// Index is the call's position in the model's reply.
	Index int    `json:"index"`
	ID    string `json:"id,omitempty"`
	Name  string `json:"name,omitempty"`
	// Arguments is set on tool_start (the full JSON) and permission_request.
	Arguments string     `json:"arguments,omitempty"`
	Kind      tools.Kind `json:"kind,omitempty"`
	// ParentID, on a call made by a running tool (a run_code program's
	// inner calls), is the id of that tool's call.
	ParentID string `json:"parent_id,omitempty"`
}

// Outcome codes of tool results that did not come from the tool itself.
const (
	OutcomeUnknownTool      = "unknown_tool"
	OutcomeInvalidArguments = "invalid_arguments"
	OutcomePermissionDenied = "permission_denied"
	OutcomeNotRun           = "not_run"
	OutcomeCancelled        = "cancelled"
)

// ToolOutcome is the result of one tool call as the model sees it.
type ToolOutcome struct {
	Content string `json:"content"`
	Parts   []Part `json:"parts,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
	// Failed says the tool ran but its action did not succeed: a command
	// that exited non-zero or timed out. The model reads it in Content.
	Failed bool `json:"failed,omitempty"`
	// Summary is the tool's own few words on what the call did ("12
	// lines", "3 matches in 2 files"), for a screen's one line per call.
	Summary string `json:"summary,omitempty"`
	// Code is set when the engine, not the tool, produced the result:
	// unknown_tool, invalid_arguments, permission_denied, not_run,
	// cancelled, and no_evidence on a final_answer refused by the
	// evidence rule of host actions.
	Code       string `json:"code,omitempty"`
	DurationMS int64  `json:"duration_ms"`
	// Panic is set on the tool_error of a tool that panicked, for the
	// host's log: what it panicked with and the goroutine's stack. The
	// model sees only Content, one line naming the tool ("<tool> failed:
	// internal error"), and a warning event with code WarningToolPanicked
	// says it happened in one line; a screen shows those, never the stack.
	Panic *ToolPanic `json:"panic,omitempty"`
}

// ToolPanic is what a tool that panicked left behind, redacted like every
// result: the value it panicked with and the stack of the goroutine that
// ran it.
type ToolPanic struct {
	Value string `json:"value"`
	Stack string `json:"stack"`
}

// WarningToolPanicked is the code of the warning a run emits when a tool
// panics; the run goes on, and the tool_error event's Outcome.Panic holds
// the panic and its stack.
const WarningToolPanicked = "tool_panicked"
