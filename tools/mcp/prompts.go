package mcp

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/llmrt/llmrt/providers"
)

// maxPrompts bounds how many prompts one server's listing keeps.
const maxPrompts = 500

// Prompt is one prompt a server offers, as a chat command.
type Prompt struct {
	Server      string
	Name        string
	Description string
	Arguments   []PromptArgument
}

// PromptArgument is one declared argument of a prompt.
type PromptArgument struct {
	Name        string
	Description string
	Required    bool
}

// PromptCommand is the name of the command that runs a server's prompt,
// as Claude Code names it: mcp__<server>__<prompt>, each part sanitised.
func PromptCommand(server, prompt string) string {
	return "mcp__" + sanitize(server) + "__" + sanitize(prompt)
}

// Command is the prompt's command name (PromptCommand).
func (p Prompt) Command() string { return PromptCommand(p.Server, p.Name) }

// Usage shows the prompt's arguments, optional ones in brackets:
// "<name> [greeting]".
func (p Prompt) Usage() string {
	var out []string
	for _, a := range p.Arguments {
		if a.Required {
			out = append(out, "<"+a.Name+">")
		} else {
			out = append(out, "["+a.Name+"]")
		}
	}
	return strings.Join(out, " ")
}

// Bind maps the words typed after the command to the prompt's declared
// arguments: name=value sets a named one, other words fill the rest in
// declaration order. A word with no argument left to fill, a name given
// twice and a required argument left unset are errors naming the usage.
func (p Prompt) Bind(words []string) (map[string]string, error) {
	out := map[string]string{}
	declared := func(name string) bool {
		return slices.ContainsFunc(p.Arguments, func(a PromptArgument) bool { return a.Name == name })
	}
	var positional []string
	for _, w := range words {
		if k, v, ok := strings.Cut(w, "="); ok && declared(k) {
			if _, dup := out[k]; dup {
				return nil, p.usageError("%s is given twice", k)
			}
			out[k] = v
			continue
		}
		positional = append(positional, w)
	}
	next := 0
	for _, w := range positional {
		for next < len(p.Arguments) {
			if _, set := out[p.Arguments[next].Name]; !set {
				break
			}
			next++
		}
		if next == len(p.Arguments) {
			return nil, p.usageError("%q is one word too many", w)
		}
		out[p.Arguments[next].Name] = w
	}
	var missing []string
	for _, a := range p.Arguments {
		if _, set := out[a.Name]; a.Required && !set {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, p.usageError("%s is required", strings.Join(missing, " and "))
	}
	return out, nil
}

func (p Prompt) usageError(format string, args ...any) error {
	usage := strings.TrimSpace("/" + p.Command() + " " + p.Usage())
	if len(p.Arguments) == 0 {
		return fmt.Errorf("/%s: %s (it takes no arguments)", p.Command(), fmt.Sprintf(format, args...))
	}
	return fmt.Errorf("/%s: %s (usage: %s; name=value sets an argument by name)", p.Command(), fmt.Sprintf(format, args...), usage)
}

// Prompts lists the prompts of every ready server that offers some, in
// server order. A server that fails to list them is left out.
func (s *Source) Prompts(ctx context.Context) []Prompt {
	var out []Prompt
	for _, c := range s.servers {
		list, err := c.prompts(ctx)
		if err == nil {
			out = append(out, list...)
		}
	}
	return out
}

// LookupPrompt finds the prompt whose command is name.
func (s *Source) LookupPrompt(ctx context.Context, name string) (Prompt, bool) {
	if !strings.HasPrefix(name, "mcp__") {
		return Prompt{}, false
	}
	for _, p := range s.Prompts(ctx) {
		if p.Command() == name {
			return p, true
		}
	}
	return Prompt{}, false
}

// prompts fetches every page of the server's prompts; none when it is
// not ready or offers none.
func (c *conn) prompts(ctx context.Context) ([]Prompt, error) {
	cl, caps := c.ready()
	if cl == nil || caps.Prompts == nil {
		return nil, nil
	}
	lctx, done := context.WithTimeout(ctx, c.cfg.StartTimeout())
	defer done()
	var out []Prompt
	var cursor mcp.Cursor
	for len(out) < maxPrompts {
		res, err := cl.listPrompts(lctx, cursor)
		if err != nil {
			return nil, fmt.Errorf("mcp server %s: list prompts: %w", c.cfg.Name, err)
		}
		for _, p := range res.Prompts {
			pr := Prompt{Server: c.cfg.Name, Name: p.Name, Description: p.Description}
			if pr.Description == "" {
				pr.Description = p.Title
			}
			for _, a := range p.Arguments {
				pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
			}
			out = append(out, pr)
		}
		if res.NextCursor == "" || res.NextCursor == cursor {
			break
		}
		cursor = res.NextCursor
	}
	return out[:min(len(out), maxPrompts)], nil
}

// GetPrompt asks the prompt's server for its messages with args and
// returns them as the content of one user message: the text of each, an
// assistant's labelled as such, images as image parts.
func (s *Source) GetPrompt(ctx context.Context, p Prompt, args map[string]string) ([]providers.Part, error) {
	c, err := s.server(p.Server)
	if err != nil {
		return nil, err
	}
	cl, _ := c.ready()
	if cl == nil {
		return nil, fmt.Errorf("mcp server %s is not running (%s)", p.Server, c.status().State)
	}
	gctx, done := context.WithTimeout(ctx, c.cfg.CallTimeout())
	defer done()
	res, err := cl.getPrompt(gctx, mcp.GetPromptParams{Name: p.Name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("/%s: mcp server %s: %w", p.Command(), p.Server, err)
	}
	var text []string
	var parts []providers.Part
	for _, m := range res.Messages {
		label := ""
		if m.Role == mcp.RoleAssistant {
			label = "[assistant] "
		}
		switch v := m.Content.(type) {
		case mcp.TextContent:
			text = append(text, label+v.Text)
		case mcp.ImageContent:
			data, err := base64.StdEncoding.DecodeString(v.Data)
			if err != nil {
				text = append(text, fmt.Sprintf("%s[image %s: undecodable data]", label, v.MIMEType))
				continue
			}
			parts = append(parts, providers.Part{Type: providers.PartImage, MediaType: v.MIMEType, Data: data})
		case mcp.EmbeddedResource:
			switch r := v.Resource.(type) {
			case mcp.TextResourceContents:
				text = append(text, fmt.Sprintf("%s<resource uri=%q>\n%s\n</resource>", label, r.URI, r.Text))
			case mcp.BlobResourceContents:
				text = append(text, fmt.Sprintf("%s[resource %s: %s, binary, not shown]", label, r.URI, r.MIMEType))
			}
		case mcp.AudioContent:
			text = append(text, fmt.Sprintf("%s[audio %s, not shown]", label, v.MIMEType))
		case mcp.ResourceLink:
			text = append(text, fmt.Sprintf("%s[resource link %s: %s]", label, v.Name, v.URI))
		}
	}
	if len(text) == 0 && len(parts) == 0 {
		return nil, fmt.Errorf("/%s: mcp server %s returned an empty prompt", p.Command(), p.Server)
	}
	out := []providers.Part{providers.TextPart(strings.Join(text, "\n\n"))}
	return append(out, parts...), nil
}
