package cmd

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/huh/v2"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// prompter puts a run's questions to the person at the terminal. It is the
// only place that draws prompts, so the select lists can be swapped for
// other components without touching the host.
type prompter interface {
	// ask collects an answer to an ask_user_input payload; the host
	// checks it and asks again when it does not answer every question.
	ask(ctx context.Context, in tools.AskInput) (tools.Answer, error)
	// approve decides a call that needs permission.
	approve(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error)
}

// errAborted is returned by a prompter when the person aborted the prompt
// (Esc or Ctrl-C, which a prompt in raw mode receives as a key).
var errAborted = errors.New("prompt aborted")

// formPrompts is the prompter of select lists drawn with huh on stderr.
type formPrompts struct{ io *IO }

const (
	skipValue  = "\x00skip"
	otherValue = "\x00other"
)

// ask shows one select list per question.
func (p formPrompts) ask(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
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
			err = p.form(ctx, huh.NewMultiSelect[string]().Title(q.Header).Description(q.Question+" (space toggles, Enter confirms)").
				Options(opt...).Value(&chosen).Validate(validMultiple).Height(listHeight(len(opt))))
		} else {
			var one string
			err = p.form(ctx, huh.NewSelect[string]().Title(q.Header).Description(q.Question).Options(opt...).Value(&one).Height(listHeight(len(opt))))
			chosen = []string{one}
		}
		if err != nil {
			return a, err
		}
		var said []string
		for _, id := range chosen {
			switch id {
			case skipValue:
				p.echo("Skipped")
				return tools.Answer{Skipped: true}, nil
			case otherValue:
				var text string
				if err := p.form(ctx, huh.NewInput().Title(q.Header+": your answer").Value(&text)); err != nil {
					return a, err
				}
				a.Other[q.ID] = text
				said = append(said, fmt.Sprintf("%q", text))
			default:
				a.Selected[q.ID] = append(a.Selected[q.ID], id)
				said = append(said, labelOf(q, id))
			}
		}
		// The form erases itself: say what was chosen, so the screen
		// keeps the answer and not the list.
		p.echo(q.Header + ": " + strings.Join(said, ", "))
	}
	return a, nil
}

// listHeight is the height of a select list of n options: all of them
// and the title lines, so no option hides below the fold of a short list.
func listHeight(n int) int { return n + 4 }

// validMultiple refuses an empty multi-select and a skip mixed with
// options.
func validMultiple(v []string) error {
	switch {
	case len(v) == 0:
		return errors.New("choose at least one: space toggles the option under the cursor")
	case len(v) > 1 && slices.Contains(v, skipValue):
		return errors.New("skip cannot be combined with options: untoggle one or the other")
	}
	return nil
}

func labelOf(q tools.Question, id string) string {
	for _, o := range q.Options {
		if o.ID == id {
			return o.Label
		}
	}
	return id
}

// echo prints one line on stderr saying what the person chose.
func (p formPrompts) echo(s string) {
	if p.io.ErrColor {
		s = "\x1b[2m" + s + "\x1b[0m"
	}
	fmt.Fprintln(p.io.ErrOut, "✔ "+s)
}

// form runs one field on stderr; an abort is errAborted.
func (p formPrompts) form(ctx context.Context, field huh.Field) error {
	err := huh.NewForm(huh.NewGroup(field)).WithOutput(p.io.ErrOut).WithInput(p.io.promptIn()).RunWithContext(ctx)
	if errors.Is(err, huh.ErrUserAborted) {
		return errAborted
	}
	return err
}
