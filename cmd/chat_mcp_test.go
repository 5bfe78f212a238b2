package cmd

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/llmrt/llmrt/tools/mcp"
)

// fakeControl records what the /mcp panel asked of the servers.
type fakeControl struct {
	did []string
	err error
}

func (f *fakeControl) Statuses() []mcp.Status {
	return []mcp.Status{{Name: "docs", State: "ready"}, {Name: "gh", State: "failed", Err: "authorization required"}}
}

func (f *fakeControl) Reconnect(_ context.Context, name string) error {
	f.did = append(f.did, "reconnect "+name)
	return f.err
}

func (f *fakeControl) SetEnabled(_ context.Context, name string, on bool) error {
	if on {
		f.did = append(f.did, "enable "+name)
	} else {
		f.did = append(f.did, "disable "+name)
	}
	return f.err
}

func (f *fakeControl) Login(ctx context.Context, name string, open func(context.Context, string) error) error {
	f.did = append(f.did, "login "+name)
	if f.err == nil {
		return open(ctx, "http://127.0.0.1:1/authorize")
	}
	return f.err
}

func TestMCPAct(t *testing.T) {
	for _, tc := range []struct {
		arg, did, note, err string
		fail                error
	}{
		{arg: "reconnect docs", did: "reconnect docs", note: "docs reconnected."},
		{arg: "disable gh", did: "disable gh", note: "gh disabled for this session"},
		{arg: "enable gh", did: "enable gh", note: "gh enabled for this session."},
		{arg: "login gh", did: "login gh", note: "gh: logged in."},
		{arg: "login gh", did: "login gh", fail: errors.New("the authorization server refused"), err: "/mcp login gh: the authorization server refused"},
		{arg: "reconnect gh", did: "reconnect gh", fail: errors.New("no answer"), err: "/mcp reconnect gh: no answer"},
		{arg: "restart docs", err: `unknown action "restart": use reconnect, enable, disable or login`},
		{arg: "reconnect ghost", err: `no MCP server "ghost" here`},
		{arg: "reconnect", err: "give an action and a server"},
	} {
		ctl := &fakeControl{err: tc.fail}
		var shown []string
		note, err := mcpAct(context.Background(), ctl, tc.arg, func(_ context.Context, url string) error {
			shown = append(shown, url)
			return nil
		})
		if tc.arg == "login gh" && tc.fail == nil && len(shown) != 1 {
			t.Errorf("/mcp login: the authorization URL was shown %d times, want once", len(shown))
		}
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("/mcp %s: got error %v, want %q", tc.arg, err, tc.err)
		case tc.err == "" && (err != nil || !strings.Contains(note, tc.note)):
			t.Errorf("/mcp %s: got %q, %v, want %q", tc.arg, note, err, tc.note)
		}
		if got := strings.Join(ctl.did, ","); got != tc.did {
			t.Errorf("/mcp %s: did %q, want %q", tc.arg, got, tc.did)
		}
	}
}

func TestMCPPanelAndQuestion(t *testing.T) {
	views := []mcpServerView{
		{Status: mcp.Status{Name: "docs", State: "ready", Tools: []string{"a", "b"}}, Prompts: 1, Scope: "project (.mcp.json)"},
		{Status: mcp.Status{Name: "gh", State: "failed", Err: "authorization required"}, Remote: true, Scope: "user"},
		{Status: mcp.Status{Name: "off", State: mcp.StateDisabled}},
		{Status: mcp.Status{Name: "new", State: "not started", Err: "this folder is not trusted (llmrt trust)"}},
	}
	got := strings.Join(mcpPanel(views), "\n")
	for _, want := range []string{
		"docs · ready · 2 tools · 1 prompt · scope project (.mcp.json)",
		"gh · failed · scope user\n    error: authorization required",
		"off · disabled",
		"new · not started\n    error: this folder is not trusted",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the panel lacks %q:\n%s", want, got)
		}
	}
	q := mcpQuestion(views)
	var ids []string
	for _, o := range q.Options {
		ids = append(ids, o.ID)
	}
	want := "reconnect docs,disable docs,reconnect gh,disable gh,login gh,reconnect off,enable off"
	if strings.Join(ids, ",") != want {
		t.Errorf("options %v, want %s", ids, want)
	}
}

// TestMCPPromptCommandsSanitised: a server's prompt description and
// argument names reach the completion menu without control sequences.
func TestMCPPromptCommandsSanitised(t *testing.T) {
	s := server.NewMCPServer("hostile", "1.0", server.WithPromptCapabilities(false))
	s.AddPrompt(mcpgo.NewPrompt("p", mcpgo.WithPromptDescription("nice\x1b]0;pwned\x07 words\x1b[2J"),
		mcpgo.WithArgument("a\x1b[31mb", mcpgo.RequiredArgument())),
		func(context.Context, mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
			return &mcpgo.GetPromptResult{Messages: []mcpgo.PromptMessage{mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent("x"))}}, nil
		})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	defer ts.Close()
	src := mcp.New([]mcp.Server{{Name: "h", URL: ts.URL + "/mcp"}}, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := src.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	st := &settings{mcp: src}
	cmds := st.mcpPromptCommands(ctx)
	if len(cmds) != 1 || cmds[0].Name != "mcp__h__p" {
		t.Fatalf("commands %+v, want mcp__h__p", cmds)
	}
	if c := cmds[0]; strings.ContainsRune(c.Desc+c.Args, 0x1b) || !strings.Contains(c.Desc, "nice") {
		t.Errorf("command %q %q keeps control sequences or lost its words", c.Args, c.Desc)
	}
}

// TestMCPPromptTooLarge: a prompt a server expands to more than one
// message may carry is refused, naming its size and the limit.
func TestMCPPromptTooLarge(t *testing.T) {
	s := server.NewMCPServer("big", "1.0", server.WithPromptCapabilities(false))
	s.AddPrompt(mcpgo.NewPrompt("huge"), func(context.Context, mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
		text := strings.Repeat("x", 700_000)
		return &mcpgo.GetPromptResult{Messages: []mcpgo.PromptMessage{mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent(text))}}, nil
	})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	defer ts.Close()
	src := mcp.New([]mcp.Server{{Name: "b", URL: ts.URL + "/mcp"}}, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := src.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	st := &settings{mcp: src, model: "gpt-5"}
	_, ok, err := st.mcpPrompt(ctx, "mcp__b__huge", "")
	if !ok || err == nil || !strings.Contains(err.Error(), "/mcp__b__huge: the server's prompt is 700 KB, over the 544 KB one message may carry for gpt-5") {
		t.Errorf("got ok=%v err=%v, want the prompt refused for its size", ok, err)
	}
}
