package cmd

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/tools/mcp"
	"github.com/llmrt/llmrt/tools/mcp/oauth"
	"github.com/llmrt/llmrt/ui"
)

// mcpAuth is how the CLI's MCP servers are authorized: tokens in the
// user's state directory, redacted from everything llmrt writes, and no
// authorization flow in the middle of a run (a server that needs one
// fails, naming `llmrt mcp login`).
func mcpAuth(f *Factory) mcp.Auth {
	return mcp.Auth{Store: &oauth.Store{Dir: mcpAuthDir(f.Getenv)}, OnSecret: f.secrets.add}
}

// mcpAuthDir is where tokens are kept: mcp-auth beside the sessions, in
// llmrt's state directory ($XDG_STATE_HOME/llmrt, else
// ~/.local/state/llmrt); empty (tokens kept in memory only) without a home.
func mcpAuthDir(getenv func(string) string) string {
	sessions := session.DefaultDir(getenv)
	if sessions == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(sessions), "mcp-auth")
}

// mcpLoginOptions are `llmrt mcp login`'s dependencies and arguments.
type mcpLoginOptions struct {
	f    *Factory
	name string
	// browser opens a URL; nil when no one can see a browser.
	browser func(url string) error
}

func newMCPLoginCmd(f *Factory, runF func(context.Context, *mcpLoginOptions) error) *cobra.Command {
	if runF == nil {
		runF = runMCPLogin
	}
	return &cobra.Command{
		Use:   "login NAME",
		Short: "Authorize llmrt with a remote MCP server (OAuth)",
		Long: `Authorize llmrt with a remote (HTTP or SSE) MCP server that asks for OAuth, as
Claude Code's /mcp and codex mcp login do. The authorization page opens in your
browser, or its URL is printed when there is none; once you approve, the token
is kept in llmrt's state directory (readable by you alone) and refreshed as
needed. A server with "oauth": {"grant_type": "client_credentials", ...} needs
no person and gets its token by itself.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o := &mcpLoginOptions{f: f, name: args[0]}
			if f.IO.ErrTTY {
				o.browser = systemBrowser(f.Getenv)
			}
			return runF(cmd.Context(), o)
		},
	}
}

func runMCPLogin(ctx context.Context, o *mcpLoginOptions) error {
	sv, dir, err := findMCPServer(o.f, o.name)
	if err != nil {
		return err
	}
	src := mcp.New([]mcp.Server{sv}, dir)
	src.SetAuth(mcpAuth(o.f))
	defer src.Close()
	errOut := o.f.secrets.writer(o.f.IO.ErrOut)
	open := func(_ context.Context, url string) error {
		fmt.Fprintf(errOut, "To authorize llmrt with %s, open:\n\n  %s\n\nWaiting for the authorization to come back...\n", o.name, ui.Sanitize(url))
		if o.browser != nil {
			_ = o.browser(url) // the printed URL is the way when it fails
		}
		return nil
	}
	if err := src.Login(ctx, o.name, open); err != nil {
		return err
	}
	n := 0
	for _, st := range src.Statuses() {
		n = len(st.Tools)
	}
	_, err = fmt.Fprintf(o.f.IO.Out, "Logged in to %s (%d tools).\n", o.name, n)
	return err
}

// mcpLogoutOptions are `llmrt mcp logout`'s dependencies and arguments.
type mcpLogoutOptions struct {
	f    *Factory
	name string
}

func newMCPLogoutCmd(f *Factory, runF func(*mcpLogoutOptions) error) *cobra.Command {
	if runF == nil {
		runF = runMCPLogout
	}
	return &cobra.Command{
		Use:   "logout NAME",
		Short: "Forget the OAuth token of a remote MCP server",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(&mcpLogoutOptions{f: f, name: args[0]})
		},
	}
}

func runMCPLogout(o *mcpLogoutOptions) error {
	sv, _, err := findMCPServer(o.f, o.name)
	if err != nil {
		return err
	}
	store := mcpAuth(o.f).Store
	had, err := store.Delete(sv.Name, sv.URL)
	if err != nil {
		return err
	}
	msg := "Logged out of %s.\n"
	if !had {
		msg = "No token was kept for %s.\n"
	}
	_, err = fmt.Fprintf(o.f.IO.Out, msg, o.name)
	return err
}

// findMCPServer returns the configured server called name and the
// working directory.
func findMCPServer(f *Factory, name string) (mcp.Server, string, error) {
	list, _, _, err := mcpServers(f)
	if err != nil {
		return mcp.Server{}, "", err
	}
	dir, _ := workDir("")
	for _, s := range list {
		if s.Name == name {
			return s, dir, nil
		}
	}
	return mcp.Server{}, "", withHint(usageErrorf("no MCP server named %q", name), "llmrt mcp list shows the configured ones")
}

// systemBrowser returns a function that opens a URL in the desktop's
// browser, or nil where there is no desktop to open it on.
func systemBrowser(getenv func(string) string) func(string) error {
	var name string
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "linux", "freebsd", "openbsd", "netbsd":
		if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
			return nil
		}
		name = "xdg-open"
	default:
		return nil
	}
	if _, err := exec.LookPath(name); err != nil {
		return nil
	}
	return func(url string) error {
		c := exec.Command(name, url)
		if err := c.Start(); err != nil {
			return err
		}
		go func() { _ = c.Wait() }() // reaps the opener, which exits at once
		return nil
	}
}
