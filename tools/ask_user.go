package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// AskUserName is the name of the host-owned question tool.
const AskUserName = "ask_user_input"

// Selection types of an ask_user_input payload.
const (
	SingleSelect   = "single-select"
	MultipleSelect = "multiple-select"
)

const askUserSchema = `{
  "type": "object",
  "properties": {
    "type": {"type": "string", "enum": ["single-select", "multiple-select"], "description": "single-select (default): one option per question; multiple-select: any number"},
    "allowSkip": {"type": "boolean", "description": "Let the user skip the questions entirely (default false)"},
    "questions": {
      "type": "array",
      "minItems": 1,
      "description": "The questions, asked in order",
      "items": {
        "type": "object",
        "properties": {
          "header": {"type": "string", "minLength": 1, "description": "Very short label shown above the question, e.g. \"Database\""},
          "id": {"type": "string", "minLength": 1, "description": "Identifier of the question, unique within this call; answers are keyed by it"},
          "question": {"type": "string", "minLength": 1, "description": "The full question, ending with a question mark"},
          "options": {
            "type": "array",
            "minItems": 2,
            "description": "The choices, at least 2",
            "items": {
              "type": "object",
              "properties": {
                "id": {"type": "string", "minLength": 1, "description": "Identifier of the option, unique within its question; the answer holds it"},
                "label": {"type": "string", "minLength": 1, "description": "Short text the user sees"},
                "description": {"type": "string", "description": "Optional explanation of the option and its consequences"}
              },
              "required": ["id", "label"],
              "additionalProperties": false
            }
          },
          "allowOther": {"type": "boolean", "description": "Offer an \"other\" entry where the user types a free-text answer (default false)"}
        },
        "required": ["header", "id", "question", "options"],
        "additionalProperties": false
      }
    }
  },
  "required": ["questions"],
  "additionalProperties": false
}`

// AskInput is the argument payload of ask_user_input.
type AskInput struct {
	// Type is SingleSelect (also when empty) or MultipleSelect; it applies
	// to every question.
	Type string `json:"type,omitempty"`
	// AllowSkip lets the person decline to answer at all.
	AllowSkip bool `json:"allowSkip,omitempty"`
	// Questions are asked in order; ids are unique.
	Questions []Question `json:"questions"`
}

// Question is one question of an ask_user_input call.
type Question struct {
	// Header is a very short label shown above the question.
	Header string `json:"header"`
	// ID keys the answer in the tool result.
	ID string `json:"id"`
	// Question is the full question text.
	Question string `json:"question"`
	// Options are the choices, at least two, with unique ids.
	Options []Choice `json:"options"`
	// AllowOther offers a free-text answer besides the options.
	AllowOther bool `json:"allowOther,omitempty"`
}

// Choice is one option of a Question.
type Choice struct {
	// ID is what the answer holds when this choice is picked.
	ID string `json:"id"`
	// Label is the text the person sees.
	Label string `json:"label"`
	// Description optionally explains the choice.
	Description string `json:"description,omitempty"`
}

// Multiple reports whether the user may pick several options per question.
func (in AskInput) Multiple() bool { return in.Type == MultipleSelect }

// ParseAskInput decodes and validates the arguments of an ask_user_input
// call, as a host receives them in a pending call.
func ParseAskInput(raw json.RawMessage) (AskInput, error) {
	var in AskInput
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return AskInput{}, fmt.Errorf("ask_user_input arguments: %w", err)
	}
	if err := in.Validate(); err != nil {
		return AskInput{}, err
	}
	return in, nil
}

// Validate checks what the schema cannot: unique question ids, unique
// option ids within a question, at least two options, and no blank text.
// Errors name the offending ids so the model can fix its call.
func (in AskInput) Validate() error {
	switch in.Type {
	case "", SingleSelect, MultipleSelect:
	default:
		return fmt.Errorf("type %q is not %q or %q", in.Type, SingleSelect, MultipleSelect)
	}
	if len(in.Questions) == 0 {
		return fmt.Errorf("questions is empty; ask at least one question")
	}
	seen := make(map[string]int, len(in.Questions))
	for i, q := range in.Questions {
		where := fmt.Sprintf("questions[%d]", i)
		if blank(q.ID) {
			return fmt.Errorf("%s has an empty id", where)
		}
		where = fmt.Sprintf("question %q", q.ID)
		if j, dup := seen[q.ID]; dup {
			return fmt.Errorf("question id %q is used by questions[%d] and questions[%d]; question ids must be unique", q.ID, j, i)
		}
		seen[q.ID] = i
		if blank(q.Question) {
			return fmt.Errorf("%s has empty question text", where)
		}
		if blank(q.Header) {
			return fmt.Errorf("%s has an empty header; give a short label", where)
		}
		if len(q.Options) < 2 {
			return fmt.Errorf("%s has %d option(s); give at least 2", where, len(q.Options))
		}
		opts := make(map[string]bool, len(q.Options))
		for k, o := range q.Options {
			if blank(o.ID) {
				return fmt.Errorf("%s: options[%d] has an empty id", where, k)
			}
			if opts[o.ID] {
				return fmt.Errorf("%s: option id %q appears more than once; option ids must be unique within a question", where, o.ID)
			}
			opts[o.ID] = true
			if blank(o.Label) {
				return fmt.Errorf("%s: option %q has an empty label", where, o.ID)
			}
		}
	}
	return nil
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

func askUserTool() Tool {
	return Tool{
		Name: AskUserName,
		Description: "Ask the user one or more multiple-choice questions and wait for the answers. " +
			"Use it only for decisions the user must make (preferences, trade-offs, missing requirements), never for facts you can find with other tools. " +
			"Each question needs a unique id, a short header, the question text and at least 2 options with unique ids; allowOther adds a free-text answer. " +
			`The result is {"answers": {"<question id>": "<option id>" or [ids]}, "skipped": bool, "other": {"<question id>": "text"}}.`,
		Schema: json.RawMessage(askUserSchema),
		Kind:   KindInteraction,
		Source: SourceBuiltin,
		// Execute is nil: the host asks the person and supplies the result.
		Validate: func(raw json.RawMessage) error {
			_, err := ParseAskInput(raw)
			return err
		},
	}
}
