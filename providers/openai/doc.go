// Package openai is the adapter for the Chat Completions API and the APIs
// that speak it: OpenAI itself, Azure OpenAI (classic deployments, the
// /openai/v1 API and Azure AI Foundry's /models endpoint), xAI, and any
// OpenAI-compatible server (Groq, OpenRouter, DeepSeek, Mistral, llama.cpp,
// vLLM, ...).
//
// It owns the conversion of neutral requests to the wire (messages, tools
// with encoded names, images and PDFs, reasoning effort, web search) and the
// parsing of the streamed reply into neutral chunks. Wire types come from
// github.com/sashabaranov/go-openai where they fit; the HTTP call goes
// through the adapters' shared HTTP call, with its response and idle time
// limits, and the stream is parsed with
// github.com/tmaxmax/go-sse, because go-openai's own stream reader drops
// in-stream error messages, treats a cut stream as a clean end and loses
// Retry-After.
package openai
