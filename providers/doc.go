// Package providers owns the neutral, wire-facing types every model API is
// mapped to and from: messages with multipart content, tool calls, tool
// specifications, streamed chunks, usage and typed provider errors. It also
// holds the one Provider interface and the retry policy every provider call
// goes through. The HTTP plumbing the adapters share is internal to them.
//
// Each adapter lives in a sub-package (providers/openai, providers/scripted,
// ...). Adapters never print, never read the terminal, and never invent a
// reply: an unreachable server, a non-JSON body or an empty stream is an
// *Error naming the provider and URL.
package providers
