package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/llmrt/llmrt/tools"
)

// Names of the tools offered when a server has resources.
const (
	ListResourcesTool = "list_mcp_resources"
	ReadResourceTool  = "read_mcp_resource"
)

// maxResourceText bounds the text read_mcp_resource returns at once; the
// model pages on with offset.
const maxResourceText = 30_000

// resourceTools are list_mcp_resources and read_mcp_resource over s's
// servers. Both only read, so they are read tools for permissions and
// evidence alike.
func (s *Source) resourceTools() []tools.Tool {
	return []tools.Tool{
		{
			Name: ListResourcesTool,
			Description: "List the resources MCP servers offer (files, records, documents): uri, name, mimeType and description of each, " +
				"by server. Read one with " + ReadResourceTool + ".",
			Schema: json.RawMessage(`{"type":"object","properties":{` +
				`"server":{"type":"string","description":"Only this server's resources; omit for every server's"}}}`),
			Kind:    tools.KindRead,
			Source:  "mcp",
			Execute: s.listResourcesTool,
		},
		{
			Name:        ReadResourceTool,
			Description: "Read one resource of an MCP server by its uri (from " + ListResourcesTool + "). Text is returned as it is, in pages; binary contents are described by type and size.",
			Schema: json.RawMessage(`{"type":"object","properties":{` +
				`"server":{"type":"string","description":"The server that lists the resource"},` +
				`"uri":{"type":"string","description":"The resource's uri"},` +
				`"offset":{"type":"integer","minimum":0,"description":"Characters of text to skip, to read on after a truncated read (default 0)"}},` +
				`"required":["server","uri"]}`),
			Kind:    tools.KindRead,
			Source:  "mcp",
			Execute: s.readResourceTool,
		},
	}
}

func (s *Source) listResourcesTool(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var a struct {
		Server string `json:"server"`
	}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &a); err != nil {
			return tools.Errorf("invalid arguments: %v", err), nil
		}
	}
	list, err := s.Resources(ctx, a.Server)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.Errorf("%v", s.withResourceServers(err)), nil
	}
	if len(list) == 0 {
		return tools.Summed("no resources", "none"), nil
	}
	b, err := json.Marshal(map[string]any{"resources": list})
	if err != nil {
		return tools.Errorf("%v", err), nil
	}
	return tools.Summed(string(b), fmt.Sprintf("%d resources", len(list))), nil
}

func (s *Source) readResourceTool(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var a struct {
		Server string `json:"server"`
		URI    string `json:"uri"`
		Offset int    `json:"offset"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Errorf("invalid arguments: %v", err), nil
	}
	if a.Server == "" || a.URI == "" {
		return tools.Errorf("give the server and the uri of the resource (%s lists them)", ListResourcesTool), nil
	}
	parts, err := s.ReadResource(ctx, a.Server, a.URI)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.Errorf("%v", s.withResourceServers(err)), nil
	}
	text := ResourceText(parts)
	return tools.Summed(page(text, a.Offset, a.Server, a.URI), fmt.Sprintf("%d characters", utf8.RuneCountInString(text))), nil
}

// ResourceText joins what a read returned into one text: each text part
// as it is, each binary part described by its type and size.
func ResourceText(parts []ResourceContents) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString("\n")
		}
		if p.Binary {
			b.WriteString(p.Describe())
			continue
		}
		b.WriteString(p.Text)
	}
	if len(parts) == 0 {
		return "(the resource is empty)"
	}
	return b.String()
}

// page returns at most maxResourceText characters of text from offset,
// saying how to read on when there is more.
func page(text string, offset int, server, uri string) string {
	runes := []rune(text)
	total := len(runes)
	if offset >= total && total > 0 {
		return fmt.Sprintf("[offset %d is past the end: the resource has %d characters]", offset, total)
	}
	offset = max(offset, 0)
	end := min(total, offset+maxResourceText)
	out := string(runes[offset:end])
	if offset > 0 || end < total {
		out += fmt.Sprintf("\n[characters %d-%d of %d", offset, end, total)
		if end < total {
			out += fmt.Sprintf("; truncated: call %s with server=%q, uri=%q, offset=%d to read on", ReadResourceTool, server, uri, end)
		}
		out += "]"
	}
	return out
}

// withResourceServers adds to an unknown-server error the servers that
// do offer resources.
func (s *Source) withResourceServers(err error) error {
	if !errors.Is(err, ErrNoServer) {
		return err
	}
	names := s.ResourceServers()
	if len(names) == 0 {
		return err
	}
	return fmt.Errorf("%w; servers with resources: %s", err, strings.Join(names, ", "))
}
