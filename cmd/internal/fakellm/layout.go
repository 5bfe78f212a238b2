package fakellm

import (
	"encoding/json"
	"strconv"
)

// The text deltas, nearly every event of a reply, are written laid out as
// each API lays them out: its key order, its spacing, the members it adds
// (an obfuscation pad, a sequence number, running usage). A client's fast
// path for the real layout is then what a test or a benchmark against this
// server exercises, and an event weighs what the API's does. Every other
// event is written from a map, its keys sorted.

// quote is s as a JSON string, escaped as encoding/json escapes it.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pad stands for OpenAI's obfuscation member, which pads each delta to
// hide its length.
const pad = `"fakePadding"`

// chatText is a Chat Completions text delta as OpenAI sends one.
func chatText(p string) string {
	return `{"id":"chatcmpl-fake","object":"chat.completion.chunk","created":1782321917,"model":"fake",` +
		`"service_tier":"default","system_fingerprint":"fp_fake","choices":[{"index":0,"delta":{"content":` + quote(p) +
		`},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":` + pad + `}`
}

// responsesText is a Responses API output text delta as OpenAI sends one.
func responsesText(p, item string, output, seq int) string {
	return `{"type":"response.output_text.delta","content_index":0,"delta":` + quote(p) + `,"item_id":` + quote(item) +
		`,"logprobs":[],"obfuscation":` + pad + `,"output_index":` + strconv.Itoa(output) +
		`,"sequence_number":` + strconv.Itoa(seq) + `}`
}

// responsesSummary is a Responses API reasoning summary delta as OpenAI
// sends one.
func responsesSummary(p, item string, output, seq int) string {
	return `{"type":"response.reasoning_summary_text.delta","delta":` + quote(p) + `,"item_id":` + quote(item) +
		`,"obfuscation":` + pad + `,"output_index":` + strconv.Itoa(output) +
		`,"sequence_number":` + strconv.Itoa(seq) + `,"summary_index":0}`
}

// anthropicDelta is a content block delta as Anthropic sends one: kind is
// text_delta or thinking_delta, field text or thinking.
func anthropicDelta(index int, kind, field, p string) string {
	return `{"type":"content_block_delta","index":` + strconv.Itoa(index) + `,"delta":{"type":"` + kind + `","` + field + `":` + quote(p) + `}}`
}

// geminiText is a text (or thought) response as Gemini streams one, a
// space after each colon.
func geminiText(p string, thought bool, in, out int) string {
	t := ""
	if thought {
		t = `,"thought": true`
	}
	return `{"candidates": [{"content": {"parts": [{"text": ` + quote(p) + t + `}],"role": "model"},"index": 0}],` +
		`"usageMetadata": {"promptTokenCount": ` + strconv.Itoa(in) + `,"candidatesTokenCount": ` + strconv.Itoa(out) +
		`,"totalTokenCount": ` + strconv.Itoa(in+out) + `,"promptTokensDetails": [{"modality": "TEXT","tokenCount": ` + strconv.Itoa(in) + `}]},` +
		`"modelVersion": "fake","responseId": "fake-response"}`
}

// ollamaLine is a content (or thinking) line as Ollama writes one.
func ollamaLine(content, thinking string) string {
	t := ""
	if thinking != "" {
		t = `,"thinking":` + quote(thinking)
	}
	return `{"model":"fake","created_at":"2026-11-22T00:00:00Z","message":{"role":"assistant","content":` + quote(content) + t + `},"done":false}`
}

// sseData writes one event whose data is written as given.
func (st *stream) sseData(event, data string) {
	if event != "" {
		st.frame("event: " + event + st.eol + "data: " + data + st.eol + st.eol)
		return
	}
	st.frame("data: " + data + st.eol + st.eol)
}
