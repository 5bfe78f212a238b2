package engine

import "github.com/llmrt/llmrt/providers"

// WarningStreamRestarted is the code of the warning event that says a
// model call's reply stream broke off and the call is being made again
// from the start. It is emitted only while nothing of the call's answer has
// reached a consumer: under Stream or CompleteWith with an observer, a cut
// after an answer_delta is not restarted, and the run fails with
// provider_error instead. Complete has no consumer, so its cuts are
// restarted wherever they fall, and so are those of its sub-runs.
//
// The contract for consumers of the event stream (stream-json readers, the
// TUI, any host rendering deltas): on a warning event with this code, drop
// every text_delta, reasoning_delta and tool_call_delta of the same run_id
// received since that run's latest model_start. They belong to a reply
// that will never complete. The restarted reply then streams again from its
// beginning, with the same iteration and without a new model_start. No
// answer_delta is ever dropped, and nothing else is affected: usage,
// assistant_message and tool events are only emitted for calls that
// completed, so sessions and transcripts built from them hold no trace of
// the cut attempt. The event is emitted for every restart, even when an
// identical warning came before; Result.Warnings lists it once. Before the
// restart the engine waits the retry backoff, and each restart counts as
// one attempt of the Retry policy.
const WarningStreamRestarted = providers.WarnStreamRestarted
