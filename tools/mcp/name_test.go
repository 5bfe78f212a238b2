package mcp

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestNaming: <server>_<tool>, sanitised, at most 64 characters, names
// that sanitising made equal told apart with _2, _3.
func TestNaming(t *testing.T) {
	long := strings.Repeat("x", 80)
	names := uniqueNames("my server", []string{"a.b", "a/b", "a_b", long, long + "y"})
	want := []string{"my_server_a_b", "my_server_a_b_2", "my_server_a_b_3"}
	for i, w := range want {
		if names[i] != w {
			t.Errorf("name %d = %q, want %q", i, names[i], w)
		}
	}
	if len(names[3]) > 64 || len(names[4]) > 64 || names[3] == names[4] {
		t.Errorf("long names: %q %q", names[3], names[4])
	}
	for _, n := range names {
		if sanitize(n) != n {
			t.Errorf("%q not sanitised", n)
		}
	}
}

// TestNamesAcrossServers: servers "a" and "a_b" with tools "b_c" and "c"
// would both offer a_b_c; the server first by name keeps it, the other's
// becomes a_b_c_2 and still calls its own server, and `llmrt tools` status
// shows the names offered.
func TestNamesAcrossServers(t *testing.T) {
	var list []Server
	for _, sv := range []struct{ name, tool, says string }{{"a", "b_c", "from a"}, {"a_b", "c", "from a_b"}} {
		s := server.NewMCPServer(sv.name, "1.0", server.WithToolCapabilities(true))
		says := sv.says
		s.AddTool(mcp.NewTool(sv.tool), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(says), nil
		})
		ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
		t.Cleanup(ts.Close)
		list = append(list, Server{Name: sv.name, URL: ts.URL + "/mcp"})
	}
	src := New(list, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	defer src.Close()
	tools, _ := src.Tools(ctx)
	for name, want := range map[string]string{"a_b_c": "from a", "a_b_c_2": "from a_b"} {
		res, err := byName(t, tools, name).Execute(ctx, json.RawMessage(`{}`))
		if err != nil || res.Content != want {
			t.Errorf("%s: got %q, %v; want %q", name, res.Content, err, want)
		}
	}
	var got []string
	for _, st := range src.Statuses() {
		got = append(got, st.Name+":"+strings.Join(st.Tools, ","))
	}
	if want := "a:a_b_c a_b:a_b_c_2"; strings.Join(got, " ") != want {
		t.Errorf("statuses %v, want %s", got, want)
	}
}
