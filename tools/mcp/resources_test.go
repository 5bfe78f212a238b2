package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/llmrt/llmrt/tools"
)

// bigText is a resource longer than one page of read_mcp_resource.
var bigText = strings.Repeat("0123456789", 4000)

// docsServer has resources (a text, a PNG, a large text) and prompts
// (greet, with a required and an optional argument; a conversation of
// two messages).
func docsServer() *server.MCPServer {
	s := server.NewMCPServer("docs", "1.0", server.WithResourceCapabilities(false, false), server.WithPromptCapabilities(false))
	s.AddResource(mcp.NewResource("res://readme", "readme", mcp.WithMIMEType("text/plain"), mcp.WithResourceDescription("the readme")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "README-TEXT-4417"}}, nil
		})
	s.AddResource(mcp.NewResource("res://logo", "logo", mcp.WithMIMEType("image/png")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			blob := base64.StdEncoding.EncodeToString([]byte("\x89PNG-eleven"))
			return []mcp.ResourceContents{mcp.BlobResourceContents{URI: req.Params.URI, MIMEType: "image/png", Blob: blob}}, nil
		})
	s.AddResource(mcp.NewResource("res://big", "big"),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, Text: bigText}}, nil
		})
	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithPromptDescription("Greets someone"),
		mcp.WithArgument("name", mcp.RequiredArgument(), mcp.ArgumentDescription("who")),
		mcp.WithArgument("greeting")),
		func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			g := req.Params.Arguments["greeting"]
			if g == "" {
				g = "Hello"
			}
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(g+", "+req.Params.Arguments["name"]+"! Write them a poem.")),
			}}, nil
		})
	s.AddPrompt(mcp.NewPrompt("chat"), func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("first question")),
			mcp.NewPromptMessage(mcp.RoleAssistant, mcp.NewTextContent("an earlier answer")),
		}}, nil
	})
	return s
}

func TestResourceToolsOfferedOnlyWithResources(t *testing.T) {
	plain := startHTTP(t, testServer(50))
	ts, _ := plain.Tools(context.Background())
	for _, tl := range ts {
		if tl.Name == ListResourcesTool || tl.Name == ReadResourceTool {
			t.Fatalf("%s offered by a server without resources", tl.Name)
		}
	}
	docs := startHTTP(t, docsServer())
	ts, _ = docs.Tools(context.Background())
	for _, name := range []string{ListResourcesTool, ReadResourceTool} {
		tl := byName(t, ts, name)
		if tl.Kind != tools.KindRead {
			t.Errorf("%s: kind %s, want read", name, tl.Kind)
		}
	}
	again, _ := docs.Tools(context.Background())
	if &again[0] != &ts[0] {
		t.Error("an unchanged tool list should be the same slice")
	}
}

func TestListAndReadResourceTools(t *testing.T) {
	src := startHTTP(t, docsServer())
	ts, _ := src.Tools(context.Background())
	ctx := context.Background()
	res, err := byName(t, ts, ListResourcesTool).Execute(ctx, json.RawMessage(`{}`))
	if err != nil || res.IsError {
		t.Fatalf("list: %+v %v", res, err)
	}
	var listed struct{ Resources []Resource }
	if err := json.Unmarshal([]byte(res.Content), &listed); err != nil {
		t.Fatalf("list result is not JSON: %v\n%s", err, res.Content)
	}
	if len(listed.Resources) != 3 {
		t.Fatalf("got %d resources, want 3: %s", len(listed.Resources), res.Content)
	}
	want := Resource{Server: "t", URI: "res://readme", Name: "readme", MIMEType: "text/plain", Description: "the readme"}
	found := false
	for _, r := range listed.Resources {
		found = found || r == want
	}
	if !found {
		t.Errorf("list lacks %+v: %s", want, res.Content)
	}

	read := byName(t, ts, ReadResourceTool)
	cases := []struct {
		args, want string
		isError    bool
	}{
		{`{"server":"t","uri":"res://readme"}`, "README-TEXT-4417", false},
		{`{"server":"t","uri":"res://logo"}`, "[binary contents of res://logo: image/png, 11 bytes]", false},
		{`{"server":"t","uri":"res://big"}`, `offset=30000 to read on]`, false},
		{`{"server":"t","uri":"res://big","offset":39990}`, "0123456789\n[characters 39990-40000 of 40000]", false},
		{`{"server":"nope","uri":"res://readme"}`, `no such MCP server "nope" (servers: t); servers with resources: t`, true},
		{`{"server":"t","uri":"res://missing"}`, "res://missing", true},
		{`{"server":"t"}`, "give the server and the uri", true},
	}
	for _, tc := range cases {
		res, err := read.Execute(ctx, json.RawMessage(tc.args))
		if err != nil {
			t.Fatalf("%s: %v", tc.args, err)
		}
		if res.IsError != tc.isError || !strings.Contains(res.Content, tc.want) {
			t.Errorf("read %s: got isError=%v %.300q, want isError=%v with %q", tc.args, res.IsError, res.Content, tc.isError, tc.want)
		}
		if len(res.Content) > maxResourceText+300 {
			t.Errorf("read %s: %d characters, want at most a page", tc.args, len(res.Content))
		}
	}
}

