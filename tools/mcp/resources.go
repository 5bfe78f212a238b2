package mcp

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// maxResources bounds how many resources one server's listing keeps: a
// server that pages forever cannot hold a call.
const maxResources = 2000

// Resource is one resource a server lists.
type Resource struct {
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Description string `json:"description,omitempty"`
}

// ResourceContents is one part of a resource as read: text, or binary
// data (Blob) with its MIME type.
type ResourceContents struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
	// Binary says the part is Blob, not Text.
	Binary bool
}

// ErrNoServer is wrapped by the errors for a server name no ready server
// has.
var ErrNoServer = errors.New("no such MCP server")

// ready returns the client of a ready server and its capabilities; nil
// when the server is not ready.
func (c *conn) ready() (*session, mcp.ServerCapabilities) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != "ready" || c.client == nil {
		return nil, mcp.ServerCapabilities{}
	}
	return c.client, c.client.caps
}

// hasResources reports a ready server that declared resources.
func (c *conn) hasResources() bool {
	cl, caps := c.ready()
	return cl != nil && caps.Resources != nil
}

// server finds a configured server by name: an error naming the servers
// there are when none is called so.
func (s *Source) server(name string) (*conn, error) {
	var names []string
	for _, c := range s.servers {
		if c.cfg.Name == name {
			return c, nil
		}
		names = append(names, c.cfg.Name)
	}
	known := "none are configured"
	if len(names) > 0 {
		known = "servers: " + strings.Join(names, ", ")
	}
	return nil, fmt.Errorf("%w %q (%s)", ErrNoServer, name, known)
}

// ResourceServers names the ready servers that offer resources.
func (s *Source) ResourceServers() []string {
	var out []string
	for _, c := range s.servers {
		if c.hasResources() {
			out = append(out, c.cfg.Name)
		}
	}
	return out
}

// Resources lists the resources of server, or of every ready server that
// offers some when server is "". A server that fails to list is an error
// when named, and left out otherwise.
func (s *Source) Resources(ctx context.Context, server string) ([]Resource, error) {
	if server != "" {
		c, err := s.server(server)
		if err != nil {
			return nil, err
		}
		return c.resources(ctx)
	}
	var out []Resource
	var errs []error
	for _, c := range s.servers {
		if !c.hasResources() {
			continue
		}
		list, err := c.resources(ctx)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, list...)
	}
	if len(out) == 0 && len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// resources fetches every page of the server's resources.
func (c *conn) resources(ctx context.Context) ([]Resource, error) {
	cl, caps := c.ready()
	switch {
	case cl == nil:
		return nil, fmt.Errorf("mcp server %s is not running (%s)", c.cfg.Name, c.status().State)
	case caps.Resources == nil:
		return nil, fmt.Errorf("mcp server %s offers no resources", c.cfg.Name)
	}
	lctx, done := context.WithTimeout(ctx, c.cfg.StartTimeout())
	defer done()
	var out []Resource
	var cursor mcp.Cursor
	for len(out) < maxResources {
		res, err := cl.listResources(lctx, cursor)
		if err != nil {
			return nil, fmt.Errorf("mcp server %s: list resources: %w", c.cfg.Name, err)
		}
		for _, r := range res.Resources {
			out = append(out, Resource{Server: c.cfg.Name, URI: r.URI, Name: r.Name, MIMEType: r.MIMEType, Description: r.Description})
		}
		if res.NextCursor == "" || res.NextCursor == cursor {
			break
		}
		cursor = res.NextCursor
	}
	return out[:min(len(out), maxResources)], nil
}

// ReadResource reads the resource uri of server.
func (s *Source) ReadResource(ctx context.Context, server, uri string) ([]ResourceContents, error) {
	c, err := s.server(server)
	if err != nil {
		return nil, err
	}
	cl, caps := c.ready()
	switch {
	case cl == nil:
		return nil, fmt.Errorf("mcp server %s is not running (%s)", server, c.status().State)
	case caps.Resources == nil:
		return nil, fmt.Errorf("mcp server %s offers no resources", server)
	case strings.TrimSpace(uri) == "":
		return nil, fmt.Errorf("mcp server %s: no resource uri given", server)
	}
	rctx, done := context.WithTimeout(ctx, c.cfg.CallTimeout())
	defer done()
	res, err := cl.readResource(rctx, uri)
	if err != nil {
		return nil, fmt.Errorf("mcp server %s: read %s: %w", server, uri, err)
	}
	var out []ResourceContents
	for _, ct := range res.Contents {
		switch v := ct.(type) {
		case mcp.TextResourceContents:
			out = append(out, ResourceContents{URI: v.URI, MIMEType: v.MIMEType, Text: v.Text})
		case mcp.BlobResourceContents:
			data, err := base64.StdEncoding.DecodeString(v.Blob)
			if err != nil {
				return nil, fmt.Errorf("mcp server %s: read %s: undecodable binary contents", server, uri)
			}
			out = append(out, ResourceContents{URI: v.URI, MIMEType: v.MIMEType, Blob: data, Binary: true})
		}
	}
	return out, nil
}

// Describe says what a binary part is, for a text that stands for it.
func (r ResourceContents) Describe() string {
	mt := r.MIMEType
	if mt == "" {
		mt = "unknown type"
	}
	return fmt.Sprintf("[binary contents of %s: %s, %d bytes]", r.URI, mt, len(r.Blob))
}

// hasResourceServer reports whether any server offers resources, for
// whether the resource tools are offered.
func (s *Source) hasResourceServer() bool {
	return slices.ContainsFunc(s.servers, (*conn).hasResources)
}
