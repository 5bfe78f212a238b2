package google

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

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

// buildRequest converts a neutral request to a generateContent body.
// Warnings are for options the call cannot honour.
func buildRequest(req *providers.Request, names *adapter.NameCodec) (*request, []providers.Warning, error) {
	contents, err := buildContents(req, names)
	if err != nil {
		return nil, nil, err
	}
	body := &request{Contents: contents}
	if system, _ := providers.SplitSystem(req.Messages); system != "" {
		body.SystemInstruction = &content{Role: "user", Parts: []part{{Text: system}}}
	}
	gc := generationConfig{
		Temperature:     req.Temperature,
		MaxOutputTokens: max(req.MaxTokens, 0),
		ThinkingConfig:  thinking(req.Model, req.ReasoningEffort, req.MaxTokens),
	}
	if gc != (generationConfig{}) {
		body.GenerationConfig = &gc
	}
	var decls []functionDeclaration
	for _, t := range req.Tools {
		decls = append(decls, functionDeclaration{
			Name:                 names.Wire(t.Name),
			Description:          t.Description,
			ParametersJSONSchema: jsonSchema(t.Schema()),
		})
	}
	if len(decls) > 0 {
		body.Tools = []tool{{FunctionDeclarations: decls}}
	}
	var warnings []providers.Warning
	switch {
	case req.WebSearch == nil:
	case len(decls) > 0:
		warnings = append(warnings, providers.Warning{Code: "web_search_ignored",
			Message: "google: Google Search grounding cannot be combined with function calling on most Gemini models; the request was sent with its function tools only"})
	default:
		body.Tools = []tool{{GoogleSearch: &struct{}{}}}
	}
	return body, warnings, nil
}

// thinking maps the reasoning effort to a thinking budget. The empty effort
// keeps the model's own budget but asks for thought summaries, except on
// models that cannot think, which reject any thinking config.
func thinking(model string, effort providers.Effort, maxTokens int) *thinkingConfig {
	var budget int
	switch effort {
	case providers.EffortNone:
		return &thinkingConfig{ThinkingBudget: &budget}
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
		return &thinkingConfig{IncludeThoughts: true}
	}
	// Thinking counts against the output limit: leave room for the answer.
	if maxTokens > 0 && budget > maxTokens/2 {
		budget = max(maxTokens/2, 128)
	}
	return &thinkingConfig{IncludeThoughts: true, ThinkingBudget: &budget}
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
func userParts(parts []providers.Part) ([]part, error) {
	var out []part
	for _, p := range parts {
		switch p.Type {
		case providers.PartText:
			if p.Text != "" {
				out = append(out, part{Text: p.Text})
			}
		case providers.PartImage, providers.PartDocument:
			gp, err := mediaPart(p)
			if err != nil {
				return nil, err
			}
			out = append(out, gp)
		default:
			return nil, fmt.Errorf("unknown content part type %q", p.Type)
		}
	}
	return out, nil
}

// mediaPart converts an image or document to the part Gemini takes for it.
func mediaPart(p providers.Part) (part, error) {
	mt := p.MIME()
	switch {
	case p.Type == providers.PartImage:
		switch mt {
		case "image/png", "image/jpeg", "image/webp", "image/heic", "image/heif":
			return part{InlineData: &blob{MIMEType: mt, Data: p.Data}}, nil
		}
		return part{}, fmt.Errorf("cannot send a %s image %q: Gemini takes PNG, JPEG, WEBP, HEIC and HEIF images", mt, p.Name)
	case mt == "application/pdf":
		return part{InlineData: &blob{MIMEType: mt, Data: p.Data}}, nil
	case strings.HasPrefix(mt, "text/"):
		text, _ := p.DocumentText()
		return part{Text: text}, nil
	}
	return part{}, fmt.Errorf("cannot send a %s document %q: Gemini takes PDFs, text and images", mt, p.Name)
}

// signature returns a stored signature in the standard base64 the API
// sends: as stored when it already is, re-encoded when it was stored
// URL-safe or unpadded (other clients do; the API takes every form). One
// that does not decode was not made by Gemini and is not sent ("").
func signature(s string) string {
	if s == "" {
		return ""
	}
	if _, err := base64.StdEncoding.DecodeString(s); err == nil {
		return s
	}
	for _, enc := range []*base64.Encoding{base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return base64.StdEncoding.EncodeToString(b)
		}
	}
	return ""
}

// callArgs converts a call's argument JSON for the wire. Gemini takes an
// object, sent in the model's key order (encoding/json compacts it); an
// empty object or none is left out. Text that is not an object (history
// from a model that produced broken JSON) is kept under one key so the
// model still sees what it sent.
func callArgs(args string) json.RawMessage {
	trimmed := strings.TrimSpace(args)
	switch {
	case trimmed == "" || trimmed == "null":
		return nil
	case trimmed[0] != '{' || !json.Valid([]byte(trimmed)):
		raw, _ := json.Marshal(map[string]string{"raw_arguments": args})
		return raw
	case strings.TrimSpace(trimmed[1:len(trimmed)-1]) == "":
		return nil
	}
	return json.RawMessage(trimmed)
}
