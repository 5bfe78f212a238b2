package ui

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/llmrt/llmrt/engine"
)

// historyTextMax bounds how much of one earlier message is shown; the
// session keeps all of it.
const historyTextMax = 4000

// showHistory draws an earlier conversation (a resumed session): the
// person's messages, the model's text and answers, tool calls with how
// they ended. Earlier prompts also fill the editor's history.
func (m *Model) showHistory(msgs []engine.Message) {
	calls := map[string]*toolItem{}
	said := "" // the model's latest text, shown once when repeated
	for _, msg := range msgs {
		msg, _ = cleanMessage(msg)
		switch msg.Role {
		case engine.RoleUser:
			text := msg.Text()
			if strings.HasPrefix(text, "[Summary of the earlier part") {
				m.tr.add(&noteItem{text: "the conversation before this point was summarised to fit the context window"})
				continue
			}
			m.tr.add(&userItem{text: clip(text)})
			m.in.history = append(m.in.history, text)
		case engine.RoleAssistant:
			m.historyReply(msg, calls, &said)
		case engine.RoleTool:
			if t := calls[msg.ToolCallID]; t != nil {
				t.result = msg.Text()
				var failed bool
				t.note, failed = shellNote(t.name, t.result)
				if failed {
					t.state = toolFailed
				}
				if msg.IsError {
					t.state, t.note = toolFailed, firstLine(t.result, 80)
				}
			}
		}
	}
	m.in.pos = len(m.in.history)
}

// historyReply draws an earlier reply. A text or answer repeating said,
// the text shown before it, is not drawn again.
func (m *Model) historyReply(msg engine.Message, calls map[string]*toolItem, said *string) {
	for _, r := range msg.Reasoning {
		if strings.TrimSpace(r.Text) != "" {
			t := &thinkItem{done: true} // of an earlier session: how long is not known
			t.add(r.Text, time.Time{})
			m.tr.add(t)
		}
	}
	if text := strings.TrimSpace(msg.Text()); text != "" && text != *said {
		m.addText(clip(text))
		*said = text
	}
	if msg.Interrupted {
		m.tr.add(&noteItem{text: "interrupted: the turn was stopped here"})
	}
	for _, c := range msg.ToolCalls {
		var args struct {
			Answer string `json:"answer"`
			Reason string `json:"reason"`
		}
		switch c.Name {
		case engine.FinalAnswerTool:
			if json.Unmarshal([]byte(c.Arguments), &args) == nil && args.Answer != "" && strings.TrimSpace(args.Answer) != *said {
				m.addText(clip(args.Answer))
			}
		case engine.BlockedTool:
			json.Unmarshal([]byte(c.Arguments), &args)
			m.tr.add(&noteItem{kind: noteError, text: "blocked: " + args.Reason})
		default:
			t := &toolItem{id: c.ID, name: c.Name, args: c.Arguments, state: toolOK}
			calls[c.ID] = t
			m.tr.add(t)
		}
	}
}

// addText adds a finished piece of the model's text.
func (m *Model) addText(s string) {
	t := &textItem{}
	t.add(s)
	t.finish()
	m.tr.add(t)
}

func clip(s string) string {
	if len(s) <= historyTextMax {
		return s
	}
	return s[:historyTextMax] + "\n\n[… " + itoa(len(s)-historyTextMax) + " more bytes]"
}
