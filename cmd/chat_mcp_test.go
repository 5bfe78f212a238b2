package cmd

import (
	"context"
	"errors"
	"strings"
	"testing"

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

func (f *fakeControl) Login(_ context.Context, name string) error {
	f.did = append(f.did, "login "+name)
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
		{arg: "login gh", did: "login gh", fail: mcp.ErrLoginUnsupported, err: "/mcp login gh: this build of llmrt cannot log in"},
		{arg: "reconnect gh", did: "reconnect gh", fail: errors.New("no answer"), err: "/mcp reconnect gh: no answer"},
		{arg: "restart docs", err: `unknown action "restart": use reconnect, enable, disable or login`},
		{arg: "reconnect ghost", err: `no MCP server "ghost" here`},
		{arg: "reconnect", err: "give an action and a server"},
	} {
		ctl := &fakeControl{err: tc.fail}
		note, err := mcpAct(context.Background(), ctl, tc.arg)
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
