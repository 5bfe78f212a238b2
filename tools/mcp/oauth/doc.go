// Package oauth authorizes llmrt's MCP client with remote (HTTP and SSE)
// MCP servers as the MCP authorization spec describes: protected resource
// metadata discovery (RFC 9728), authorization server metadata (RFC 8414
// and OpenID discovery, with the 2025-03-26 fallbacks), client
// identification by metadata document, pre-registration or dynamic
// registration (RFC 7591), the authorization code grant with PKCE and a
// loopback redirect, resource indicators (RFC 8707), the iss response
// parameter (RFC 9207), scope step-up, refresh, and the client
// credentials grant for machines.
//
// Transport is an http.RoundTripper that adds the bearer token to every
// request and runs the flow when the server challenges it; Store keeps
// the tokens, one 0600 file per server, in the user's state directory.
// The package never prints: the one step a person takes (opening the
// authorization URL) goes through the Open function its user supplies.
package oauth
