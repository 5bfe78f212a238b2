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

// TestNaming: mcp__<server>__<tool>, sanitised, at most 64 characters,
// names that sanitising made equal told apart with _2, _3.
func TestNaming(t *testing.T) {
	long := strings.Repeat("x", 80)
	names := uniqueNames("my server", []string{"a.b", "a/b", "a_b", long, long + "y"})
	want := []string{"mcp__my_server__a_b", "mcp__my_server__a_b_2", "mcp__my_server__a_b_3"}
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
// both offered a_b_c under the old naming; mcp__a__b_c and mcp__a_b__c
// each call their own server, whatever the order, and `llmrt tools`
// status shows the names offered.
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
	for name, want := range map[string]string{"mcp__a__b_c": "from a", "mcp__a_b__c": "from a_b"} {
		res, err := byName(t, tools, name).Execute(ctx, json.RawMessage(`{}`))
		if err != nil || res.Content != want {
			t.Errorf("%s: got %q, %v; want %q", name, res.Content, err, want)
		}
	}
	var got []string
	for _, st := range src.Statuses() {
		got = append(got, st.Name+":"+strings.Join(st.Tools, ","))
	}
	if want := "a:mcp__a__b_c a_b:mcp__a_b__c"; strings.Join(got, " ") != want {
		t.Errorf("statuses %v, want %s", got, want)
	}
}

// TestLegacyPattern: a rule written with the old <server>_<tool> names
// becomes the mcp__ name of every server whose old prefix it starts with;
// other patterns are left alone.
func TestLegacyPattern(t *testing.T) {
	servers := []string{"github", "x", "x_b", "my.srv"}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"github_create_issue", []string{"mcp__github__create_issue"}},
		{"github_*", []string{"mcp__github__*"}},
		{"x_b_c", []string{"mcp__x__b_c", "mcp__x_b__c"}},
		{"my_srv_do", []string{"mcp__my_srv__do"}},
		{"mcp__github__create_issue", nil},
		{"read_file", nil},
		{"github_", nil},
	} {
		got, ok := LegacyPattern(tc.in, servers)
		if ok != (tc.want != nil) || strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("LegacyPattern(%q) = %v, %v; want %v", tc.in, got, ok, tc.want)
		}
	}
}
