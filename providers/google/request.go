package google

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// thoughtSigPrefix marks a signature that came on a thought part, so it goes
// back on a thought part; a bare signature came on a text part.
const thoughtSigPrefix = "thought:"

// skipSignature is the value Gemini documents for function calls whose
// thought signature is unknown (history from another model or provider).
// Gemini 3 rejects a model turn whose first call has no signature.
const skipSignature = "skip_thought_signature_validator"

// buildConfig converts the request options. Warnings are for options the
// call cannot honour.
func (p *Provider) buildConfig(req *providers.Request, names *adapter.NameCodec) (*genai.GenerateContentConfig, []providers.Warning) {
	cfg := &genai.GenerateContentConfig{
		// The SDK's automatic continuation re-sends a broken stream; retries
		// belong to providers.RetryPolicy.
		AutomaticContinuation: genai.Ptr(false),
		MaxOutputTokens:       int32(req.MaxTokens),
		ThinkingConfig:        thinking(req.Model, req.ReasoningEffort, req.MaxTokens),
	}
	if req.Temperature != nil {
		cfg.Temperature = genai.Ptr(float32(*req.Temperature))
	}
	if system, _ := providers.SplitSystem(req.Messages); system != "" {
		cfg.SystemInstruction = &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{{Text: system}}}
	}
	var decls []*genai.FunctionDeclaration
	for _, t := range req.Tools {
		decls = append(decls, &genai.FunctionDeclaration{
			Name:                 names.Wire(t.Name),
			Description:          t.Description,
			ParametersJsonSchema: jsonSchema(t.Schema()),
		})
	}
	if len(decls) > 0 {
		cfg.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	}
	var warnings []providers.Warning
	switch {
	case req.WebSearch == nil:
	case len(decls) > 0:
		warnings = append(warnings, providers.Warning{Code: "web_search_ignored",
			Message: "google: Google Search grounding cannot be combined with function calling on most Gemini models; the request was sent with its function tools only"})
	default:
		cfg.Tools = []*genai.Tool{{GoogleSearch: &genai.GoogleSearch{}}}
	}
	return cfg, warnings
}

// thinking maps the reasoning effort to a thinking budget. The empty effort
// keeps the model's own budget but asks for thought summaries, except on
// models that cannot think, which reject any thinking config.
func thinking(model string, effort providers.Effort, maxTokens int) *genai.ThinkingConfig {
	var budget int32
	switch effort {
	case providers.EffortNone:
		return &genai.ThinkingConfig{ThinkingBudget: genai.Ptr[int32](0)}
	case providers.EffortLow:
		budget = 1024
	case providers.EffortMedium:
		budget = 8192
	case providers.EffortHigh:
		budget = 24576
	default:
		if !thinks(model) {
			return nil
		}
		return &genai.ThinkingConfig{IncludeThoughts: true}
	}
	// Thinking counts against the output limit: leave room for the answer.
	if maxTokens > 0 && int(budget) > maxTokens/2 {
		budget = int32(max(maxTokens/2, 128))
	}
	return &genai.ThinkingConfig{IncludeThoughts: true, ThinkingBudget: &budget}
}

// thinks reports whether a model can think (Gemini 2.5 and later).
func thinks(model string) bool {
	m := strings.ToLower(model[strings.LastIndexByte(model, '/')+1:])
	if strings.HasPrefix(m, "gemini-1.") || strings.HasPrefix(m, "gemma") ||
		(strings.HasPrefix(m, "gemini-2.0") && !strings.Contains(m, "thinking")) {
		return false
	}
	return !strings.Contains(m, "-image") && !strings.Contains(m, "-tts")
}

// jsonSchema prepares a tool's JSON Schema for parametersJsonSchema, which
// takes standard JSON Schema (additionalProperties, enums, nesting, arrays):
// only the top-level $schema, which it does not know, is dropped.
func jsonSchema(params json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(params, &obj) != nil {
		return params // not an object: let the API say what is wrong
	}
	if _, ok := obj["$schema"]; !ok {
		return params
	}
	delete(obj, "$schema")
	out, _ := json.Marshal(obj)
	return out
}

// userParts converts user content: text, images and PDFs as inline data,
// text documents as text.
func userParts(parts []providers.Part) ([]*genai.Part, error) {
	var out []*genai.Part
	for _, part := range parts {
		switch part.Type {
		case providers.PartText:
			if part.Text != "" {
				out = append(out, &genai.Part{Text: part.Text})
			}
		case providers.PartImage, providers.PartDocument:
			gp, err := mediaPart(part)
			if err != nil {
				return nil, err
			}
			out = append(out, gp)
		default:
			return nil, fmt.Errorf("unknown content part type %q", part.Type)
		}
	}
	return out, nil
}

// mediaPart converts an image or document to the part Gemini takes for it.
func mediaPart(part providers.Part) (*genai.Part, error) {
	mt := part.MIME()
	switch {
	case part.Type == providers.PartImage:
		switch mt {
		case "image/png", "image/jpeg", "image/webp", "image/heic", "image/heif":
			return &genai.Part{InlineData: &genai.Blob{MIMEType: mt, Data: part.Data}}, nil
		}
		return nil, fmt.Errorf("cannot send a %s image %q: Gemini takes PNG, JPEG, WEBP, HEIC and HEIF images", mt, part.Name)
	case mt == "application/pdf":
		return &genai.Part{InlineData: &genai.Blob{MIMEType: mt, Data: part.Data}}, nil
	case strings.HasPrefix(mt, "text/"):
		text, _ := part.DocumentText()
		return &genai.Part{Text: text}, nil
	}
	return nil, fmt.Errorf("cannot send a %s document %q: Gemini takes PDFs, text and images", mt, part.Name)
}

// signature decodes a stored signature: base64 as the API sends it, or the
// URL-safe form other clients store (the API takes both). One that does not
// decode was not made by Gemini and is not sent.
func signature(s string) []byte {
	if s == "" {
		return nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b
		}
	}
	return nil
}

// callArgs parses a call's argument JSON. Gemini takes an object; text that
// is not one (history from a model that produced broken JSON) is kept
// under one key so the model still sees what it sent.
func callArgs(args string) map[string]any {
	if strings.TrimSpace(args) == "" {
		return nil
	}
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return map[string]any{"raw_arguments": args}
	}
	return m
}
