package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestEverythingResourcesAndPrompts: the pinned everything server's
// resources are listed and read through the resource tools (a text
// document, and a binary one described), and its prompts become commands
// whose arguments bind by name and by position.
func TestEverythingResourcesAndPrompts(t *testing.T) {
	dir := npmDir(t)
	src := New([]Server{npmServer(dir, "everything", "server-everything", "stdio")}, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if err := src.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if d := src.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	ts, err := src.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := byName(t, ts, ListResourcesTool).Execute(ctx, json.RawMessage(`{"server":"everything"}`))
	const doc = "demo://resource/static/document/structure.md"
	if err != nil || res.IsError || !strings.Contains(res.Content, doc) {
		t.Fatalf("list_mcp_resources lacks %s: %+v %v", doc, res, err)
	}
	read := byName(t, ts, ReadResourceTool)
	for _, tc := range []struct{ uri, want string }{
		{doc, "Everything Server - Project Structure"},
		{"demo://resource/dynamic/blob/1", "[binary contents of demo://resource/dynamic/blob/1"},
	} {
		res, err := read.Execute(ctx, json.RawMessage(`{"server":"everything","uri":"`+tc.uri+`"}`))
		if err != nil || res.IsError || !strings.Contains(res.Content, tc.want) {
			t.Errorf("read %s: got %.300q %v, want %q", tc.uri, res.Content, err, tc.want)
		}
	}

	p, ok := src.LookupPrompt(ctx, "mcp__everything__args-prompt")
	if !ok {
		t.Fatalf("no args-prompt among %+v", src.Prompts(ctx))
	}
	if p.Usage() != "<city> [state]" {
		t.Errorf("args-prompt usage %q, want <city> [state]", p.Usage())
	}
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"city=Paris"}, "What's weather in Paris?"},
		{[]string{"Austin", "Texas"}, "What's weather in Austin, Texas?"},
	} {
		args, err := p.Bind(tc.words)
		if err != nil {
			t.Fatalf("Bind(%q): %v", tc.words, err)
		}
		parts, err := src.GetPrompt(ctx, p, args)
		if err != nil || len(parts) == 0 || parts[0].Text != tc.want {
			t.Errorf("args-prompt %q: got %+v %v, want %q", tc.words, parts, err, tc.want)
		}
	}
	if _, err := p.Bind(nil); err == nil || !strings.Contains(err.Error(), "city is required") {
		t.Errorf("a missing city: %v", err)
	}
}
