// Package ollama is the adapter for Ollama's native chat API: POST
// {server}/api/chat, streamed as newline-delimited JSON. Ollama
// has no light official Go client, so the adapter speaks the wire format
// itself: the request goes through the adapters' shared HTTP call, with its
// response and idle time limits. The NDJSON reply is read a whole line at
// a time, and content and thinking lines, nearly every line of a reply, are
// read directly with the adapter package's scanners (lines.go,
// fastline.go); from the first line of another shape on, encoding/json's
// Decoder splits the reply and each value is decoded in one pass
// (adapter.DecodeFast), exactly as before the direct path.
//
// It owns the conversion of neutral requests to the wire (system text merged
// into one leading system message, images as base64, tool calls with object
// arguments, tool results carrying tool_name, thinking sent back, the think
// switch), the parsing of the stream into neutral chunks (content, thinking,
// whole tool calls, usage, done_reason), and a fallback for small models
// that write a tool call as JSON text instead of using the native
// tool_calls field: such text is read back as the call it describes.
package ollama
