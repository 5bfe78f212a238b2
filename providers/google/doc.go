// Package google is the adapter for the Gemini API (generateContent,
// streamed as server-sent events with streamGenerateContent?alt=sse),
// built on google.golang.org/genai.
//
// It owns the conversion of neutral requests to Gemini contents — real
// functionCall and functionResponse parts with their ids, thought
// signatures sent back on the kind of part they came on, images and PDFs
// as inline data, tool names Gemini would reject encoded, JSON Schemas
// sent as parametersJsonSchema, reasoning effort as a thinking budget, web
// search as Google Search grounding for calls without function tools — and
// the parsing of the streamed reply into neutral chunks.
//
// Web search is Google Search grounding. Most Gemini models cannot combine
// it with function calling, so a request that has function tools is sent
// without it and gets a web_search_ignored warning: grounding applies to
// tool-less calls (engine Generate without tools), not to loop runs, which
// always carry the control tools.
//
// The SDK makes the call; a small transport under it (transport.go) fills
// in what the SDK hides or would get wrong for llmrt: it records the HTTP
// status, headers (Retry-After) and error body of each call, turns a broken
// or stalled body into a reported failure instead of an SDK log line, and
// re-frames JSON bodies — the streamed JSON array the API sends without
// alt=sse, and single generateContent objects, with string or integer
// enums — as SSE, so recordings of every shape replay through the same
// parser. The SDK's own retries and automatic stream continuation are
// turned off: providers.RetryPolicy retries.
package google
