package cmd

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/mcp"
	"github.com/llmrt/llmrt/ui"
)

// The chat's /mcp: "/mcp" shows each MCP server's state, tools, prompts,
// scope and last error, and asks what to do; the answer runs
// "/mcp ACTION NAME" (reconnect, enable, disable, login), which does it
// and shows the panel again.

// mcpControl is what the /mcp panel does to the MCP servers.
type mcpControl interface {
	Statuses() []mcp.Status
	Reconnect(ctx context.Context, name string) error
	SetEnabled(ctx context.Context, name string, on bool) error
	Login(ctx context.Context, name string, open func(ctx context.Context, url string) error) error
}

// What /mcp ACTION NAME does.
const (
	mcpReconnect = "reconnect"
	mcpEnable    = "enable"
	mcpDisable   = "disable"
	mcpLogin     = "login"
)

// mcpServerView is one server's line of the panel.
type mcpServerView struct {
	mcp.Status
	Scope   string
	Prompts int
	// Remote servers (HTTP, SSE) are offered a login.
	Remote bool
}

func (c *chatHost) mcpCommand(ctx context.Context, arg string) (ui.Reply, error) {
	s := c.h.s
	if s.mcp == nil && len(s.untrustedServers) == 0 {
		return ui.Reply{Report: ui.Notice("No MCP server is configured here: llmrt mcp add NAME -- COMMAND adds one, or put it in .mcp.json.")}, nil
	}
	rt, err := c.runtime()
	if err != nil {
		return ui.Reply{}, err
	}
	// The servers start with the first turn, or here.
	if err := rt.Start(ctx); err != nil {
		return ui.Reply{}, err
	}
	var note string
	if arg = strings.TrimSpace(arg); arg != "" && s.mcp != nil {
		if note, err = mcpAct(ctx, s.mcp, arg, c.showLogin); err != nil {
			return ui.Reply{}, err
		}
	} else if arg != "" {
		return ui.Reply{}, fmt.Errorf("/mcp %s: no MCP server is running here", arg)
	}
	// The engine's view of the tools, so the counts are those offered.
	if _, err := rt.ResolveTools(ctx, c.h.request()); err != nil {
		return ui.Reply{}, err
	}
	views := c.mcpViews(ctx)
	lines := mcpPanel(views)
	if note != "" {
		lines = append(ui.Lines{note, ""}, lines...)
	}
	r := ui.Reply{Report: lines}
	if arg == "" {
		r.Ask = mcpQuestion(views)
	}
	return r, nil
}

// mcpViews gathers what the panel shows of each server: the running
// ones, then those an untrusted folder keeps from starting.
func (c *chatHost) mcpViews(ctx context.Context) []mcpServerView {
	s := c.h.s
	var out []mcpServerView
	if s.mcp != nil {
		prompts := map[string]int{}
		pctx, cancel := context.WithTimeout(ctx, promptListWait)
		for _, p := range s.mcp.Prompts(pctx) {
			prompts[p.Server]++
		}
		cancel()
		for _, st := range s.mcp.Statuses() {
			v := mcpServerView{Status: st, Prompts: prompts[st.Name]}
			if cfg, ok := s.mcp.Config(st.Name); ok {
				v.Scope = c.scopeOf(cfg.Origin)
				kind, _ := cfg.Transport()
				v.Remote = kind != mcp.TransportStdio
			}
			out = append(out, v)
		}
	}
	for _, sv := range s.untrustedServers {
		out = append(out, mcpServerView{Status: mcp.Status{Name: sv.Name, State: "not started", Err: "this folder is not trusted (llmrt trust)"},
			Scope: c.scopeOf(sv.Origin)})
	}
	return out
}

// scopeOf names the scope of a server's file and the file: "project
// (.mcp.json)", "user (~/.config/llmrt/config.json)".
func (c *chatHost) scopeOf(origin string) string {
	scope := mcpScope(c.f, c.h.s.workDir, origin)
	if origin == "" || scope == origin {
		return origin
	}
	shown := origin
	if rel, err := filepath.Rel(c.h.s.workDir, origin); err == nil && !strings.HasPrefix(rel, "..") {
		shown = rel
	} else if home := c.f.Getenv("HOME"); home != "" && strings.HasPrefix(origin, home+string(filepath.Separator)) {
		shown = "~" + strings.TrimPrefix(origin, home)
	}
	return scope + " (" + shown + ")"
}

