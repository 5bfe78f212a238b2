package commands

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/llmrt/llmrt/engine"
)

// Expansion is what running a command sends: the prompt, and what the
// turn that sends it runs with.
type Expansion struct {
	// Prompt is the body with the arguments put in. Its @path mentions
	// are left for the host to attach, as it does for a typed prompt.
	Prompt string
	// Rules allow, for this turn only, the tools the command's
	// allowed-tools names.
	Rules []engine.Rule
	// Model is the model the turn uses; "" keeps the conversation's.
	Model string
	// Problems are what could not be honoured (a tool pattern that has no
	// llmrt equivalent, a model alias), each said once per run.
	Problems []string
}

// placeholder finds $ARGUMENTS and $1 to $9.
var placeholder = regexp.MustCompile(`\$(ARGUMENTS|[1-9])`)

// Expand puts args, the text after the command's name, into its body:
// $ARGUMENTS is the whole of it, $1 to $9 its words split as a shell
// splits them (quotes group, a backslash escapes), a missing one empty.
// A body with no placeholder gets the arguments appended on a line of
// their own, as Claude Code does, so they are never lost.
func (c Command) Expand(args string) Expansion {
	args = strings.TrimSpace(args)
	words := Words(args)
	used := false
	prompt := placeholder.ReplaceAllStringFunc(c.Body, func(m string) string {
		used = true
		if m == "$ARGUMENTS" {
			return args
		}
		if i := int(m[1] - '1'); i < len(words) {
			return words[i]
		}
		return ""
	})
	if !used && args != "" {
		prompt += "\n\nARGUMENTS: " + args
	}
	e := Expansion{Prompt: prompt}
	e.Rules, e.Problems = AllowRules(c.AllowedTools)
	for i, p := range e.Problems {
		e.Problems[i] = fmt.Sprintf("/%s (%s): %s", c.Name, c.Path, p)
	}
	if c.Model != "" {
		if model, problem := pickModel(c.Model); problem != "" {
			e.Problems = append(e.Problems, fmt.Sprintf("/%s (%s): %s", c.Name, c.Path, problem))
		} else {
			e.Model = model
		}
	}
	return e
}

// claudeAliases are Claude Code's model aliases, which name no model of
// a provider's API.
var claudeAliases = map[string]bool{"haiku": true, "sonnet": true, "opus": true, "opusplan": true, "default": true, "inherit": true}

// pickModel checks the model a command names; the turn uses it with the
// conversation's provider.
func pickModel(m string) (string, string) {
	switch {
	case claudeAliases[strings.ToLower(m)]:
		return "", fmt.Sprintf("model %q is a Claude Code alias, not a model name; the conversation's model is used (give a full name, e.g. claude-haiku-4-5)", m)
	case strings.ContainsAny(m, " \t/"):
		return "", fmt.Sprintf("model %q: give a model name of the conversation's provider, without a provider prefix; the conversation's model is used", m)
	}
	return m, ""
}

// Words splits s into words as a shell does: blanks separate words,
// single quotes keep everything literally, double quotes keep blanks and
// let a backslash escape " and \, a backslash outside quotes escapes the
// next character. An unterminated quote runs to the end.
func Words(s string) []string {
	var (
		out  []string
		cur  strings.Builder
		have bool
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n':
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			have = true
		case r == '\'':
			have = true
			for i++; i < len(rs) && rs[i] != '\''; i++ {
				cur.WriteRune(rs[i])
			}
		case r == '"':
			have = true
			for i++; i < len(rs) && rs[i] != '"'; i++ {
				if rs[i] == '\\' && i+1 < len(rs) && (rs[i+1] == '"' || rs[i+1] == '\\') {
					i++
				}
				cur.WriteRune(rs[i])
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}
