// Package scripted is a deterministic provider that answers from a script
// file of turns, for offline demos and tests. The request's
// model is the script's path.
//
// A script is a JSON object {"turns": [...]} (or a bare array of turns).
// Each turn may hold reasoning, text, tool_calls ({id?, name, arguments}
// with arguments as a JSON value or a raw string; a missing id becomes
// call_<turn>_<n>), usage, stop (natural,
// length, ...), delay_ms before the reply, chunk_delay_ms between streamed
// pieces, and error ({status, message, retry_after_ms, after_output,
// after_call_header, argument_bytes}) to simulate a failure. A request
// with Raw set gets the turn itself, as JSON, as its one raw chunk.
//
// Turn N answers the N-th model call: N counts the assistant messages in the
// request plus the earlier calls this provider saw at the same point of the
// conversation (empty replies and retried failures are not stored as
// messages). So a run resumed in a new process, whose history holds the
// earlier assistant messages, continues where the script left off. Running
// past the last turn is an error, never an invented reply.
package scripted
