package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/llmrt/llmrt/tools"
)

// addPeerTools adds the tools that make the server ask the client
// something: elicit (a form), roots, and client-caps (what the client
// declared at initialize).
func addPeerTools(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("elicit"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		er := mcp.ElicitationRequest{}
		er.Params.Message = "Who are you?"
		er.Params.RequestedSchema = json.RawMessage(`{"type":"object","properties":{
			"name":{"type":"string","title":"Name","default":"Ada"},
			"age":{"type":"integer","default":36},
			"ok":{"type":"boolean"}},"required":["name"]}`)
		res, err := server.ServerFromContext(ctx).RequestElicitation(ctx, er)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		b, _ := json.Marshal(res)
		return mcp.NewToolResultText(string(b)), nil
	})
	s.AddTool(mcp.NewTool("roots"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := server.ServerFromContext(ctx).RequestRoots(ctx, mcp.ListRootsRequest{})
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		b, _ := json.Marshal(res.Roots)
		return mcp.NewToolResultText(string(b)), nil
	})
	s.AddTool(mcp.NewTool("client-caps"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sess, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
		if !ok {
			return mcp.NewToolResultError("no client info"), nil
		}
		b, _ := json.Marshal(sess.GetClientCapabilities())
		return mcp.NewToolResultText(string(b)), nil
	})
}

// peerSources starts the test server over each transport that carries
// server requests: streamable HTTP (in process) and stdio (this binary).
func peerSources(t *testing.T, dir string) map[string]*Source {
	t.Helper()
	exe, _ := os.Executable()
	ts := httptest.NewServer(server.NewStreamableHTTPServer(testServer(50)))
	t.Cleanup(ts.Close)
	out := map[string]*Source{}
	for name, sv := range map[string]Server{
		"streamable-http": {Name: "t", URL: ts.URL + "/mcp"},
		"stdio":           {Name: "t", Command: exe, Env: map[string]string{"LLMRT_MCP_TEST_SERVER": "1"}},
	} {
		src := New([]Server{sv}, dir)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_ = src.Start(ctx)
		cancel()
		t.Cleanup(func() { src.Close() })
		if d := src.Diagnostics(); len(d) > 0 {
			t.Fatalf("%s: diagnostics: %+v", name, d)
		}
		out[name] = src
	}
	return out
}

func callText(t *testing.T, src *Source, tool string) tools.Result {
	t.Helper()
	list, _ := src.Tools(context.Background())
	res, err := byName(t, list, tool).Execute(context.Background(), json.RawMessage(`{}`))
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

// TestElicitationReachesThePerson: a server's elicitation request is put
// to the person as questions, the server's message and defaults shown;
// with no person it is declined, and a person who cancels cancels it.
func TestElicitationReachesThePerson(t *testing.T) {
	first := func(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
		a := tools.Answer{Selected: map[string][]string{}}
		for _, q := range in.Questions {
			a.Selected[q.ID] = []string{q.Options[0].ID}
		}
		return a, nil
	}
	cases := []struct {
		name string
		ask  AskFunc
		want string
	}{
		{"first choices accept the defaults", first, `"action":"accept","content":{"age":36,"name":"Ada","ok":true}`},
		{"no person declines", nil, `"action":"decline"`},
		{"a person who cancels", func(context.Context, tools.AskInput) (tools.Answer, error) {
			return tools.Answer{}, context.Canceled
		}, `"action":"cancel"`},
		{"skipping declines", func(context.Context, tools.AskInput) (tools.Answer, error) {
			return tools.Answer{Skipped: true}, nil
		}, `"action":"decline"`},
	}
	for transport, src := range peerSources(t, t.TempDir()) {
		for _, tc := range cases {
			t.Run(transport+"/"+tc.name, func(t *testing.T) {
				var asked []tools.AskInput
				if tc.ask != nil {
					src.SetAsk(func(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
						asked = append(asked, in)
						return tc.ask(ctx, in)
					})
				} else {
					src.SetAsk(nil)
				}
				res := callText(t, src, "mcp__t__elicit")
				if !strings.Contains(res.Content, tc.want) {
					t.Fatalf("got %s, want it to contain %s", res.Content, tc.want)
				}
				if tc.ask != nil && (len(asked) != 1 || !strings.Contains(asked[0].Questions[0].Question, "Who are you?")) {
					t.Errorf("asked %+v, want one form showing the server's message", asked)
				}
			})
		}
	}
}

// TestRootsAnswerTheWorkingDirectory: a roots/list request is answered
// with the working directory as a file URI.
func TestRootsAnswerTheWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	for transport, src := range peerSources(t, dir) {
		res := callText(t, src, "mcp__t__roots")
		if want := fmt.Sprintf(`"uri":"file://%s"`, dir); res.IsError || !strings.Contains(res.Content, want) {
			t.Errorf("%s: roots = %s, want %s", transport, res.Content, want)
		}
	}
}

// TestDeclaredCapabilities: roots and elicitation are declared over stdio
// and streamable HTTP, and nothing is declared over the older SSE
// transport (as when mcp-go's client, which could not answer there, was
// used); sampling never is.
func TestDeclaredCapabilities(t *testing.T) {
	sse := server.NewSSEServer(testServer(50))
	ts := httptest.NewServer(sse)
	defer ts.Close()
	srcs := peerSources(t, t.TempDir())
	src := New([]Server{{Name: "t", Type: "sse", URL: ts.URL + "/sse"}}, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	defer src.Close()
	if d := src.Diagnostics(); len(d) > 0 {
		t.Fatalf("sse: diagnostics: %+v", d)
	}
	srcs["sse"] = src
	for transport, want := range map[string][]string{
		"stdio":           {"roots", "elicitation"},
		"streamable-http": {"roots", "elicitation"},
		"sse":             nil,
	} {
		var caps map[string]any
		res := callText(t, srcs[transport], "mcp__t__client-caps")
		if err := json.Unmarshal([]byte(res.Content), &caps); err != nil {
			t.Fatalf("%s: %s: %v", transport, res.Content, err)
		}
		for _, k := range []string{"roots", "elicitation", "sampling"} {
			_, got := caps[k]
			wanted := strings.Contains(strings.Join(want, " "), k)
			if got != wanted {
				t.Errorf("%s: capability %s declared = %v, want %v (capabilities %s)", transport, k, got, wanted, res.Content)
			}
		}
	}
}
