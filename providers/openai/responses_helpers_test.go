package openai

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// responsesFor returns a Responses client pointed at srv the way the
// recorded client was pointed at the real API.
func responsesFor(name string, srv *replay.Server, rec *replay.Recording) *Responses {
	u, _ := url.Parse(rec.Request.URL)
	return NewResponses(Config{Name: name, BaseURL: srv.URL + strings.TrimSuffix(u.Path, "/responses"), APIKey: testKey})
}

// wireInput is one input item of a recorded Responses request body.
type wireInput struct {
	Type             string          `json:"type"`
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	ID               string          `json:"id"`
	CallID           string          `json:"call_id"`
	Name             string          `json:"name"`
	Arguments        string          `json:"arguments"`
	Output           json.RawMessage `json:"output"`
	EncryptedContent string          `json:"encrypted_content"`
	Summary          []summaryPart   `json:"summary"`
}

type wireResponsesRequest struct {
	Model string      `json:"model"`
	Input []wireInput `json:"input"`
	Tools []struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"tools"`
	Reasoning *struct {
		Effort string `json:"effort"`
	} `json:"reasoning"`
}

// neutralResponsesRequest reads a recorded Responses request body back
// into the neutral request that would produce it. Consecutive reasoning
// items, assistant text and function calls make one assistant message;
// reasoning items carry their replay state as the signature, stamped as
// this adapter's own.
func neutralResponsesRequest(t *testing.T, name, body string) *providers.Request {
	t.Helper()
	var w wireResponsesRequest
	if err := json.Unmarshal([]byte(body), &w); err != nil {
		t.Fatalf("recorded request body: %v", err)
	}
	req := &providers.Request{Model: w.Model}
	if w.Reasoning != nil {
		req.ReasoningEffort = providers.Effort(w.Reasoning.Effort)
	}
	var asst *providers.Message
	flush := func() {
		if asst != nil {
			req.Messages = append(req.Messages, *asst)
			asst = nil
		}
	}
	assistant := func() *providers.Message {
		if asst == nil {
			asst = &providers.Message{Role: providers.RoleAssistant}
		}
		return asst
	}
	for _, in := range w.Input {
		switch {
		case in.Type == "reasoning":
			var text []string
			for _, s := range in.Summary {
				text = append(text, s.Text)
			}
			m := assistant()
			m.Reasoning = append(m.Reasoning, providers.Reasoning{Text: strings.Join(text, "\n\n"),
				Signature: encodeReasoning(in.ID, in.EncryptedContent), Provider: name})
		case in.Type == "function_call":
			m := assistant()
			m.ToolCalls = append(m.ToolCalls, providers.ToolCall{ID: in.CallID, Name: in.Name, Arguments: in.Arguments})
		case in.Type == "function_call_output":
			flush()
			req.Messages = append(req.Messages, providers.Message{Role: providers.RoleTool, ToolCallID: in.CallID,
				Content: []providers.Part{providers.TextPart(contentText(in.Output))}})
		case in.Role == "assistant":
			m := assistant()
			m.Content = []providers.Part{providers.TextPart(contentText(in.Content))}
		default:
			flush()
			role := providers.Role(in.Role)
			if in.Role == "developer" {
				role = providers.RoleSystem
			}
			req.Messages = append(req.Messages, providers.TextMessage(role, contentText(in.Content)))
		}
	}
	flush()
	for _, tool := range w.Tools {
		if tool.Type == "function" {
			req.Tools = append(req.Tools, providers.ToolSpec{Name: tool.Name, Description: tool.Description, Parameters: tool.Parameters})
		}
	}
	return req
}

// responsesShape renders the input items of a Responses body one line
// each, with what the API pairs on: a message's role and text, a call's
// id, name and (compacted) arguments, an output's call id and text, and a
// reasoning item's encrypted content. System and developer are one role.
func responsesShape(t *testing.T, body []byte) []string {
	t.Helper()
	var w wireResponsesRequest
	if err := json.Unmarshal(body, &w); err != nil {
		t.Fatalf("request body: %v", err)
	}
	var lines []string
	for _, in := range w.Input {
		switch in.Type {
		case "reasoning":
			lines = append(lines, "reasoning | "+in.EncryptedContent)
		case "function_call":
			lines = append(lines, "call | "+in.CallID+" "+in.Name+" "+replay.CompactJSON(in.Arguments))
		case "function_call_output":
			lines = append(lines, "output | "+in.CallID+" "+contentText(in.Output))
		default:
			role := in.Role
			if role == "developer" {
				role = "system"
			}
			lines = append(lines, role+" | "+contentText(in.Content))
		}
	}
	return lines
}

func responsesRequest0() *providers.Request {
	return &providers.Request{Model: "gpt-5", Messages: []providers.Message{
		providers.TextMessage(providers.RoleUser, "Hello"),
	}}
}
