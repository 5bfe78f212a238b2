package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/llmrt/llmrt/tools/mcp/oauth"
	"github.com/mark3labs/mcp-go/mcp"
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
	// Roots are the directories announced to the server as its roots; nil
	// leaves the choice to llmrt (see announcedRoots).
	Roots *Roots `json:"roots,omitempty"`
	// EnabledTools, when set, are the only tools of the server offered;
	// DisabledTools are never offered. Both name the server's own tool
	// names; a hidden tool is not in the model's list at all.
	EnabledTools  []string `json:"enabled_tools,omitempty"`
	DisabledTools []string `json:"disabled_tools,omitempty"`
	// Origin is the file the server was read from.
	Origin string `json:"-"`
	// Warnings are what reading the config found wrong without stopping
	// the server: a ${VAR} that is not set.
	Warnings []string `json:"-"`
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

// offered keeps the tools enabled_tools and disabled_tools let the model
// see.
func (s Server) offered(all []mcp.Tool) []mcp.Tool {
	if s.EnabledTools == nil && len(s.DisabledTools) == 0 {
		return all
	}
	out := make([]mcp.Tool, 0, len(all))
	for _, t := range all {
		if (s.EnabledTools == nil || slices.Contains(s.EnabledTools, t.Name)) && !slices.Contains(s.DisabledTools, t.Name) {
			out = append(out, t)
		}
	}
	return out
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
	if err := json.Unmarshal(StripJSONC(data), &f); err != nil {
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
			return nil, fmt.Errorf("%s: mcp server %q: %w", origin, name, err)
		}
		_ = json.Unmarshal(raw[name], &alias)
		if s.Type == "" {
			s.Type = alias.Transport
		}
		s.Name, s.Origin = name, origin
		s = s.expand(os.LookupEnv)
		if s.Roots != nil {
			s.Roots.Paths = expandHome(s.Roots.Paths)
		}
		out = append(out, s)
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
	v, _ := expandVars(s, lookup)
	return v
}

// expandVars is Expand that also returns the variables s names, unset and
// without a default.
func expandVars(s string, lookup func(string) (string, bool)) (string, []string) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var unset []string
	out := varRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := varRE.FindStringSubmatch(m)
		v, ok := lookup(sub[1])
		if sub[2] != "" && (!ok || v == "") {
			return sub[3]
		}
		if !ok {
			unset = append(unset, sub[1])
		}
		return v
	})
	return out, unset
}

func (s Server) expand(lookup func(string) (string, bool)) Server {
	warn := func(where string, unset []string) {
		for _, name := range unset {
			s.Warnings = append(s.Warnings, fmt.Sprintf("mcp server %q (%s): %s names ${%s}, which is not set; set it, or write ${%s:-default}",
				s.Name, s.Origin, where, name, name))
		}
	}
	var unset []string
	s.Command, unset = expandVars(s.Command, lookup)
	warn("command", unset)
	s.URL, unset = expandVars(s.URL, lookup)
	warn("url", unset)
	if s.Args != nil {
		args := make([]string, len(s.Args))
		for i, a := range s.Args {
			args[i], unset = expandVars(a, lookup)
			warn("an argument", unset)
		}
		s.Args = args
	}
	s.Env = s.expandMap("env", s.Env, lookup, warn, false)
	s.Headers = s.expandMap("header", s.Headers, lookup, warn, true)
	s.OAuth = s.OAuth.Map(func(v string) string { return Expand(v, lookup) })
	return s
}

// expandMap expands the values of an env or headers block. With drop, an
// entry that names an unset variable is left out: a header such as
// "Authorization: Bearer ${TOKEN}" is not sent with no token in it.
func (s Server) expandMap(kind string, m map[string]string, lookup func(string) (string, bool), warn func(string, []string), drop bool) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, unset := expandVars(m[k], lookup)
		if len(unset) > 0 && drop {
			warn(kind+" "+k+" (left out)", unset)
			continue
		}
		warn(kind+" "+k, unset)
		out[k] = v
	}
	return out
}
