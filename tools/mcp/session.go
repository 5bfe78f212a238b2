package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/llmrt/llmrt/tools/mcp/internal/rpc"
)

// session is one connection to a server once initialised: the JSON-RPC
// client, and what the server declared.
type session struct {
	rpc  *rpc.Client
	http *rpc.HTTP // the streamable HTTP transport, nil for the others
	caps mcp.ServerCapabilities
}

// peer is how the client answers a server's requests; a nil field means
// the capability is not declared and the request is refused.
type peer struct {
	elicit *elicitor
	roots  *rootsHandler
}

// capabilities are the client capabilities declared for p.
func (p peer) capabilities() mcp.ClientCapabilities {
	var caps mcp.ClientCapabilities
	if p.roots != nil {
		caps.Roots = &struct {
			ListChanged bool `json:"listChanged,omitempty"`
		}{ListChanged: true}
	}
	if p.elicit != nil {
		caps.Elicitation = &mcp.ElicitationCapability{}
	}
	return caps
}

// handle answers one server request.
func (p peer) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch {
	case method == string(mcp.MethodElicitationCreate) && p.elicit != nil:
		var ep mcp.ElicitationParams
		if len(params) > 0 {
			if err := json.Unmarshal(params, &ep); err != nil {
				return nil, &rpc.Error{Code: mcp.INVALID_PARAMS, Message: "invalid elicitation params: " + err.Error()}
			}
		}
		if err := ep.Validate(); err != nil {
			return nil, &rpc.Error{Code: mcp.INVALID_PARAMS, Message: "invalid elicitation params: " + err.Error()}
		}
		return p.elicit.Elicit(ctx, mcp.ElicitationRequest{Params: ep})
	case method == string(mcp.MethodListRoots) && p.roots != nil:
		return p.roots.ListRoots(ctx, mcp.ListRootsRequest{})
	}
	return nil, &rpc.Error{Code: rpc.CodeMethodNotFound, Message: "method not supported by llmrt: " + rpc.Clean(method, 100)}
}

// initialize runs the initialize handshake.
func (s *session) initialize(ctx context.Context, p peer) (*mcp.InitializeResult, error) {
	params := struct {
		ProtocolVersion string                 `json:"protocolVersion"`
		ClientInfo      mcp.Implementation     `json:"clientInfo"`
		Capabilities    mcp.ClientCapabilities `json:"capabilities"`
	}{protocolVersion, mcp.Implementation{Name: "llmrt", Version: "dev"}, p.capabilities()}
	var res mcp.InitializeResult
	if err := s.rpc.Call(ctx, string(mcp.MethodInitialize), params, &res); err != nil {
		return nil, err
	}
	if !mcp.IsValidProtocolVersion(res.ProtocolVersion) {
		return nil, fmt.Errorf("the server speaks MCP protocol version %q, which llmrt does not know", rpc.Clean(res.ProtocolVersion, 50))
	}
	s.caps = res.Capabilities
	if s.http != nil {
		s.http.SetProtocolVersion(res.ProtocolVersion)
	}
	if err := s.rpc.Notify(ctx, string(mcp.MethodNotificationInitialized), nil); err != nil {
		return nil, fmt.Errorf("send notifications/initialized: %w", err)
	}
	return &res, nil
}

func (s *session) listTools(ctx context.Context, cursor mcp.Cursor) (*mcp.ListToolsResult, error) {
	var res mcp.ListToolsResult
	err := s.rpc.Call(ctx, string(mcp.MethodToolsList), mcp.PaginatedParams{Cursor: cursor}, &res)
	return &res, err
}

func (s *session) callTool(ctx context.Context, p mcp.CallToolParams) (*mcp.CallToolResult, error) {
	var raw json.RawMessage
	if err := s.rpc.Call(ctx, string(mcp.MethodToolsCall), p, &raw); err != nil {
		return nil, err
	}
	return mcp.ParseCallToolResult(&raw)
}

func (s *session) listResources(ctx context.Context, cursor mcp.Cursor) (*mcp.ListResourcesResult, error) {
	var res mcp.ListResourcesResult
	err := s.rpc.Call(ctx, string(mcp.MethodResourcesList), mcp.PaginatedParams{Cursor: cursor}, &res)
	return &res, err
}

func (s *session) readResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	var raw json.RawMessage
	if err := s.rpc.Call(ctx, string(mcp.MethodResourcesRead), mcp.ReadResourceParams{URI: uri}, &raw); err != nil {
		return nil, err
	}
	return mcp.ParseReadResourceResult(&raw)
}

func (s *session) listPrompts(ctx context.Context, cursor mcp.Cursor) (*mcp.ListPromptsResult, error) {
	var res mcp.ListPromptsResult
	err := s.rpc.Call(ctx, string(mcp.MethodPromptsList), mcp.PaginatedParams{Cursor: cursor}, &res)
	return &res, err
}

func (s *session) getPrompt(ctx context.Context, p mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
	var raw json.RawMessage
	if err := s.rpc.Call(ctx, string(mcp.MethodPromptsGet), p, &raw); err != nil {
		return nil, err
	}
	return mcp.ParseGetPromptResult(&raw)
}

// Close ends the connection (and, over stdio, the process).
func (s *session) Close() error { return s.rpc.Close() }
