package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/mcp"
	"github.com/llmrt/llmrt/ui"
)

// mcpFile is one file MCP servers are read from.
type mcpFile struct {
	path string
	// project marks a file of the workspace, whose servers start only
	// once the user trusts it (config.Folder).
	project bool
	// named is a --mcp-config file, which must exist.
	named bool
}

// mcpFiles returns the MCP config files of a run, lowest precedence first:
// the user config, the project's .mcp.json, the project config, the
// user's own servers for this project (the local scope), then every
// --mcp-config.
func mcpFiles(getenv func(string) string, workDir string, extra []string) []mcpFile {
	user := config.UserPath(getenv)
	files := []mcpFile{
		{path: user, project: config.Inside(workDir, user)},
		{path: filepath.Join(workDir, ".mcp.json"), project: true},
		{path: config.ProjectPath(workDir), project: true},
	}
	if local := config.LocalPath(getenv, workDir); local != "" {
		files = append(files, mcpFile{path: local})
	}
	for _, p := range extra {
		// Given now on the command line, or checked against a resumed
		// session's record (vetMCPConfigs).
		files = append(files, mcpFile{path: p, named: true})
	}
	return files
}

// loadMCPServers reads and merges the configured MCP servers. The
// project's servers are returned apart, as skipped, unless trusted.
// Problems with a file are returned as diagnostics; a missing
// --mcp-config file is one too.
func loadMCPServers(getenv func(string) string, workDir string, extra []string, trusted bool) (servers, skipped []mcp.Server, diags []string) {
	var lists, untrusted [][]mcp.Server
	for _, f := range mcpFiles(getenv, workDir, extra) {
		list, err := loadMCPFile(f.path)
		switch {
		case err != nil:
			diags = append(diags, err.Error())
			continue
		case list == nil && f.named:
			diags = append(diags, fmt.Sprintf("--mcp-config %s: no such file", f.path))
		}
		for _, sv := range list {
			diags = append(diags, sv.Warnings...)
		}
		if f.project && !trusted {
			untrusted = append(untrusted, list)
			continue
		}
		lists = append(lists, list)
	}
	servers = mcp.Merge(lists...)
	for _, s := range mcp.Merge(untrusted...) {
		if !slices.ContainsFunc(servers, func(t mcp.Server) bool { return t.Name == s.Name }) {
			skipped = append(skipped, s)
		}
	}
	return servers, skipped, diags
}

// loadMCPFile reads the servers of one config file; a missing file has
// none. Only a regular file is read, so a named pipe called .mcp.json in a
// project cannot hang llmrt.
func loadMCPFile(path string) ([]mcp.Server, error) {
	data, err := config.ReadRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return mcp.Parse(data, path)
}

// loadMCP sets the run's MCP source when servers are configured; a run
// without any has none and starts nothing.
func (s *settings) loadMCP(getenv func(string) string, extra []string) {
	servers, skipped, diags := loadMCPServers(getenv, s.workDir, extra, s.trusted)
	s.diagnostics = append(s.diagnostics, diags...)
	s.untrustedServers = skipped
	var enabled, known []mcp.Server
	for _, sv := range append(servers, skipped...) {
		if !slices.ContainsFunc(skipped, func(k mcp.Server) bool { return k.Name == sv.Name }) {
			// A disabled server is known to the source, which the chat can
			// enable.
			known = append(known, sv)
			if sv.IsEnabled() {
				enabled = append(enabled, sv)
			}
		}
		// The server keeps its environment and headers; their secrets are
		// redacted from what llmrt writes, a skipped server's too.
		s.mcpSecrets = append(s.mcpSecrets, headerSecrets(sv.Headers)...)
		s.mcpSecrets = append(s.mcpSecrets, sv.OAuth.Secrets()...)
		for k, v := range sv.Env {
			s.mcpSecrets = append(s.mcpSecrets, secretValues([]string{k + "=" + v})...)
		}
	}
	if len(enabled) > 0 {
		s.mcp = mcp.New(known, s.workDir)
		s.mcp.Sandbox = s.sandbox
	}
	s.upgradeMCPRules(append(servers, skipped...))
}

