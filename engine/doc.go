// Package engine owns the completion loop of SPEC §3 and the library API of
// SPEC §2: a Runtime holds providers and defaults; Generate makes one model
// call; Complete and Stream run the bounded model/tool loop with the
// final_answer and blocked control tools, tool validation and execution,
// permissions, recovery notes and bounds; ResolveTools and ExecuteToolCall
// expose the tool surface to hosts that own their own loop.
//
// The engine never prints and never reads a terminal. Everything a run does
// is reported as Events (one type, SPEC §3.9) ending in exactly one
// terminal event that carries the Result; questions for a person leave the
// engine through the Approver interface or a host-owned tool call.
package engine
