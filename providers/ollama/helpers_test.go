package ollama

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
	"github.com/llmrt/llmrt/providers/openai"
)

// ndjson answers 200 with an application/x-ndjson body flushed line by
// line, the way Ollama streams.
func ndjson(body string) *replay.Recording {
	rec := &replay.Recording{StreamFormat: "ndjson"}
	rec.Response.Status = http.StatusOK
	rec.Response.Headers = http.Header{"Content-Type": {"application/x-ndjson"}}
	rec.Response.BodyRaw = body
	return rec
}

// nativeLine is one /api/chat NDJSON line as Ollama writes it.
type nativeLine struct {
	Model     string `json:"model"`
	CreatedAt string `json:"created_at"`
	Message   struct {
		Role      string         `json:"role"`
		Content   string         `json:"content"`
		Thinking  string         `json:"thinking,omitempty"`
		ToolCalls []wireToolCall `json:"tool_calls,omitempty"`
	} `json:"message"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason,omitempty"`
	PromptEvalCount int    `json:"prompt_eval_count,omitempty"`
	EvalCount       int    `json:"eval_count,omitempty"`
}

// transcode turns a recording of Ollama's OpenAI-compatible endpoint into
// the native /api/chat stream of the same generation. The recordings of
// tool calls, thinking and cloud models were all made through /v1; the
// generation behind both endpoints is the same, only the framing differs.
// The recording is replayed through the openai adapter, and its chunks are
// written back as Ollama's native server writes them: one line per text or
// thinking delta, pending tool calls whole on one line, then a done line
// with done_reason and token counts. withIDs says whether tool calls carry
// ids and indexes (Ollama 0.12 and later) or neither (older releases).
func transcode(t testing.TB, file string, withIDs bool) *replay.Recording {
	t.Helper()
	rec := replay.Load(t, file)
	srv := replay.Serve(t, rec)
	p := openai.New(openai.Config{Name: openai.NameCompatible, BaseURL: srv.URL + "/v1"})
	var chunks []providers.Chunk
	req := &providers.Request{Model: rec.Model, Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "x")}}
	if err := p.Stream(t.Context(), req, func(c providers.Chunk) { chunks = append(chunks, c) }); err != nil {
		t.Fatalf("transcode %s: %v", file, err)
	}

	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	write := func(l *nativeLine) {
		l.Model, l.CreatedAt, l.Message.Role = rec.Model, "2025-08-20T13:48:24.316155Z", "assistant"
		if err := enc.Encode(l); err != nil {
			t.Fatal(err)
		}
	}
	var pending []wireToolCall
	flushCalls := func() {
		if len(pending) > 0 {
			for i := range pending {
				if len(pending[i].Function.Arguments) == 0 {
					pending[i].Function.Arguments = json.RawMessage("{}")
				}
			}
			var l nativeLine
			l.Message.ToolCalls = pending
			write(&l)
			pending = nil
		}
	}
	var usage providers.Usage
	for _, c := range chunks {
		if c.Type != providers.ChunkToolCall {
			flushCalls()
		}
		var l nativeLine
		switch c.Type {
		case providers.ChunkText:
			l.Message.Content = c.Text
			write(&l)
		case providers.ChunkReasoning:
			l.Message.Thinking = c.Text
			write(&l)
		case providers.ChunkToolCall:
			d := c.ToolCall
			if d.Name != "" || len(pending) == 0 {
				tc := wireToolCall{Function: wireFunction{Name: d.Name}}
				if withIDs {
					tc.ID, tc.Function.Index = d.ID, &d.Index
				}
				pending = append(pending, tc)
			}
			last := &pending[len(pending)-1].Function
			last.Arguments = append(last.Arguments, d.Arguments...)
		case providers.ChunkUsage:
			usage = c.Usage
		case providers.ChunkStop:
			l.Done, l.DoneReason = true, "stop"
			if c.Stop == providers.StopLength {
				l.DoneReason = "length"
			}
			l.PromptEvalCount, l.EvalCount = usage.InputTokens, usage.OutputTokens
			write(&l)
		}
	}
	return ndjson(b.String())
}

func userRequest(text string, tools ...string) *providers.Request {
	req := &providers.Request{Model: "qwen3", Messages: []providers.Message{providers.TextMessage(providers.RoleUser, text)}}
	for _, name := range tools {
		req.Tools = append(req.Tools, providers.ToolSpec{Name: name, Description: name,
			Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)})
	}
	return req
}

// countType counts the chunks of one type.
func countType(chunks []providers.Chunk, t providers.ChunkType) int {
	n := 0
	for _, c := range chunks {
		if c.Type == t {
			n++
		}
	}
	return n
}
