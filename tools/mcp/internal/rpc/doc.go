// Package rpc is llmrt's JSON-RPC 2.0 layer for MCP: a Client that
// numbers requests, matches answers to them in any order, answers the
// server's own requests and hands on its notifications, and the three
// transports MCP servers speak: a line-delimited stream (a stdio
// server's pipes), streamable HTTP (POST per message, answers as JSON or
// an SSE stream, a session header, a standing GET stream) and the older
// HTTP+SSE transport (a GET stream that names the endpoint to POST to).
//
// Everything a server sends is treated as hostile: a line or event larger
// than MaxMessage is dropped, undecodable messages and answers to unknown
// ids are ignored, error text is cleaned of control characters and cut
// short, and a transport that ends fails every pending call at once.
// Starting processes, OAuth and the MCP methods themselves live in the
// parent package; this one knows JSON-RPC and the wire.
package rpc
