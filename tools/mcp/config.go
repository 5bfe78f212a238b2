package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/llmrt/llmrt/tools/mcp/oauth"
)

// Server is one configured MCP server.
type Server struct {
	Name    string            `json:"-"`
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Enabled *bool             `json:"enabled,omitempty"`
	// EnvVars names variables of llmrt's environment a stdio server is
	// given as they are (env_vars, as in Codex), e.g. GITHUB_TOKEN or
	// HTTPS_PROXY. Besides them and what Env sets, a server gets only
	// the basic variables (PATH, HOME, ...; see serverEnv): no provider
	// key reaches it unless named here.
	EnvVars []string `json:"env_vars,omitempty"`
	// Timeout is the start-up timeout in seconds (default 30).
	Timeout float64 `json:"timeout,omitempty"`
	// ToolTimeout bounds one tool call, in seconds (default 600); a call
	// that runs out is cancelled on the server too.
	ToolTimeout float64 `json:"tool_timeout,omitempty"`
	// Sandbox runs a stdio server under the command sandbox.
	Sandbox bool `json:"sandbox,omitempty"`
	// OAuth configures how a remote server is authorized (see
	// oauth.Config); without it, a server that asks is authorized with a
	// dynamically registered client.
	OAuth *oauth.Config `json:"oauth,omitempty"`
	// Origin is the file the server was read from.
	Origin string `json:"-"`
}

// Transport kinds.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "streamable-http"
	TransportSSE   = "sse"
)

// DefaultStartTimeout bounds a server's start-up when its config names none.
const DefaultStartTimeout = 30 * time.Second

// DefaultToolTimeout bounds a tool call when the server's config names no
// tool_timeout.
const DefaultToolTimeout = 10 * time.Minute

// Transport returns the server's transport: its declared type, or
// streamable HTTP for a server with a url, or stdio.
func (s Server) Transport() (string, error) {
	switch strings.ToLower(s.Type) {
	case "":
		if s.URL != "" {
			return TransportHTTP, nil
		}
		return TransportStdio, nil
	case "stdio":
		return TransportStdio, nil
	case "streamable-http", "http", "streamable_http", "streamablehttp":
		return TransportHTTP, nil
	case "sse":
		return TransportSSE, nil
	}
	return "", fmt.Errorf("mcp server %q: unknown type %q (use stdio, http or sse)", s.Name, s.Type)
}

// StartTimeout returns the server's start-up timeout.
func (s Server) StartTimeout() time.Duration {
	if s.Timeout > 0 {
		return time.Duration(s.Timeout * float64(time.Second))
	}
	return DefaultStartTimeout
}

// CallTimeout returns the server's tool call timeout.
func (s Server) CallTimeout() time.Duration {
	if s.ToolTimeout > 0 {
		return time.Duration(s.ToolTimeout * float64(time.Second))
	}
	return DefaultToolTimeout
}

// IsEnabled reports whether the server should be started.
func (s Server) IsEnabled() bool { return s.Enabled == nil || *s.Enabled }

// Validate checks that the server can be started.
func (s Server) Validate() error {
	t, err := s.Transport()
	if err != nil {
		return err
	}
	if t == TransportStdio && s.Command == "" {
		return fmt.Errorf("mcp server %q (%s): stdio needs a command; add \"command\" or a \"url\"", s.Name, s.Origin)
	}
	if t != TransportStdio && s.URL == "" {
		return fmt.Errorf("mcp server %q (%s): %s needs a \"url\"", s.Name, s.Origin, t)
	}
	if s.OAuth != nil {
		if err := s.OAuth.Validate(); err != nil {
			return fmt.Errorf("mcp server %q (%s): %w", s.Name, s.Origin, err)
		}
	}
	return nil
}

// file is the shape of an MCP config file: Claude Code's mcpServers or
// VS Code's servers.
type file struct {
	MCPServers map[string]json.RawMessage `json:"mcpServers"`
	Servers    map[string]json.RawMessage `json:"servers"`
}

// Parse reads the servers of one config file's contents. origin names the
// file in errors.
func Parse(data []byte, origin string) ([]Server, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: not a valid MCP config: %v", origin, err)
	}
	raw := map[string]json.RawMessage{}
	for k, v := range f.Servers {
		raw[k] = v
	}
	for k, v := range f.MCPServers {
		raw[k] = v
	}
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]Server, 0, len(names))
	for _, name := range names {
		var s Server
		var alias struct {
			Transport string `json:"transport"`
		}
		if err := json.Unmarshal(raw[name], &s); err != nil {
			return nil, fmt.Errorf("%s: mcp server %q: %v", origin, name, err)
		}
		_ = json.Unmarshal(raw[name], &alias)
		if s.Type == "" {
			s.Type = alias.Transport
		}
		s.Name, s.Origin = name, origin
		out = append(out, s.expand(os.LookupEnv))
	}
	return out, nil
}

// LoadFile reads the servers of a config file; a missing file has none.
func LoadFile(path string) ([]Server, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Merge merges server lists by name, a later list winning, in name order.
func Merge(lists ...[]Server) []Server {
	by := map[string]Server{}
	for _, l := range lists {
		for _, s := range l {
			by[s.Name] = s
		}
	}
	out := make([]Server, 0, len(by))
	for _, s := range by {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

var varRE = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)

// Expand replaces ${VAR} and ${VAR:-default} in s. An unset ${VAR} becomes
// empty; ${VAR:-default} uses default when VAR is unset or empty.
func Expand(s string, lookup func(string) (string, bool)) string {
	if !strings.Contains(s, "${") {
		return s
	}
	return varRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := varRE.FindStringSubmatch(m)
		v, ok := lookup(sub[1])
		if sub[2] != "" && (!ok || v == "") {
			return sub[3]
		}
		return v
	})
}

func (s Server) expand(lookup func(string) (string, bool)) Server {
	s.Command = Expand(s.Command, lookup)
	s.URL = Expand(s.URL, lookup)
	if s.Args != nil {
		args := make([]string, len(s.Args))
		for i, a := range s.Args {
			args[i] = Expand(a, lookup)
		}
		s.Args = args
	}
	s.Env = expandMap(s.Env, lookup)
	s.Headers = expandMap(s.Headers, lookup)
	s.OAuth = s.OAuth.Map(func(v string) string { return Expand(v, lookup) })
	return s
}

func expandMap(m map[string]string, lookup func(string) (string, bool)) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = Expand(v, lookup)
	}
	return out
}
