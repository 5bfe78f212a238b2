package fakellm

import (
	"encoding/json"
	"fmt"
	"strings"
)

// check reports what makes a request body one the real API would refuse
// with a 400: the shape of the conversation (turns that do not
// alternate, a tool call without its result or a result without its
// call, an empty text block), which a script cannot see. Requests that
// are not model calls (Ollama's version probe) pass.
func check(protocol, path string, body []byte) error {
	switch protocol {
	case Anthropic:
		return checkAnthropic(body)
	case Gemini:
		return checkGemini(body)
	case Ollama:
		if strings.HasSuffix(path, "/api/chat") {
			return checkChat(body, "ollama")
		}
	case OpenAI:
		if strings.HasSuffix(path, "/chat/completions") {
			return checkChat(body, "openai")
		}
	}
	return nil
}

// checkAnthropic checks a Messages API request: it starts with a user
// turn, user and assistant alternate, the turn after one with tool_use
// blocks opens with a tool_result for each, and no text block is empty.
func checkAnthropic(body []byte) error {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return fmt.Errorf("messages: %v", err)
	}
	// A message's content is a list of blocks or, as the API allows, a
	// string: one text block.
	blocks := func(i int) ([]json.RawMessage, error) {
		raw := req.Messages[i].Content
		var text string
		if json.Unmarshal(raw, &text) == nil {
			b, _ := json.Marshal(map[string]string{"type": "text", "text": text})
			return []json.RawMessage{b}, nil
		}
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, fmt.Errorf("messages.%d.content: a string or a list of content blocks, got %.40s", i, raw)
		}
		return list, nil
	}
	if len(req.Messages) == 0 || req.Messages[0].Role != "user" {
		return fmt.Errorf("messages: the first message must use the user role")
	}
	var pending []string // tool_use ids the next turn must answer
	for i, m := range req.Messages {
		if i > 0 && m.Role == req.Messages[i-1].Role {
			return fmt.Errorf("messages.%d: roles must alternate between \"user\" and \"assistant\", but found multiple %q roles in a row", i, m.Role)
		}
		var uses []string
		answered := map[string]bool{}
		results := true // still in the leading tool_result blocks
		content, err := blocks(i)
		if err != nil {
			return err
		}
		for j, raw := range content {
			var b struct {
				Type      string `json:"type"`
				Text      string `json:"text"`
				ID        string `json:"id"`
				ToolUseID string `json:"tool_use_id"`
			}
			json.Unmarshal(raw, &b)
			switch b.Type {
			case "text":
				if strings.TrimSpace(b.Text) == "" {
					return fmt.Errorf("messages.%d.content.%d: text content blocks must contain non-whitespace text", i, j)
				}
				results = false
			case "tool_use":
				uses = append(uses, b.ID)
			case "tool_result":
				if !results {
					return fmt.Errorf("messages.%d.content.%d: tool_result blocks must come before any other content", i, j)
				}
				answered[b.ToolUseID] = true
			default:
				results = false
			}
		}
		for _, id := range pending {
			if !answered[id] {
				return fmt.Errorf("messages.%d: tool_use ids were found without tool_result blocks immediately after: %s", i-1, id)
			}
		}
		if len(answered) > len(pending) {
			return fmt.Errorf("messages.%d: unexpected tool_use_id found in tool_result blocks", i)
		}
		pending = uses
	}
	if len(pending) > 0 {
		return fmt.Errorf("messages: the last turn's tool_use blocks have no tool_result")
	}
	return nil
}

// checkGemini checks a generateContent request: user and model contents
// alternate, starting with user, and a model turn's function calls are
// answered by the next turn, one response each, which answers nothing
// else.
func checkGemini(body []byte) error {
	var req struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				Text             *string         `json:"text"`
				FunctionCall     json.RawMessage `json:"functionCall"`
				FunctionResponse json.RawMessage `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return fmt.Errorf("contents: %v", err)
	}
	if len(req.Contents) == 0 || req.Contents[0].Role != "user" {
		return fmt.Errorf("contents: the first content must have the user role")
	}
	calls := 0
	for i, c := range req.Contents {
		if i > 0 && c.Role == req.Contents[i-1].Role {
			return fmt.Errorf("contents.%d: two %q turns in a row; user and model turns must alternate", i, c.Role)
		}
		if len(c.Parts) == 0 {
			return fmt.Errorf("contents.%d: contents must have at least one part", i)
		}
		nc, nr := 0, 0
		for _, p := range c.Parts {
			if p.FunctionCall != nil {
				nc++
			}
			if p.FunctionResponse != nil {
				nr++
			}
		}
		if nr != calls {
			return fmt.Errorf("contents.%d: please ensure that the number of function response parts (%d) is equal to the number of function call parts of the function call turn (%d)", i, nr, calls)
		}
		calls = nc
	}
	return nil
}

// checkChat checks an OpenAI or Ollama chat request: no two user
// messages in a row; an assistant message with tool calls is followed by
// one tool message per call, and a tool message answers a call of the
// assistant message before it. Both APIs take system messages anywhere
// and assistant messages in a row.
func checkChat(body []byte, api string) error {
	var req struct {
		Messages []struct {
			Role      string `json:"role"`
			ToolCalls []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return fmt.Errorf("%s: messages: %v", api, err)
	}
	last := ""           // the role of the last user or assistant turn
	var pending []string // calls still to be answered
	answered := 0        // tool messages since the assistant message
	for i, m := range req.Messages {
		switch m.Role {
		case "system", "developer":
			continue
		case "tool":
			if pending == nil || answered >= len(pending) {
				return fmt.Errorf("%s: messages.%d: a tool message must answer a tool call of the assistant message before it", api, i)
			}
			if api == "openai" && m.ToolCallID != pending[answered] && !contains(pending, m.ToolCallID) {
				return fmt.Errorf("%s: messages.%d: tool_call_id %q answers no call of the assistant message before it", api, i, m.ToolCallID)
			}
			answered++
			continue
		}
		if answered < len(pending) {
			return fmt.Errorf("%s: messages.%d: an assistant message with tool calls must be followed by tool messages answering each of them", api, i)
		}
		if m.Role == "user" && last == "user" {
			return fmt.Errorf("%s: messages.%d: two user messages in a row", api, i)
		}
		last, pending, answered = m.Role, nil, 0
		if m.Role == "assistant" {
			for _, c := range m.ToolCalls {
				pending = append(pending, c.ID)
			}
			if len(pending) > 0 {
				last = "" // the tool messages answer it; the next turn is the model's or the person's
			}
		}
	}
	if answered < len(pending) {
		return fmt.Errorf("%s: the last assistant message's tool calls are not all answered", api)
	}
	return nil
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