func TestPromptsListBindAndGet(t *testing.T) {
	src := startHTTP(t, docsServer())
	ctx := context.Background()
	prompts := src.Prompts(ctx)
	if len(prompts) != 2 {
		t.Fatalf("got %d prompts, want 2: %+v", len(prompts), prompts)
	}
	p, ok := src.LookupPrompt(ctx, "mcp__t__greet")
	if !ok {
		t.Fatalf("mcp__t__greet not found among %+v", prompts)
	}
	if p.Description != "Greets someone" || p.Usage() != "<name> [greeting]" {
		t.Errorf("greet: description %q usage %q", p.Description, p.Usage())
	}
	binds := []struct {
		words []string
		want  map[string]string
		err   string
	}{
		{[]string{"Ada"}, map[string]string{"name": "Ada"}, ""},
		{[]string{"name=Ada"}, map[string]string{"name": "Ada"}, ""},
		{[]string{"Ada", "Hi"}, map[string]string{"name": "Ada", "greeting": "Hi"}, ""},
		{[]string{"greeting=Hi", "Ada"}, map[string]string{"name": "Ada", "greeting": "Hi"}, ""},
		{[]string{"x=y"}, map[string]string{"name": "x=y"}, ""},
		{nil, nil, "name is required (usage: /mcp__t__greet <name> [greeting]"},
		{[]string{"Ada", "Hi", "extra"}, nil, `"extra" is one word too many`},
		{[]string{"name=A", "name=B"}, nil, "name is given twice"},
	}
	for _, b := range binds {
		got, err := p.Bind(b.words)
		switch {
		case b.err != "" && (err == nil || !strings.Contains(err.Error(), b.err)):
			t.Errorf("Bind(%q): got error %v, want %q", b.words, err, b.err)
		case b.err == "" && err != nil:
			t.Errorf("Bind(%q): %v", b.words, err)
		case b.err == "" && !equalMaps(got, b.want):
			t.Errorf("Bind(%q) = %v, want %v", b.words, got, b.want)
		}
	}
	parts, err := src.GetPrompt(ctx, p, map[string]string{"name": "Ada"})
	if err != nil || len(parts) != 1 || parts[0].Text != "Hello, Ada! Write them a poem." {
		t.Fatalf("GetPrompt greet: %+v %v", parts, err)
	}
	chat, _ := src.LookupPrompt(ctx, "mcp__t__chat")
	parts, err = src.GetPrompt(ctx, chat, nil)
	if err != nil || len(parts) != 1 || parts[0].Text != "first question\n\n[assistant] an earlier answer" {
		t.Fatalf("GetPrompt chat: %+v %v", parts, err)
	}
	if _, ok := src.LookupPrompt(ctx, "mcp__t__nope"); ok {
		t.Error("an unknown prompt should not be found")
	}
}

func TestPromptCommandNames(t *testing.T) {
	for _, tc := range []struct{ server, prompt, want string }{
		{"srv", "greet", "mcp__srv__greet"},
		{"my server", "code/review", "mcp__my_server__code_review"},
	} {
		if got := PromptCommand(tc.server, tc.prompt); got != tc.want {
			t.Errorf("PromptCommand(%q, %q) = %q, want %q", tc.server, tc.prompt, got, tc.want)
		}
	}
}

func TestControlDisableEnableReconnect(t *testing.T) {
	src := startHTTP(t, docsServer())
	ctx := context.Background()
	if err := src.SetEnabled(ctx, "t", false); err != nil {
		t.Fatal(err)
	}
	if st := src.Statuses()[0]; st.State != StateDisabled {
		t.Fatalf("state after disable: %s", st.State)
	}
	ts, _ := src.Tools(ctx)
	if len(ts) != 0 || len(src.Prompts(ctx)) != 0 {
		t.Fatalf("a disabled server still offers %d tools, %d prompts", len(ts), len(src.Prompts(ctx)))
	}
	if err := src.SetEnabled(ctx, "t", true); err != nil {
		t.Fatal(err)
	}
	ts, _ = src.Tools(ctx)
	byName(t, ts, ReadResourceTool)
	if err := src.Reconnect(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if st := src.Statuses()[0]; st.State != "ready" {
		t.Fatalf("state after reconnect: %s %s", st.State, st.Err)
	}
	if err := src.Reconnect(ctx, "ghost"); !errors.Is(err, ErrNoServer) {
		t.Errorf("reconnect of an unknown server: %v", err)
	}
	if err := src.Login(ctx, "t", nil); err == nil || !strings.Contains(err.Error(), "nothing to log in to") {
		t.Errorf("login to a server without OAuth: %v, want it refused", err)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
