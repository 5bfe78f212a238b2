package google

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

const testKey = "test-key"

func newTestProvider(srv *replay.Server, timeouts providers.Timeouts) *Provider {
	return New(Config{BaseURL: srv.URL, APIKey: testKey, Timeouts: timeouts})
}

// wire is a Gemini request body as recorded: clients spell fields in
// camelCase or snake_case, and the API takes both.
type wire map[string]json.RawMessage

func (w wire) get(camel, snake string, v any) bool {
	raw, ok := w[camel]
	if !ok {
		raw, ok = w[snake]
	}
	return ok && json.Unmarshal(raw, v) == nil
}

type wireContent struct {
	Role  string `json:"role"`
	Parts []wire `json:"parts"`
}

type wireCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type wireResponse struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
}

func decodeBody(t testing.TB, body []byte) (system string, contents []wireContent, tools []providers.ToolSpec) {
	t.Helper()
	var w wire
	if err := json.Unmarshal(body, &w); err != nil {
		t.Fatalf("request body: %v\n%s", err, body)
	}
	var si wireContent
	if w.get("systemInstruction", "system_instruction", &si) {
		for _, p := range si.Parts {
			var text string
			p.get("text", "text", &text)
			system += text
		}
	}
	w.get("contents", "contents", &contents)
	var ts []wire
	w.get("tools", "tools", &ts)
	for _, tool := range ts {
		var decls []wire
		tool.get("functionDeclarations", "function_declarations", &decls)
		for _, d := range decls {
			var spec providers.ToolSpec
			d.get("name", "name", &spec.Name)
			d.get("description", "description", &spec.Description)
			if !d.get("parametersJsonSchema", "parameters_json_schema", &spec.Parameters) {
				d.get("parameters", "parameters", &spec.Parameters)
			}
			tools = append(tools, spec)
		}
	}
	return system, contents, tools
}

var modelInURL = regexp.MustCompile(`/models/([^/:]+):`)

// neutralRequest reads a recorded Gemini request back into the neutral
// request that would produce it.
func neutralRequest(t testing.TB, rec *replay.Recording) *providers.Request {
	t.Helper()
	req := &providers.Request{}
	if m := modelInURL.FindStringSubmatch(rec.Request.URL); m != nil {
		req.Model = m[1]
	}
	system, contents, tools := decodeBody(t, []byte(rec.Request.Body))
	if system != "" {
		req.Messages = append(req.Messages, providers.TextMessage(providers.RoleSystem, system))
	}
	req.Tools = tools
	for _, c := range contents {
		msg := providers.Message{Role: providers.RoleUser}
		if c.Role == "model" {
			msg.Role = providers.RoleAssistant
		}
		for _, p := range c.Parts {
			var text, sig string
			var call wireCall
			var resp wireResponse
			p.get("thoughtSignature", "thought_signature", &sig)
			switch {
			case p.get("functionCall", "function_call", &call):
				msg.ToolCalls = append(msg.ToolCalls, providers.ToolCall{ID: call.ID, Name: call.Name, Arguments: string(call.Args), Signature: sig})
			case p.get("functionResponse", "function_response", &resp):
				req.Messages = append(req.Messages, providers.Message{Role: providers.RoleTool,
					Content: []providers.Part{providers.TextPart(responseText(resp.Response))}, ToolCallID: resp.ID, ToolName: resp.Name})
			case p.get("text", "text", &text):
				msg.Content = append(msg.Content, providers.TextPart(text))
				if sig != "" {
					msg.Reasoning = append(msg.Reasoning, providers.Reasoning{Signature: sig, Provider: Name})
				}
			}
		}
		if len(msg.Content) > 0 || len(msg.ToolCalls) > 0 {
			req.Messages = append(req.Messages, msg)
		}
	}
	return req
}

// responseText is the tool result a functionResponse carries: the value of
// its single key ("result", "output", ...), or the whole object as JSON.
func responseText(r map[string]any) string {
	if len(r) == 1 {
		for _, v := range r {
			if s, ok := v.(string); ok {
				return s
			}
		}
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// idMode says how shape renders call ids.
type idMode int

const (
	keepIDs  idMode = iota
	canonIDs        // replaced by their order of appearance: clients made up different ids
	dropIDs         // left out: the recorded client sent none
)

// shape renders the system text and contents of a request body one line
// per content: its role and each part — text, thought, function call (id,
// name, compact args), function response (id, name, result) — with the
// start of the signature where one is attached.
func shape(t testing.TB, body []byte, mode idMode) []string {
	t.Helper()
	system, contents, _ := decodeBody(t, body)
	ids := map[string]string{}
	id := func(s string) string {
		switch {
		case mode == dropIDs:
			return ""
		case mode == keepIDs || s == "":
			return s
		}
		if ids[s] == "" {
			ids[s] = fmt.Sprintf("#%d", len(ids)+1)
		}
		return ids[s]
	}
	lines := []string{"system | " + system}
	for _, c := range contents {
		var parts []string
		for _, p := range c.Parts {
			var text, sig string
			var thought bool
			var call wireCall
			var resp wireResponse
			p.get("thoughtSignature", "thought_signature", &sig)
			p.get("thought", "thought", &thought)
			var s string
			switch {
			case p.get("functionCall", "function_call", &call):
				s = fmt.Sprintf("call %s %s %s", id(call.ID), call.Name, compact(call.Args))
			case p.get("functionResponse", "function_response", &resp):
				s = fmt.Sprintf("response %s %s %s", id(resp.ID), resp.Name, responseText(resp.Response))
			case thought:
				s = "thought"
			case p.get("text", "text", &text):
				if text == "" && sig == "" {
					continue // carries nothing; the adapter does not send it
				}
				s = "text " + text
			default:
				keys := make([]string, 0, len(p))
				for k := range p {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				s = "part " + strings.Join(keys, ",")
			}
			if sig != "" {
				// Clients store the base64 standard or URL-safe.
				sig = strings.NewReplacer("-", "+", "_", "/").Replace(sig)
				s += " +sig:" + sig[:min(len(sig), 16)]
			}
			parts = append(parts, s)
		}
		lines = append(lines, c.Role+" | "+strings.Join(parts, " | "))
	}
	return lines
}

// compact renders call args compactly; missing, null or invalid args read
// "{}".
func compact(raw json.RawMessage) string {
	if s := replay.CompactJSON(string(raw)); s != "null" && json.Valid([]byte(s)) {
		return s
	}
	return "{}"
}

func simpleRequest() *providers.Request {
	return &providers.Request{Model: "gemini-2.5-flash", Messages: []providers.Message{
		providers.TextMessage(providers.RoleUser, "Hello"),
	}}
}
