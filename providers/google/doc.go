// Package google is the adapter for the Gemini API (generateContent,
// streamed as server-sent events with streamGenerateContent?alt=sse),
// spoken directly over net/http.
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
// The wire types (wire.go) declare only the fields the adapter writes and
// reads. The stream is parsed with the adapters' event-stream reader
// (providers/internal/sse); a text or thought response, nearly every event,
// is read directly with the adapter package's scanners (fastresponse.go),
// any other decoded in one pass; a body that
// is not an event stream is sniffed and read as JSON (body.go): the
// streamed JSON array the API sends without alt=sse and single
// generateContent objects, with string or integer enums, so recordings of
// every shape replay through the same code. Error bodies keep their
// status, message and RetryInfo wait; a body that breaks off or stalls is
// a reported, retryable failure. The adapter makes one attempt per call:
// providers.RetryPolicy retries.
//
// Google's SDK (google.golang.org/genai) is not used: for one HTTP call
// and a JSON stream it linked grpc, protobuf, opencensus and Google's
// auth libraries into every llmrt binary, about 8 MB and their init work.
package google
