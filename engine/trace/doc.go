// Package trace writes the log of `llmrt run --trace FILE`: a JSONL record
// of every engine event of one or more runs, framed by lines that make a
// run easy to find and summarise:
//
//	{"type":"run.start","time":"…","run_id":"run_…","provider":"openai","model":"gpt-5"}
//	{"type":"event","event":{"type":"run_start",…}}
//	{"type":"event","event":{"type":"model_start",…}}
//	…
//	{"type":"event","event":{"type":"completed",…,"result":{…}}}
//	{"type":"run.success","time":"…","run_id":"run_…","status":"completed","output":"…"}
//	{"type":"run.end","time":"…","run_id":"run_…","status":"completed","usage":{…},"iterations":2,"duration_ms":5123}
//
// The outcome line is run.success (completed), run.paused (tool_calls,
// with the pending calls and pause_kind: question or host_tool) or run.error (failed, cancelled; with the error
// code and message). Event lines hold the engine's stable event JSON, the
// same as `--output stream-json`. Sub-runs get their own run.start and
// run.end lines, marked with parent_id.
//
// Each line is one write call on an unbuffered file, so the log is complete
// up to the last event even if the process is killed. Unlike session files
// the trace is not synced per line: it carries every delta, and an fsync
// per delta would slow the run to the disk's pace for a debugging aid.
//
// A trace holds what the events hold and nothing else: no API keys, headers
// or base URLs are added. Events can still carry a secret (a tool result
// that printed a key); a host that knows its secrets sets Writer.Redact,
// and Writer.RedactStream for a secret streamed across deltas.
package trace
