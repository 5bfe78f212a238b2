package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// tool wraps one server tool.
func (c *conn) tool(name string, t mcp.Tool) tools.Tool {
	schema, err := json.Marshal(t.InputSchema)
	if t.RawInputSchema != nil {
		schema, err = t.RawInputSchema, nil
	}
	if err != nil || len(schema) == 0 || string(schema) == "null" {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	schema = normaliseSchema(schema)
	kind := tools.KindExternalAction
	if t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint {
		kind = tools.KindRead
	}
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	remote := t.Name
	return tools.Tool{
		Name:        name,
		Description: desc,
		Schema:      schema,
		Kind:        kind,
		Source:      "mcp:" + c.cfg.Name,
		Execute: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
			return c.call(ctx, remote, args)
		},
	}
}

// normaliseSchema makes sure a schema is an object schema with properties,
// which some providers require, keeping everything else as given.
func normaliseSchema(s json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(s, &m) != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	if _, ok := m["type"]; !ok {
		m["type"] = "object"
	}
	b, err := json.Marshal(m)
	if err != nil {
		return s
	}
	return b
}

func (c *conn) call(ctx context.Context, name string, args json.RawMessage) (tools.Result, error) {
	cl, err := c.readyClient(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.Errorf("mcp server %s: %v", c.cfg.Name, err), nil
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	if len(args) > 0 {
		var a map[string]any
		if err := json.Unmarshal(args, &a); err != nil {
			return tools.Errorf("invalid arguments: %v", err), nil
		}
		req.Params.Arguments = a
	}
	tok := fmt.Sprintf("llmrt-%d", c.nextTok.Add(1))
	req.Params.Meta = &mcp.Meta{ProgressToken: tok}
	c.progMu.Lock()
	if c.progress == nil {
		c.progress = map[string]*progressSink{}
	}
	c.progress[tok] = &progressSink{report: func(p tools.Progress) { tools.ReportProgress(ctx, p) }}
	c.progMu.Unlock()
	defer func() {
		c.progMu.Lock()
		delete(c.progress, tok)
		c.progMu.Unlock()
	}()
	cctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout())
	defer cancel()
	// A call whose context ends is followed by notifications/cancelled
	// (rpc.Client.Call), on every transport.
	res, err := cl.callTool(cctx, req.Params)
	if err != nil && ctx.Err() == nil && cctx.Err() == nil {
		// A server that ended is reported with how; one that lost the
		// session is initialised again and asked once more (the call
		// never reached it).
		var retry *mcp.CallToolResult
		next, why := c.afterFailure(cctx, cl, err)
		if next != nil {
			retry, why = next.callTool(cctx, req.Params)
		}
		res, err = retry, why
	}
	c.mu.Lock()
	c.stale = c.stale || c.listChanged
	c.mu.Unlock()
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return tools.Result{}, ctx.Err()
		case errors.Is(cctx.Err(), context.DeadlineExceeded):
			return tools.Errorf("mcp server %s: %s gave no answer within %s; the server was told to cancel it (raise \"tool_timeout\", in seconds, in its config if it needs longer)",
				c.cfg.Name, name, c.cfg.CallTimeout()), nil
		}
		return tools.Errorf("mcp server %s: %v", c.cfg.Name, err), nil
	}
	return convert(res), nil
}

// convert turns a tool result into what the model sees.
func convert(res *mcp.CallToolResult) tools.Result {
	var text []string
	var parts []providers.Part
	for _, ct := range res.Content {
		switch v := ct.(type) {
		case mcp.TextContent:
			text = append(text, v.Text)
		case mcp.ImageContent:
			data, err := base64.StdEncoding.DecodeString(v.Data)
			if err != nil {
				text = append(text, fmt.Sprintf("[image %s: undecodable data]", v.MIMEType))
				continue
			}
			parts = append(parts, providers.Part{Type: providers.PartImage, MediaType: v.MIMEType, Data: data})
			text = append(text, fmt.Sprintf("[image %s, %d bytes]", v.MIMEType, len(data)))
		case mcp.AudioContent:
			text = append(text, fmt.Sprintf("[audio %s, not shown]", v.MIMEType))
		case mcp.ResourceLink:
			text = append(text, fmt.Sprintf("[resource link %s: %s %s]", v.Name, v.URI, v.Description))
		case mcp.EmbeddedResource:
			switch r := v.Resource.(type) {
			case mcp.TextResourceContents:
				text = append(text, fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text))
			case mcp.BlobResourceContents:
				text = append(text, fmt.Sprintf("[resource %s, %s, %d bytes base64]", r.URI, r.MIMEType, len(r.Blob)))
			}
		default:
			b, _ := json.Marshal(ct)
			text = append(text, string(b))
		}
	}
	if len(text) == 0 && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		text = append(text, string(b))
	}
	return tools.Result{Content: strings.Join(text, "\n"), Parts: parts, IsError: res.IsError}
}