// showLogin shows the authorization URL of a login from /mcp in the
// chat, and opens it in the desktop's browser when there is one.
func (c *chatHost) showLogin(_ context.Context, url string) error {
	c.h.tell(false, "To authorize llmrt, open "+url+" (waiting for the authorization to come back; Esc gives up)")
	if open := systemBrowser(c.f.Getenv); open != nil {
		_ = open(url) // the URL shown is the way when it fails
	}
	return nil
}

// mcpAct runs "/mcp ACTION NAME" and says what came of it; a login shows
// its URL through open.
func mcpAct(ctx context.Context, ctl mcpControl, arg string, open func(context.Context, string) error) (string, error) {
	f := strings.Fields(arg)
	if len(f) != 2 {
		return "", fmt.Errorf("/mcp %s: give an action and a server: /mcp reconnect|enable|disable|login NAME", arg)
	}
	action, name := f[0], f[1]
	if !mcpKnown(ctl, name) {
		return "", fmt.Errorf("/mcp %s: no MCP server %q here (/mcp lists them)", arg, name)
	}
	var err error
	var done string
	switch action {
	case mcpReconnect:
		err, done = ctl.Reconnect(ctx, name), name+" reconnected."
	case mcpEnable:
		err, done = ctl.SetEnabled(ctx, name, true), name+" enabled for this session."
	case mcpDisable:
		err, done = ctl.SetEnabled(ctx, name, false), name+" disabled for this session: its tools, resources and prompts are not offered."
	case mcpLogin:
		err, done = ctl.Login(ctx, name, open), name+": logged in."
	default:
		return "", fmt.Errorf("/mcp %s: unknown action %q: use reconnect, enable, disable or login", arg, action)
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("/mcp %s: %w", arg, err)
	}
	return done, nil
}

func mcpKnown(ctl mcpControl, name string) bool {
	for _, st := range ctl.Statuses() {
		if st.Name == name {
			return true
		}
	}
	return false
}

// mcpPanel lays the servers out: a line each with its state, counts and
// scope, and its last error below it.
func mcpPanel(views []mcpServerView) ui.Lines {
	lines := ui.Lines{"MCP servers (/mcp reconnect|enable|disable|login NAME):"}
	for _, v := range views {
		parts := []string{v.Name, v.State}
		if v.State == "ready" {
			parts = append(parts, plural(len(v.Tools), "tool", "tools"))
			if v.Prompts > 0 {
				parts = append(parts, plural(v.Prompts, "prompt", "prompts"))
			}
		}
		if v.Scope != "" {
			parts = append(parts, "scope "+v.Scope)
		}
		lines = append(lines, "  "+strings.Join(parts, " · "))
		if v.Err != "" {
			lines = append(lines, "    error: "+oneLine(v.Err, 300))
		}
	}
	return lines
}

// mcpQuestion offers the panel's actions on each server it can act on:
// reconnect, enable or disable, and log in to a remote one.
func mcpQuestion(views []mcpServerView) *tools.Question {
	q := &tools.Question{Header: "MCP", ID: "mcp", Question: "Do something with a server? (Esc: nothing)"}
	for _, v := range views {
		if v.State == "not started" {
			continue
		}
		q.Options = append(q.Options, tools.Choice{ID: mcpReconnect + " " + v.Name, Label: "Reconnect " + v.Name})
		if v.State == mcp.StateDisabled {
			q.Options = append(q.Options, tools.Choice{ID: mcpEnable + " " + v.Name, Label: "Enable " + v.Name})
		} else {
			q.Options = append(q.Options, tools.Choice{ID: mcpDisable + " " + v.Name, Label: "Disable " + v.Name})
		}
		if v.Remote {
			q.Options = append(q.Options, tools.Choice{ID: mcpLogin + " " + v.Name, Label: "Log in to " + v.Name})
		}
	}
	if len(q.Options) == 0 {
		return nil
	}
	return q
}
