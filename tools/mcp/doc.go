// Package mcp connects llmrt to Model Context Protocol servers and offers
// their tools to the engine as a tool source.
//
// It owns the server configuration (the mcpServers and servers file shapes,
// JSON with comments, ${VAR} expansion, merging by name, roots and the
// tools offered), the clients (llmrt's own, in internal/rpc, over stdio,
// streamable HTTP and SSE, with OAuth from package oauth) and their
// lifecycle: a Source
// starts every server concurrently, reports the ones that fail as
// diagnostics, exposes the others' tools as mcp__<server>__<tool>, starts
// again a stdio server that exited and initialises again an HTTP session
// the server lost (a bounded number of times), lets a host reconnect,
// enable, disable and log in to a server, and Close ends them all, a stdio
// server with its whole process group. Server requests (roots,
// elicitation) and notifications (progress, tools/list_changed) are
// answered here too. Servers' resources are offered through two read tools
// (list_mcp_resources, read_mcp_resource) and read for @server:uri
// mentions; their prompts are listed and expanded for the host's
// /mcp__server__prompt commands. Nothing here writes to the terminal.
//
// The protocol types are mcp-go's (package mcp), but not its client: its
// client/transport package imports mcp-go's server (for an in-process
// transport), and that imports a JSON Schema validator which compiles
// every draft's meta-schema in its package init, some 6 ms and 1.7 MB on
// every start of llmrt, --help included, whether or not a server is
// configured. The JSON-RPC session and the three transports are small
// enough to own; TestBinaryLinksNoMCPServer keeps the server out.
package mcp
