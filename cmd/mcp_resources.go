package cmd

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools/mcp"
)

// resourceRef is an @server:uri mention of an MCP server's resource.
type resourceRef struct {
	server, uri string
}

// resourceMention reads an @mention's text (without the @) as a resource
// of an MCP server: server:uri where server is a configured server (ok),
// or any name followed by a uri with a scheme (docs:file:///x), which
// cannot be a file either. Anything else is left to file mentions.
func (s *settings) resourceMention(text string) (ref resourceRef, ok bool) {
	server, uri, found := strings.Cut(text, ":")
	if !found || server == "" || uri == "" || strings.ContainsAny(server, "/\\") {
		return ref, false
	}
	ref = resourceRef{server: server, uri: uri}
	if s.mcp != nil {
		if _, known := s.mcp.Config(server); known {
			return ref, true
		}
	}
	if slices.ContainsFunc(s.untrustedServers, func(sv mcp.Server) bool { return sv.Name == server }) {
		return ref, true
	}
	return ref, strings.Contains(uri, "://")
}

// attachResources adds to msg the MCP resources prompt mentions as
// @server:uri, within the room msg's text leaves. A mention of a server
// that is not there, or of a resource it cannot read, is a usage error
// naming it: the person meant a resource, and the model should not get
// the prompt without it.
func (h *cmdHost) attachResources(ctx context.Context, msg *engine.Message, prompt string) error {
	used := 0
	for _, p := range msg.Content {
		used += len(p.Text)
	}
	b := &inputBudget{lim: h.inputLimit(), used: used}
	seen := map[resourceRef]bool{}
	for _, m := range mentionPattern.FindAllStringSubmatch(prompt, -1) {
		ref, ok := h.s.resourceMention(strings.TrimRight(m[1], ".,;!?)"))
		if !ok || seen[ref] {
			continue
		}
		seen[ref] = true
		parts, err := h.readResource(ctx, ref, b)
		if err != nil {
			return err
		}
		msg.Content = append(msg.Content, parts...)
	}
	return nil
}

// readResource reads one mentioned resource as content parts: its text
// labelled with its server and uri, images as images, other binary
// contents described by type and size.
func (h *cmdHost) readResource(ctx context.Context, ref resourceRef, b *inputBudget) ([]providers.Part, error) {
	what := "@" + ref.server + ":" + ref.uri
	if slices.ContainsFunc(h.s.untrustedServers, func(sv mcp.Server) bool { return sv.Name == ref.server }) {
		return nil, withHint(usageErrorf("%s: mcp server %s is not started: this folder is not trusted", what, ref.server), "llmrt trust starts the project's servers")
	}
	if h.s.mcp == nil {
		return nil, withHint(usageErrorf("%s: no MCP server is configured", what), "llmrt mcp add NAME -- COMMAND adds one")
	}
	if _, known := h.s.mcp.Config(ref.server); !known {
		names := serverNames(h.s.mcp)
		return nil, withHint(usageErrorf("%s: no MCP server named %q (configured: %s)", what, ref.server, strings.Join(names, ", ")), "llmrt mcp list shows the servers")
	}
	contents, err := h.s.mcp.ReadResource(ctx, ref.server, ref.uri)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, withHint(usageErrorf("%s: %v", what, err), "the model can list a server's resources with "+mcp.ListResourcesTool+"; /mcp in the chat shows how each server stands")
	}
	var out []providers.Part
	var text []string
	for _, c := range contents {
		if c.Binary && isImage(c.MIMEType) && len(c.Blob) <= maxAttachment {
			out = append(out, providers.Part{Type: providers.PartImage, MediaType: c.MIMEType, Data: c.Blob})
			continue
		}
		if c.Binary {
			text = append(text, c.Describe())
			continue
		}
		text = append(text, c.Text)
	}
	body := fmt.Sprintf("<resource server=%q uri=%q>\n%s\n</resource>", ref.server, ref.uri, strings.TrimRight(strings.Join(text, "\n"), "\n"))
	if len(body) > b.room() {
		return nil, b.refuse(what, int64(len(body)), false,
			fmt.Sprintf("name the resource without @ and let the model read it in pages with %s", mcp.ReadResourceTool))
	}
	b.used += len(body)
	return append([]providers.Part{providers.TextPart(body)}, out...), nil
}

func isImage(mt string) bool {
	switch mt {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return true
	}
	return false
}

// serverNames names the servers of src, in order.
func serverNames(src *mcp.Source) []string {
	var out []string
	for _, st := range src.Statuses() {
		out = append(out, st.Name)
	}
	return out
}
