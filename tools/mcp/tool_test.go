package mcp

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestConvertResults: each kind of content a server returns becomes text
// the model reads, and images also image parts.
func TestConvertResults(t *testing.T) {
	cases := []struct {
		name    string
		res     mcp.CallToolResult
		want    string
		parts   int
		isError bool
	}{
		{"text", mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("a"), mcp.NewTextContent("b")}}, "a\nb", 0, false},
		{"isError keeps the text", mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("disk full")}, IsError: true}, "disk full", 0, true},
		{"image", mcp.CallToolResult{Content: []mcp.Content{mcp.NewImageContent("iVBORw0KGgo=", "image/png")}}, "[image image/png, 8 bytes]", 1, false},
		{"undecodable image", mcp.CallToolResult{Content: []mcp.Content{mcp.NewImageContent("%%%", "image/png")}}, "[image image/png: undecodable data]", 0, false},
		{"audio", mcp.CallToolResult{Content: []mcp.Content{mcp.NewAudioContent("AAAA", "audio/wav")}}, "[audio audio/wav, not shown]", 0, false},
		{"resource link", mcp.CallToolResult{Content: []mcp.Content{mcp.NewResourceLink("file:///r.txt", "r.txt", "a file", "text/plain")}}, "[resource link r.txt: file:///r.txt a file]", 0, false},
		{"text resource", mcp.CallToolResult{Content: []mcp.Content{mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "mem://x", Text: "hello"})}}, "[resource mem://x]\nhello", 0, false},
		{"blob resource", mcp.CallToolResult{Content: []mcp.Content{mcp.NewEmbeddedResource(mcp.BlobResourceContents{URI: "mem://b", MIMEType: "application/gzip", Blob: "AAAA"})}}, "[resource mem://b, application/gzip, 4 bytes base64]", 0, false},
		{"structured only", mcp.CallToolResult{StructuredContent: map[string]any{"temp": 21}}, `{"temp":21}`, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := convert(&tc.res)
			if got.Content != tc.want || len(got.Parts) != tc.parts || got.IsError != tc.isError {
				t.Errorf("got %q, %d parts, isError %v; want %q, %d parts, isError %v", got.Content, len(got.Parts), got.IsError, tc.want, tc.parts, tc.isError)
			}
		})
	}
}
