package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/sandbox"
)

// TestMain lets the test binary act as a stdio MCP server.
func TestMain(m *testing.M) {
	if os.Getenv("LLMRT_MCP_TEST_SERVER") == "1" {
		if os.Getenv("LLMRT_MCP_TEST_IGNORE_TERM") == "1" {
			signalIgnoreTerm()
		}
		if d, err := time.ParseDuration(os.Getenv("LLMRT_MCP_TEST_START_DELAY")); err == nil {
			time.Sleep(d) // a server slow to start, as one behind npx is
		}
		s := testServer(2)
		addCrashTools(s)
		_ = server.ServeStdio(s)
		if os.Getenv("LLMRT_MCP_TEST_IGNORE_TERM") == "1" {
			time.Sleep(time.Hour) // outlive stdin's end too
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func testServer(pageSize int) *server.MCPServer {
	s := server.NewMCPServer("test", "1.0", server.WithToolCapabilities(true), server.WithPaginationLimit(pageSize),
		server.WithElicitation(), server.WithRoots())
	addPeerTools(s)
	s.AddTool(mcp.NewTool("get-sum", mcp.WithDescription("adds"),
		mcp.WithNumber("a", mcp.Required(), mcp.Description("first")),
		mcp.WithNumber("b", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a := req.GetFloat("a", 0)
			b := req.GetFloat("b", 0)
			return mcp.NewToolResultText(fmt.Sprintf("The sum of %v and %v is %v.", a, b, a+b)), nil
		})
	s.AddTool(mcp.NewTool("fail"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultError("it broke on purpose"), nil
	})
	s.AddTool(mcp.NewTool("image"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultImage("a dot", "iVBORw0KGgo=", "image/png"), nil
	})
	s.AddTool(mcp.NewTool("slow"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		srv := server.ServerFromContext(ctx)
		tok := req.Params.Meta.ProgressToken
		for i := 1; i <= 3; i++ {
			_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{"progressToken": tok, "progress": float64(i), "total": 3.0, "message": fmt.Sprintf("step %d", i)})
		}
		// mcp-go hands notifications to the client's handler on their own
		// goroutines; a running tool's progress arrives while it runs.
		time.Sleep(200 * time.Millisecond)
		return mcp.NewToolResultText("done"), nil
	})
	s.AddTool(mcp.NewTool("hang", mcp.WithString("mark")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// Runs until cancelled, then writes the file named by "mark".
		select {
		case <-ctx.Done():
			_ = os.WriteFile(req.GetString("mark", os.DevNull), []byte("cancelled"), 0o644)
		case <-time.After(time.Minute):
		}
		return mcp.NewToolResultText("finished"), nil
	})
	s.AddTool(mcp.NewTool("odd name.with/chars", mcp.WithReadOnlyHintAnnotation(true)), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	return s
}

func startHTTP(t *testing.T, s *server.MCPServer) *Source {
	t.Helper()
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close)
	src := New([]Server{{Name: "t", URL: ts.URL + "/mcp"}}, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := src.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	if d := src.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	return src
}

func byName(t *testing.T, ts []tools.Tool, name string) tools.Tool {
	t.Helper()
	for _, tl := range ts {
		if tl.Name == name {
			return tl
		}
	}
	var names []string
	for _, tl := range ts {
		names = append(names, tl.Name)
	}
	t.Fatalf("no tool %q in %v", name, names)
	return tools.Tool{}
}

func TestHTTPToolsPaginationSchemaAndCalls(t *testing.T) {
	src := startHTTP(t, testServer(2))
	ts, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 9 { // 9 tools in pages of 2
		t.Fatalf("got %d tools, want 9 across pages", len(ts))
	}
	sum := byName(t, ts, "mcp__t__get-sum")
	var schema struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	if err := json.Unmarshal(sum.Schema, &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Properties["a"]["description"] != "first" || len(schema.Required) != 2 {
		t.Fatalf("schema not passed through: %s", sum.Schema)
	}
	if sum.Source != "mcp:t" || sum.Kind != tools.KindExternalAction {
		t.Fatalf("source/kind = %s/%s", sum.Source, sum.Kind)
	}
	res, err := sum.Execute(context.Background(), json.RawMessage(`{"a":2,"b":3}`))
	if err != nil || res.IsError || !strings.Contains(res.Content, "is 5") {
		t.Fatalf("get-sum: %+v %v", res, err)
	}
	res, _ = byName(t, ts, "mcp__t__fail").Execute(context.Background(), nil)
	if !res.IsError || !strings.Contains(res.Content, "it broke on purpose") {
		t.Fatalf("isError result: %+v", res)
	}
	res, _ = byName(t, ts, "mcp__t__image").Execute(context.Background(), nil)
	if len(res.Parts) != 1 || res.Parts[0].MediaType != "image/png" {
		t.Fatalf("image result: %+v", res)
	}
	odd := byName(t, ts, "mcp__t__odd_name_with_chars")
	if odd.Kind != tools.KindRead {
		t.Fatalf("read-only hint: kind %s", odd.Kind)
	}
	again, _ := src.Tools(context.Background())
	if &again[0] != &ts[0] {
		t.Fatal("unchanged tool list should be the same slice")
	}
}

func TestProgressBecomesToolProgress(t *testing.T) {
	src := startHTTP(t, testServer(50))
	ts, _ := src.Tools(context.Background())
	var mu sync.Mutex
	var got []tools.Progress
	ctx := tools.WithProgress(context.Background(), func(p tools.Progress) {
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
	})
	res, err := byName(t, ts, "mcp__t__slow").Execute(ctx, nil)
	if err != nil || res.Content != "done" {
		t.Fatalf("%+v %v", res, err)
	}
	// Notifications may be handled out of order; what reaches the run must
	// only move forward and end at the last step.
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		done := len(got) > 0 && got[len(got)-1].Progress == 3
		mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("no progress reported")
	}
	for i := 1; i < len(got); i++ {
		if got[i].Progress <= got[i-1].Progress {
			t.Fatalf("progress went backwards: %+v", got)
		}
	}
	if last := got[len(got)-1]; last.Progress != 3 || last.Total != 3 || last.Message != "step 3" {
		t.Fatalf("progress: %+v", got)
	}
}

func TestProgressSinkDropsStaleNotifications(t *testing.T) {
	var got []float64
	s := &progressSink{report: func(p tools.Progress) { got = append(got, p.Progress) }}
	for _, v := range []float64{1, 3, 2, 3, 4} {
		s.forward(tools.Progress{Progress: v})
	}
	if want := []float64{1, 3, 4}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("forwarded %v, want %v", got, want)
	}
}

func TestListChangedRefreshes(t *testing.T) {
	s := testServer(50)
	src := startHTTP(t, s)
	before, _ := src.Tools(context.Background())
	s.AddTool(mcp.NewTool("added"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("new"), nil
	})
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		after, _ := src.Tools(context.Background())
		if len(after) == len(before)+1 {
			byName(t, after, "mcp__t__added")
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("tools/list_changed did not refresh the list")
}

func TestParseShapesAndExpansion(t *testing.T) {
	t.Setenv("MCP_TEST_TOKEN", "sekret")
	t.Setenv("MCP_TEST_EMPTY", "")
	data := `{"mcpServers":{"a":{"command":"${MCP_TEST_BIN:-npx}","args":["-y","${MCP_TEST_TOKEN}"],"env":{"K":"${MCP_TEST_EMPTY:-dflt}"}}},
	"servers":{"b":{"type":"http","url":"https://x/${MCP_TEST_TOKEN}","headers":{"Authorization":"Bearer ${MCP_TEST_TOKEN}"}},"c":{"url":"http://y"},"d":{"transport":"sse","url":"http://z"}}}`
	list, err := Parse([]byte(data), "f.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 4 || list[0].Command != "npx" || list[0].Args[1] != "sekret" || list[0].Env["K"] != "dflt" {
		t.Fatalf("%+v", list)
	}
	if list[1].URL != "https://x/sekret" || list[1].Headers["Authorization"] != "Bearer sekret" {
		t.Fatalf("%+v", list[1])
	}
	for i, want := range []string{TransportStdio, TransportHTTP, TransportHTTP, TransportSSE} {
		if got, _ := list[i].Transport(); got != want {
			t.Errorf("%s transport %s, want %s", list[i].Name, got, want)
		}
	}
	merged := Merge(list, []Server{{Name: "a", Command: "other"}})
	if merged[0].Command != "other" {
		t.Fatal("later source should win")
	}
	if _, err := Parse([]byte("{"), "bad.json"); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Fatalf("error should name the file: %v", err)
	}
}

func TestFailingServerLeavesOthers(t *testing.T) {
	exe, _ := os.Executable()
	src := New([]Server{
		{Name: "good", Command: exe, Env: map[string]string{"LLMRT_MCP_TEST_SERVER": "1"}},
		{Name: "missing", Command: "/nonexistent/mcp-server-xyz"},
	}, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	defer src.Close()
	d := src.Diagnostics()
	if len(d) != 1 || !strings.Contains(d[0].Source, "missing") || !strings.Contains(d[0].Message, "mcp-server-xyz") {
		t.Fatalf("diagnostics: %+v", d)
	}
	ts, _ := src.Tools(context.Background())
	res, err := byName(t, ts, "mcp__good__get-sum").Execute(context.Background(), json.RawMessage(`{"a":2,"b":3}`))
	if err != nil || !strings.Contains(res.Content, "is 5") {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestSandboxedStdioServer: a server with "sandbox": true runs confined
// and still answers.
func TestSandboxedStdioServer(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
	exe, _ := os.Executable()
	src := New([]Server{{Name: "boxed", Command: exe, Sandbox: true, Env: map[string]string{"LLMRT_MCP_TEST_SERVER": "1"}}}, t.TempDir())
	src.Sandbox = sandbox.Policy{Mode: sandbox.WorkspaceWrite}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	defer src.Close()
	if d := src.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %+v", d)
	}
	ts, _ := src.Tools(ctx)
	res, err := byName(t, ts, "mcp__boxed__get-sum").Execute(ctx, json.RawMessage(`{"a":2,"b":3}`))
	if err != nil || !strings.Contains(res.Content, "is 5") {
		t.Fatalf("%+v %v", res, err)
	}
}
