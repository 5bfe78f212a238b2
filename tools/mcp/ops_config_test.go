package mcp

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestParseJSONC: comments and trailing commas are read where VS Code
// reads them, and a // or /* inside a string stays part of it.
func TestParseJSONC(t *testing.T) {
	src := `// VS Code's mcp.json
{
  /* the servers */
  "servers": {
    "web": {"url": "http://h/a//b?c=/*d*/", "headers": {"X": "say \"//\" and \\"}}, // the site
    "sh": {"command": "sh", "args": ["-c", "echo //x", ], },
  },
}`
	list, err := Parse([]byte(src), "mcp.json")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if len(list) != 2 {
		t.Fatalf("got %d servers, want 2: %+v", len(list), list)
	}
	sh, web := list[0], list[1]
	if !slices.Equal(sh.Args, []string{"-c", "echo //x"}) {
		t.Errorf("args: got %q, want [-c, echo //x]", sh.Args)
	}
	if web.URL != "http://h/a//b?c=/*d*/" || web.Headers["X"] != `say "//" and \` {
		t.Errorf("strings: got url %q header %q", web.URL, web.Headers["X"])
	}
	for _, bad := range []string{`{"servers": {"a": {"command": "x"}`, `{"servers": /* open`, `{"servers": {,}}`} {
		if _, err := Parse([]byte(bad), "mcp.json"); err == nil || !strings.Contains(err.Error(), "mcp.json") {
			t.Errorf("Parse(%q): got %v, want an error naming the file", bad, err)
		}
	}
}

// TestParseRootsAndToolLists: roots is a list of directories (~ expanded)
// or false; enabled_tools and disabled_tools are lists; anything else is
// an error that says what to write.
func TestParseRootsAndToolLists(t *testing.T) {
	t.Setenv("HOME", "/home/ada")
	list, err := Parse([]byte(`{"mcpServers":{
		"a":{"command":"x","roots":["~/notes","/srv"],"enabled_tools":["read"],"disabled_tools":["write"]},
		"b":{"command":"x","roots":false},
		"c":{"command":"x"}}}`), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if r := list[0].Roots; r == nil || !slices.Equal(r.Paths, []string{"/home/ada/notes", "/srv"}) {
		t.Errorf("a roots: got %+v, want [/home/ada/notes /srv]", r)
	}
	if !slices.Equal(list[0].EnabledTools, []string{"read"}) || !slices.Equal(list[0].DisabledTools, []string{"write"}) {
		t.Errorf("a tool lists: got %q and %q", list[0].EnabledTools, list[0].DisabledTools)
	}
	if r := list[1].Roots; r == nil || len(r.Paths) != 0 {
		t.Errorf("b roots: got %+v, want none announced", r)
	}
	if list[2].Roots != nil {
		t.Errorf("c roots: got %+v, want the default", list[2].Roots)
	}
	for _, bad := range []string{`"roots":"~/notes"`, `"roots":true`, `"roots":[1]`} {
		_, err := Parse([]byte(`{"mcpServers":{"a":{"command":"x",`+bad+`}}}`), "m.json")
		if err == nil || !strings.Contains(err.Error(), "roots") || !strings.Contains(err.Error(), "false") {
			t.Errorf("%s: got %v, want an error saying to write a list or false", bad, err)
		}
	}
}

// TestUnsetVariableWarns: ${VAR} with VAR unset and no default is a
// warning naming it; a header that needed it is not sent at all (no bare
// "Bearer "); a default or a set variable is no warning.
func TestUnsetVariableWarns(t *testing.T) {
	t.Setenv("SET_TOKEN", "tok")
	os.Unsetenv("DOCS_TOKEN_UNSET")
	list, err := Parse([]byte(`{"mcpServers":{"docs":{"url":"http://h/mcp","headers":{
		"Authorization":"Bearer ${DOCS_TOKEN_UNSET}","X-Set":"${SET_TOKEN}","X-Default":"${DOCS_TOKEN_UNSET:-none}"}}}}`), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	sv := list[0]
	if _, sent := sv.Headers["Authorization"]; sent {
		t.Errorf("Authorization: got %q, want the header left out", sv.Headers["Authorization"])
	}
	if sv.Headers["X-Set"] != "tok" || sv.Headers["X-Default"] != "none" {
		t.Errorf("headers: got %v", sv.Headers)
	}
	if len(sv.Warnings) != 1 || !strings.Contains(sv.Warnings[0], "DOCS_TOKEN_UNSET") || !strings.Contains(sv.Warnings[0], "Authorization") {
		t.Errorf("warnings: got %q, want one naming DOCS_TOKEN_UNSET and the header", sv.Warnings)
	}
}

// TestAnnouncedRoots: the roots a server is told of. A list is announced
// as given; false announces none; by default a stdio server whose command
// line names a directory gets none (it serves what it was given), others
// the workspace.
func TestAnnouncedRoots(t *testing.T) {
	ws, notes := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		sv   Server
		want []string
	}{
		{"default stdio", Server{Command: "srv", Args: []string{"--flag", "x.txt"}}, []string{ws}},
		{"stdio naming a directory", Server{Command: "srv", Args: []string{notes}}, nil},
		{"relative directory", Server{Command: "srv", Args: []string{"sub"}}, nil},
		{"http", Server{URL: "http://h/mcp"}, []string{ws}},
		{"list", Server{Command: "srv", Args: []string{notes}, Roots: &Roots{Paths: []string{notes, ws}}}, []string{notes, ws}},
		{"false", Server{Command: "srv", Roots: &Roots{}}, nil},
	} {
		if got := tc.sv.announcedRoots(ws); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestHiddenTools: disabled_tools hides tools from the list offered, and
// enabled_tools keeps only those named; a hidden tool cannot be called
// under any name.
func TestHiddenTools(t *testing.T) {
	s := server.NewMCPServer("t", "1.0", server.WithToolCapabilities(true))
	for _, n := range []string{"read", "write", "delete"} {
		s.AddTool(mcp.NewTool(n), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
	}
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close)
	for _, tc := range []struct {
		enabled, disabled []string
		want              string
	}{
		{nil, []string{"delete"}, "mcp__t__read mcp__t__write"},
		{[]string{"read", "delete"}, nil, "mcp__t__delete mcp__t__read"},
		{[]string{"read", "delete"}, []string{"delete"}, "mcp__t__read"},
		{nil, nil, "mcp__t__delete mcp__t__read mcp__t__write"},
	} {
		src := New([]Server{{Name: "t", URL: ts.URL + "/mcp", EnabledTools: tc.enabled, DisabledTools: tc.disabled}}, t.TempDir())
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_ = src.Start(ctx)
		list, _ := src.Tools(ctx)
		var names []string
		for _, tl := range list {
			names = append(names, tl.Name)
		}
		if got := strings.Join(names, " "); got != tc.want {
			t.Errorf("enabled %q, disabled %q: got %q, want %q", tc.enabled, tc.disabled, got, tc.want)
		}
		cancel()
		src.Close()
	}
}
