package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Answer is what a person chose in reply to an AskInput, as a host (TUI,
// terminal prompt, --answer flags) collects it.
type Answer struct {
	// Skipped means the person declined to answer; only valid when the
	// input has AllowSkip, and then Selected and Other stay empty.
	Skipped bool
	// Selected maps a question id to the chosen option ids: exactly one
	// for single-select (none when Other answers the question), one or
	// more for multiple-select.
	Selected map[string][]string
	// Other maps a question id to the person's free text, for questions
	// with AllowOther.
	Other map[string]string
}

// AskResult is the tool result of an answered ask_user_input call, in the
// shape the tool's description promises the model.
type AskResult struct {
	// Answers maps a question id to an option id (single-select) or a list
	// of option ids (multiple-select).
	Answers map[string]any `json:"answers"`
	// Skipped reports that the person declined to answer.
	Skipped bool `json:"skipped"`
	// Other maps a question id to the person's free text.
	Other map[string]string `json:"other"`
}

// Content returns r as the JSON text of the tool message a host appends.
func (r AskResult) Content() string {
	b, _ := json.Marshal(r) // maps of strings and string slices always encode
	return string(b)
}

// Resolve checks a against the questions and builds the tool result. Every
// question must be answered, by known option ids or, where allowed, by
// free text; errors name the valid ids so a host can re-prompt.
func (in AskInput) Resolve(a Answer) (AskResult, error) {
	res := AskResult{Answers: map[string]any{}, Other: map[string]string{}}
	byID := make(map[string]*Question, len(in.Questions))
	for i := range in.Questions {
		byID[in.Questions[i].ID] = &in.Questions[i]
	}
	for id := range a.Selected {
		if byID[id] == nil {
			return AskResult{}, fmt.Errorf("unknown question id %q; valid question ids: %s", id, in.questionIDs())
		}
	}
	for id := range a.Other {
		if byID[id] == nil {
			return AskResult{}, fmt.Errorf("unknown question id %q in other; valid question ids: %s", id, in.questionIDs())
		}
	}
	if a.Skipped {
		if !in.AllowSkip {
			return AskResult{}, fmt.Errorf("these questions cannot be skipped (allowSkip is false); answer question ids %s", in.questionIDs())
		}
		if len(a.Selected) > 0 || len(a.Other) > 0 {
			return AskResult{}, fmt.Errorf("a skipped answer cannot also choose options or give other text")
		}
		res.Skipped = true
		return res, nil
	}
	for i := range in.Questions {
		q := &in.Questions[i]
		picked, err := in.resolveQuestion(q, a.Selected[q.ID], strings.TrimSpace(a.Other[q.ID]))
		if err != nil {
			return AskResult{}, err
		}
		if picked != nil {
			res.Answers[q.ID] = picked
		}
		if text := strings.TrimSpace(a.Other[q.ID]); text != "" {
			res.Other[q.ID] = text
		}
	}
	return res, nil
}

// resolveQuestion validates the choices for one question and returns the
// value for "answers": a string, a []string, or nil when only other text
// answers it.
func (in AskInput) resolveQuestion(q *Question, chosen []string, other string) (any, error) {
	if other != "" && !q.AllowOther {
		return nil, fmt.Errorf("question %q does not allow a free-text (other) answer; choose from option ids %s", q.ID, q.optionIDs())
	}
	seen := make(map[string]bool, len(chosen))
	for _, id := range chosen {
		if !q.hasOption(id) {
			return nil, fmt.Errorf("question %q has no option id %q; valid option ids: %s", q.ID, id, q.optionIDs())
		}
		if seen[id] {
			return nil, fmt.Errorf("question %q: option id %q is chosen twice", q.ID, id)
		}
		seen[id] = true
	}
	if len(chosen) == 0 && other == "" {
		hint := "choose from option ids " + q.optionIDs()
		if q.AllowOther {
			hint += " or give other text"
		}
		return nil, fmt.Errorf("question %q is not answered; %s", q.ID, hint)
	}
	if in.Multiple() {
		if len(chosen) == 0 {
			return nil, nil
		}
		return append([]string(nil), chosen...), nil
	}
	switch {
	case len(chosen) > 1:
		return nil, fmt.Errorf("question %q is single-select; choose exactly one option, got %d (%s)", q.ID, len(chosen), strings.Join(chosen, ", "))
	case len(chosen) == 1 && other != "":
		return nil, fmt.Errorf("question %q is single-select; give either option %q or other text, not both", q.ID, chosen[0])
	case len(chosen) == 1:
		return chosen[0], nil
	}
	return nil, nil
}

func (in AskInput) questionIDs() string {
	ids := make([]string, len(in.Questions))
	for i, q := range in.Questions {
		ids[i] = q.ID
	}
	return quoteList(ids)
}

func (q *Question) optionIDs() string {
	ids := make([]string, len(q.Options))
	for i, o := range q.Options {
		ids[i] = o.ID
	}
	return quoteList(ids)
}

func (q *Question) hasOption(id string) bool {
	for _, o := range q.Options {
		if o.ID == id {
			return true
		}
	}
	return false
}

// quoteList renders ids quoted, in the order the model gave them.
func quoteList(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}
