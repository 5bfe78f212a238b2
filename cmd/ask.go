package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// pendingCall is a call a paused run left for the host, with its
// ask_user_input payload decoded once for printing, checking and asking.
type pendingCall struct {
	call engine.ToolCall
	// ask is the decoded payload of an ask_user_input call; nil for host
	// tools and for payloads that do not decode (err says why).
	ask *tools.AskInput
	err error
}

// parsePending decodes the pending calls of a paused run.
func parsePending(calls []engine.ToolCall) []pendingCall {
	out := make([]pendingCall, 0, len(calls))
	for _, c := range calls {
		p := pendingCall{call: c}
		if c.Name == engine.AskUserTool {
			in, err := tools.ParseAskInput(json.RawMessage(c.Arguments))
			if err == nil {
				p.ask = &in
			}
			p.err = err
		}
		out = append(out, p)
	}
	return out
}

// pendingItems describes paused calls for printing: ask_user_input calls
// with their questions, other host-owned calls with their arguments.
func pendingItems(calls []pendingCall) []pendingItem {
	items := make([]pendingItem, 0, len(calls))
	for _, p := range calls {
		it := pendingItem{CallID: p.call.ID, Tool: p.call.Name}
		if p.ask != nil {
			it.Type, it.AllowSkip, it.Questions = p.ask.Type, p.ask.AllowSkip, p.ask.Questions
		} else {
			it.Arguments = json.RawMessage(p.call.Arguments)
		}
		items = append(items, it)
	}
	return items
}

// printPending shows the questions of a paused run and how to answer them.
func printPending(w io.Writer, sessionID string, items []pendingItem) {
	w = ui.NewTextWriter(w) // the model's questions
	fmt.Fprintln(w, "llmrt: paused: the model needs your input")
	example := ""
	for _, it := range items {
		for _, q := range it.Questions {
			fmt.Fprintf(w, "\n  %s [%s]: %s\n", q.Header, q.ID, q.Question)
			for _, o := range q.Options {
				line := fmt.Sprintf("    %-12s %s", o.ID, o.Label)
				if o.Description != "" {
					line += " — " + o.Description
				}
				fmt.Fprintln(w, line)
			}
			if q.AllowOther {
				fmt.Fprintln(w, "    (or your own text)")
			}
			if example == "" && len(q.Options) > 0 {
				example = fmt.Sprintf("--answer %s=%s", q.ID, q.Options[0].ID)
			}
		}
		if it.Tool != engine.AskUserTool {
			fmt.Fprintf(w, "\n  %s %s (host-owned call %s)\n", it.Tool, it.Arguments, it.CallID)
		}
	}
	if sessionID != "" {
		fmt.Fprintf(w, "\nresume with: llmrt run --resume %s %s\n", sessionID, example)
	} else {
		fmt.Fprintln(w, "\nthis run was not saved, so it cannot be resumed")
	}
}

// parseAnswerFlags reads --answer and --answers. ok is false when neither
// is set.
func parseAnswerFlags(specs []string, asJSON string) (a tools.Answer, ok bool, err error) {
	a = tools.Answer{Selected: map[string][]string{}, Other: map[string]string{}}
	if asJSON != "" {
		var raw struct {
			Answers map[string]json.RawMessage `json:"answers"`
			Other   map[string]string          `json:"other"`
			Skipped bool                       `json:"skipped"`
		}
		dec := json.NewDecoder(strings.NewReader(asJSON))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&raw); err != nil {
			return a, false, usageErrorf(`--answers: %v (write {"answers":{"question":"option"}})`, err)
		}
		if err := selectAnswers(a.Selected, raw.Answers); err != nil {
			return a, false, usageErrorf("--answers: %v", err)
		}
		for q, t := range raw.Other {
			a.Other[q] = t
		}
		a.Skipped = raw.Skipped
		ok = true
	}
	for _, spec := range specs {
		q, v, found := strings.Cut(spec, "=")
		if !found || strings.TrimSpace(q) == "" {
			return a, false, usageErrorf("--answer %q: write QUESTION=OPTION", spec)
		}
		for _, opt := range strings.Split(v, ",") {
			if opt = strings.TrimSpace(opt); opt != "" {
				a.Selected[strings.TrimSpace(q)] = append(a.Selected[strings.TrimSpace(q)], opt)
			}
		}
		ok = true
	}
	return a, ok, nil
}

// selectAnswers adds the answers of a JSON answer object, each an option
// id or a list of them, to selected.
func selectAnswers(selected map[string][]string, answers map[string]json.RawMessage) error {
	for q, v := range answers {
		var one string
		var many []string
		switch {
		case json.Unmarshal(v, &one) == nil:
			selected[q] = []string{one}
		case json.Unmarshal(v, &many) == nil:
			selected[q] = many
		default:
			return fmt.Errorf("answer for %q must be an option id or a list of them", q)
		}
	}
	return nil
}

// answerFor picks, from one Answer given for all pending calls, the part
// that answers in. Option ids a question does not know are read as free
// text when the question allows it; ids of unknown questions are kept so
// Resolve names the valid ones.
func answerFor(in *tools.AskInput, a tools.Answer, others []*tools.AskInput) tools.Answer {
	mine := tools.Answer{Skipped: a.Skipped, Selected: map[string][]string{}, Other: map[string]string{}}
	for _, q := range in.Questions {
		sel := a.Selected[q.ID]
		if other, ok := a.Other[q.ID]; ok {
			mine.Other[q.ID] = other
		}
		if q.AllowOther && len(sel) == 1 && !hasOption(q, sel[0]) {
			mine.Other[q.ID] = sel[0]
			continue
		}
		if len(sel) > 0 {
			mine.Selected[q.ID] = sel
		}
	}
	for q := range a.Selected {
		if !askedIn(q, others) {
			mine.Selected[q] = a.Selected[q]
		}
	}
	return mine
}

// askedIn reports whether any of the inputs has question id q.
func askedIn(q string, inputs []*tools.AskInput) bool {
	for _, in := range inputs {
		for _, have := range in.Questions {
			if have.ID == q {
				return true
			}
		}
	}
	return false
}

func hasOption(q tools.Question, id string) bool {
	for _, o := range q.Options {
		if o.ID == id {
			return true
		}
	}
	return false
}
