// Package anthropic is the adapter for Anthropic's Messages API, streamed.
//
// It owns the conversion of neutral requests to the wire (every system
// message merged into the one system field, tool_use/tool_result pairing with
// consecutive tool results in one user turn, thinking blocks and their
// signatures replayed in front of the assistant turn they belong to, images
// and PDFs as content blocks, extended thinking from the reasoning effort,
// the web search server tool, prompt-cache breakpoints on the stable prefix)
// and the parsing of the event stream into neutral chunks.
//
// The HTTP call and the SSE decoding go through
// github.com/anthropics/anthropic-sdk-go with its own retries turned off
// (providers.RetryPolicy decides) and an http.Client whose transport
// enforces the Timeouts, so a server that never answers or a stream that
// stalls fails instead of hanging the run.
package anthropic
