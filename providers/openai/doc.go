// Package openai holds the adapters for OpenAI's two APIs.
//
// Provider speaks Chat Completions, for OpenAI itself and the APIs that
// speak it: Azure OpenAI (classic deployments, the /openai/v1 API and
// Azure AI Foundry's /models endpoint), xAI, and any OpenAI-compatible
// server (Groq, OpenRouter, DeepSeek, Mistral, llama.cpp, vLLM, ...).
// Wire types come from github.com/sashabaranov/go-openai where they fit.
//
// Responses speaks the Responses API (/responses), which OpenAI's
// reasoning models need to keep their reasoning across tool calls. Calls
// are stateless (store: false); each reasoning item's id and encrypted
// content travel as the signature of a neutral reasoning block and are
// replayed in front of the text or calls they led to.
//
// Both own the conversion of neutral requests to the wire (messages, tools
// with encoded names, images and PDFs, reasoning effort, web search) and
// the parsing of the streamed reply into neutral chunks. The HTTP call goes
// through the adapters' shared HTTP call, with its response and idle time
// limits, and streams are parsed with the adapters' own event-stream
// reader (providers/internal/sse), because go-openai's stream reader drops
// in-stream error messages, treats a cut stream as a clean end and loses
// Retry-After. The delta events that make up nearly every byte of a reply
// (a chunk of text, reasoning or call arguments; a Responses text,
// reasoning or argument delta) are read directly with the adapter
// package's scanners (fastchunk.go, responses_fast.go); any other event is
// decoded in one pass into a reused value with only the fields read
// (adapter.DecodeFast), and encoding/json decides what happens to a
// payload that pass refuses.
package openai