// upgradeMCPRules rewrites permission rules that name MCP tools the old
// way (<server>_<tool>) to the mcp__<server>__<tool> names tools now have,
// with one warning per rule, so that a saved rule keeps its meaning. A
// rule naming a built-in is left alone, and a pattern that also matches
// one (read_* with a server "read") is kept besides its new form.
func (s *settings) upgradeMCPRules(servers []mcp.Server) {
	if len(servers) == 0 {
		return
	}
	names := make([]string, len(servers))
	for i, sv := range servers {
		names[i] = sv.Name
	}
	builtIns := engine.AllBuiltIns()
	var out []engine.Rule
	for _, r := range s.permission.Rules {
		pats, ok := mcp.LegacyPattern(r.Tool, names)
		if !ok || slices.Contains(builtIns, r.Tool) {
			out = append(out, r)
			continue
		}
		if slices.ContainsFunc(builtIns, func(b string) bool { m, _ := path.Match(r.Tool, b); return m }) {
			out = append(out, r)
		}
		var now []string
		for _, p := range pats {
			nr := r
			nr.Tool = p
			out = append(out, nr)
			now = append(now, nr.String())
		}
		s.diagnostics = append(s.diagnostics, fmt.Sprintf("rule %s %s names an MCP tool the old way; it is read as %s (write that in your config)",
			r.Action, r, strings.Join(now, ", ")))
	}
	s.permission.Rules = out
}

// String says how a server stands, for listings: "ready, 3 tools" or
// "failed: why".
func (st mcpStatus) String() string { return st.report().String() }

// report is the status as the chat's /tools shows it.
func (st mcpStatus) report() ui.ServerStatus {
	return ui.ServerStatus{Name: st.Name, State: st.Status, Tools: len(st.Tools), Err: st.Error}
}

// commandsLine says how the settings confine commands.
func commandsLine(s *settings) string {
	pol := s.sandbox
	pol.Workspace = s.workDir
	return pol.Describe()
}

// showMCPStart reports through tell (stderr, or the chat's screen) each
// restart of a server, as a warning, and with progress each server's
// start and readiness.
func showMCPStart(tell func(warning bool, msg string), src *mcp.Source, progress bool) {
	var mu sync.Mutex
	src.OnStatus = func(st mcp.Status) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case st.State == mcp.StateStarting && progress:
			tell(false, "mcp: starting "+st.Name)
		case st.State == mcp.StateReady && progress:
			tell(false, fmt.Sprintf("mcp: %s ready (%d tools)", st.Name, len(st.Tools)))
		case st.State == mcp.StateRestarting:
			// Said once per restart; the call that saw the exit has the
			// stderr tail.
			why, _, _ := strings.Cut(st.Err, "; stderr:")
			why = strings.TrimPrefix(why, "the server ")
			tell(true, fmt.Sprintf("mcp: restarting %s (%d of %d): %s", st.Name, st.Restarts, mcp.MaxRestarts, oneLine(ui.Sanitize(why), 120)))
		}
		// A server that failed is reported once, as a diagnostic with the
		// tail of its stderr, when the run starts.
	}
}

// askMCP lets MCP servers' elicitation requests reach the person through
// the forms current returns when a request comes (the terminal's select
// lists, or the chat screen of the running turn). With no one to ask (no
// terminal, stream-json output) a request is declined.
func (h *cmdHost) askMCP(current func() ui.Prompter) {
	if h.s.mcp == nil {
		return
	}
	h.s.mcp.SetAsk(func(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
		forms := current()
		if forms == nil || h.noQuestions {
			return tools.Answer{Skipped: true}, nil
		}
		return h.person(forms).ask(ctx, in)
	})
}

// mcpStatus is one MCP server's state as `llmrt tools` shows it.
type mcpStatus struct {
	Name   string   `json:"name"`
	Status string   `json:"status"`
	Error  string   `json:"error,omitempty"`
	Tools  []string `json:"tools,omitempty"`
}

// mcpStatuses reports the state of a run's MCP servers, nil without any.
func mcpStatuses(s *settings) []mcpStatus {
	var out []mcpStatus
	if s.mcp != nil {
		for _, st := range s.mcp.Statuses() {
			out = append(out, mcpStatus{Name: st.Name, Status: st.State, Error: st.Err, Tools: st.Tools})
		}
	}
	for _, sv := range s.untrustedServers {
		out = append(out, mcpStatus{Name: sv.Name, Status: "not started", Error: "folder not trusted (llmrt trust)"})
	}
	return out
}
