package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"charm.land/huh/v2"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// pendingItems describes paused calls for printing: ask_user_input calls
// with their questions, other host-owned calls with their arguments.
func pendingItems(calls []engine.ToolCall) []pendingItem {
	items := make([]pendingItem, 0, len(calls))
	for _, c := range calls {
		it := pendingItem{CallID: c.ID, Tool: c.Name}
		if in, err := tools.ParseAskInput(json.RawMessage(c.Arguments)); c.Name == engine.AskUserTool && err == nil {
			it.Type, it.AllowSkip, it.Questions = in.Type, in.AllowSkip, in.Questions
		} else {
			it.Arguments = json.RawMessage(c.Arguments)
		}
		items = append(items, it)
	}
	return items
}

// printPending shows the questions of a paused run and how to answer them.
func printPending(w io.Writer, sessionID string, items []pendingItem) {
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
		fmt.Fprintln(w, "\nthis run was not saved (--no-session), so it cannot be resumed")
	}
}

// flagAnswer reads --answer and --answers. ok is false when neither is set.
func (opts *runOptions) flagAnswer() (a tools.Answer, ok bool, err error) {
	a = tools.Answer{Selected: map[string][]string{}, Other: map[string]string{}}
	if opts.answersJSON != "" {
		var raw struct {
			Answers map[string]json.RawMessage `json:"answers"`
			Other   map[string]string          `json:"other"`
			Skipped bool                       `json:"skipped"`
		}
		dec := json.NewDecoder(strings.NewReader(opts.answersJSON))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&raw); err != nil {
			return a, false, usageErrorf(`--answers: %v (write {"answers":{"question":"option"}})`, err)
		}
		for q, v := range raw.Answers {
			var one string
			var many []string
			switch {
			case json.Unmarshal(v, &one) == nil:
				a.Selected[q] = []string{one}
			case json.Unmarshal(v, &many) == nil:
				a.Selected[q] = many
			default:
				return a, false, usageErrorf("--answers: answer for %q must be an option id or a list of them", q)
			}
		}
		for q, t := range raw.Other {
			a.Other[q] = t
		}
		a.Skipped = raw.Skipped
		ok = true
	}
	for _, spec := range opts.answers {
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

// resolveAnswers turns one Answer into the tool messages for the pending
// calls. Option ids a question does not know are read as free text when
// the question allows it. Errors name the valid ids (exit 2).
func resolveAnswers(calls []engine.ToolCall, a tools.Answer) ([]engine.Message, error) {
	var msgs []engine.Message
	for _, c := range calls {
		if c.Name != engine.AskUserTool {
			return nil, usageErrorf("pending call %s (%s) is a host tool this command cannot answer", c.ID, c.Name)
		}
		in, err := tools.ParseAskInput(json.RawMessage(c.Arguments))
		if err != nil {
			return nil, usageErrorf("pending call %s: %v", c.ID, err)
		}
		mine := tools.Answer{Skipped: a.Skipped, Selected: map[string][]string{}, Other: map[string]string{}}
		known := map[string]bool{}
		for _, q := range in.Questions {
			known[q.ID] = true
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
			if !known[q] {
				mine.Selected[q] = a.Selected[q] // let Resolve name the valid ids
			}
		}
		res, err := in.Resolve(mine)
		if err != nil {
			return nil, usageErrorf("%v", err)
		}
		msgs = append(msgs, providers.ToolResultMessage(c, res.Content(), false))
	}
	return msgs, nil
}

func hasOption(q tools.Question, id string) bool {
	for _, o := range q.Options {
		if o.ID == id {
			return true
		}
	}
	return false
}

const (
	skipValue  = "\x00skip"
	otherValue = "\x00other"
)

// askInteractive shows each pending question as a select list on the
// terminal and returns the tool messages with the answers.
func (opts *runOptions) askInteractive(ctx context.Context, calls []engine.ToolCall) ([]engine.Message, error) {
	var msgs []engine.Message
	for _, c := range calls {
		if c.Name != engine.AskUserTool {
			return nil, fmt.Errorf("pending call %s (%s) is a host tool this command cannot answer", c.ID, c.Name)
		}
		in, err := tools.ParseAskInput(json.RawMessage(c.Arguments))
		if err != nil {
			return nil, err
		}
		a, err := opts.askForm(ctx, in)
		if err != nil {
			return nil, err
		}
		res, err := in.Resolve(a)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, providers.ToolResultMessage(c, res.Content(), false))
	}
	return msgs, nil
}

// askForm runs one form for an ask_user_input payload on stderr.
func (opts *runOptions) askForm(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
	a := tools.Answer{Selected: map[string][]string{}, Other: map[string]string{}}
	for _, q := range in.Questions {
		opt := make([]huh.Option[string], 0, len(q.Options)+2)
		for _, o := range q.Options {
			label := o.Label
			if o.Description != "" {
				label += " — " + o.Description
			}
			opt = append(opt, huh.NewOption(label, o.ID))
		}
		if q.AllowOther {
			opt = append(opt, huh.NewOption("Other (type your own)", otherValue))
		}
		if in.AllowSkip {
			opt = append(opt, huh.NewOption("Skip these questions", skipValue))
		}
		var chosen []string
		var err error
		if in.Multiple() {
			err = opts.runForm(ctx, huh.NewMultiSelect[string]().Title(q.Header).Description(q.Question).Options(opt...).Value(&chosen))
		} else {
			var one string
			err = opts.runForm(ctx, huh.NewSelect[string]().Title(q.Header).Description(q.Question).Options(opt...).Value(&one))
			chosen = []string{one}
		}
		if err != nil {
			return a, err
		}
		for _, id := range chosen {
			switch id {
			case skipValue:
				return tools.Answer{Skipped: true}, nil
			case otherValue:
				var text string
				if err := opts.runForm(ctx, huh.NewInput().Title(q.Header+": your answer").Value(&text)); err != nil {
					return a, err
				}
				a.Other[q.ID] = text
			default:
				a.Selected[q.ID] = append(a.Selected[q.ID], id)
			}
		}
	}
	return a, nil
}

func (opts *runOptions) runForm(ctx context.Context, field huh.Field) error {
	err := huh.NewForm(huh.NewGroup(field)).WithOutput(opts.f.IO.ErrOut).WithInput(opts.f.IO.In).RunWithContext(ctx)
	if errors.Is(err, huh.ErrUserAborted) {
		return &exitError{code: exitCancelled, err: errors.New("question not answered: cancelled")}
	}
	return err
}
