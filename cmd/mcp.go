package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/tools/mcp"
	"github.com/llmrt/llmrt/ui"
)

func newMCPCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Manage MCP servers",
		Long: `List, show, add and remove the MCP servers llmrt starts. Servers are read from
the user config, the project's .mcp.json, the project's .llmrt/config.json, your
own servers for this project (the local scope) and --mcp-config files, a later
one winning for a name. A project's servers start only once you trust the
folder (llmrt trust).

add and remove change one scope: local (the default: yours, for this project,
kept in llmrt's state and never in the repository), project (.mcp.json, shared
with everyone who clones it) or user (all your projects). login and logout
authorize llmrt with a remote server that asks for OAuth, and forget it.`,
	}
	cmd.AddCommand(newMCPListCmd(f), newMCPGetCmd(f), newMCPAddCmd(f), newMCPRemoveCmd(f),
		newMCPLoginCmd(f, nil), newMCPLogoutCmd(f, nil))
	return cmd
}

// mcpServers lists the configured servers of the current folder; listing
// starts nothing, so a project's servers are listed trusted or not.
func mcpServers(f *Factory) (list []mcp.Server, diags []string, trusted bool, err error) {
	dir, err := workDir("")
	if err != nil {
		return nil, nil, false, err
	}
	list, _, diags = loadMCPServers(f.Getenv, dir, nil, true)
	store := config.TrustStore{Path: config.TrustPath(f.Getenv)}
	trusted, _, _ = store.Check(projectFolder(f.Getenv, dir))
	return list, diags, trusted, nil
}

// mcpScope names the scope of a server's file: local, project, user, or
// the file itself for a --mcp-config.
func mcpScope(f *Factory, dir, origin string) string {
	switch origin {
	case config.LocalPath(f.Getenv, dir):
		return "local"
	case config.UserPath(f.Getenv):
		return "user"
	case filepath.Join(dir, ".mcp.json"), config.ProjectPath(dir):
		return "project"
	}
	return origin
}

func newMCPGetCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "get NAME",
		Short: "Show one MCP server's configuration",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			list, _, _, err := mcpServers(f)
			if err != nil {
				return err
			}
			for _, s := range list {
				if s.Name == args[0] {
					// As written in its file: ${VAR} references stay
					// unexpanded, so no secret from the environment shows.
					t, _ := s.Transport()
					raw, err := rawMCPServer(s.Origin, s.Name)
					if err != nil {
						return err
					}
					var b bytes.Buffer
					if err := json.Indent(&b, raw, "", "  "); err != nil {
						return err
					}
					_, err = fmt.Fprintf(f.IO.Out, "%s (%s, from %s)\n%s\n", s.Name, t, ui.Sanitize(s.Origin), ui.Sanitize(b.String()))
					return err
				}
			}
			return fmt.Errorf("no MCP server named %q; see llmrt mcp list", args[0])
		},
	}
}

// mcpConfigPath is the file add and remove change for a scope.
func mcpConfigPath(f *Factory, scope string) (string, error) {
	dir, err := workDir("")
	if err != nil {
		return "", err
	}
	switch scope {
	case "", "local":
		if p := config.LocalPath(f.Getenv, dir); p != "" {
			return p, nil
		}
		return "", withHint(usageErrorf("no state directory for the local scope"), "set HOME or XDG_STATE_HOME, or pass --scope project")
	case "project":
		return filepath.Join(dir, ".mcp.json"), nil
	case "user":
		return config.UserPath(f.Getenv), nil
	}
	return "", usageErrorf("--scope %q: use local, project or user", scope)
}

// rawMCPServer returns a server's entry as its config file holds it
// (under mcpServers, or servers).
func rawMCPServer(path, name string) (json.RawMessage, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Servers    map[string]json.RawMessage `json:"servers"`
	}
	if err := json.Unmarshal(mcp.StripJSONC(data), &f); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if raw, ok := f.MCPServers[name]; ok {
		return raw, nil
	}
	if raw, ok := f.Servers[name]; ok {
		return raw, nil
	}
	return nil, fmt.Errorf("%s: no MCP server named %q", path, name)
}

// editMCPFile changes the mcpServers object of a config file, keeping its
// other keys; private makes a new file readable by the user alone.
func editMCPFile(path string, private bool, edit func(servers map[string]json.RawMessage) error) error {
	top := map[string]json.RawMessage{}
	data, err := config.ReadRegular(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if len(data) > 0 {
		if err := json.Unmarshal(data, &top); err != nil {
			if json.Unmarshal(mcp.StripJSONC(data), &top) == nil {
				// Rewriting it would drop the comments.
				return fmt.Errorf("%s has comments or trailing commas, which llmrt would lose rewriting it; edit it by hand", path)
			}
			return fmt.Errorf("%s: not valid JSON (%v); fix or remove it", path, err)
		}
	}
	servers := map[string]json.RawMessage{}
	if raw, ok := top["mcpServers"]; ok {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return fmt.Errorf("%s: mcpServers: %v", path, err)
		}
	}
	if err := edit(servers); err != nil {
		return err
	}
	b, err := json.Marshal(servers)
	if err != nil {
		return err
	}
	top["mcpServers"] = b
	out, err := json.MarshalIndent(top, "", "  ")
	if err != nil {
		return err
	}
	// A private file (the local scope, in llmrt's state) may hold tokens:
	// it is made the user's alone. A file that exists keeps its mode.
	dirMode, mode := os.FileMode(0o755), os.FileMode(0o644)
	if private {
		dirMode, mode = 0o700, 0o600
	}
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return err
	}
	return os.WriteFile(path, append(out, '\n'), mode)
}

func newMCPAddCmd(f *Factory) *cobra.Command {
	var scope, url, transport string
	var envs, headers []string
	cmd := &cobra.Command{
		Use:   "add NAME [--env K=V] [--header 'H: V'] -- COMMAND ARGS... | add NAME --url URL",
		Short: "Add an MCP server for you in this project (local), the project (.mcp.json) or all your projects (user)",
		Example: `  llmrt mcp add everything -- npx -y @modelcontextprotocol/server-everything
  llmrt mcp add docs --url https://example.com/mcp --header "Authorization: Bearer ${DOCS_TOKEN}"
  llmrt mcp add fs --scope user -- npx -y @modelcontextprotocol/server-filesystem ~/notes
  llmrt mcp add shared --scope project -- npx -y @modelcontextprotocol/server-everything`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, rest := args[0], args[1:]
			if sanitize := strings.Map(func(r rune) rune {
				if r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
					return r
				}
				return -1
			}, name); sanitize != name {
				return fmt.Errorf("server name %q: use letters, digits, _ and -", name)
			}
			s := mcp.Server{Name: name, Type: transport}
			if url == "" && len(rest) == 1 && (strings.HasPrefix(rest[0], "http://") || strings.HasPrefix(rest[0], "https://")) {
				// claude mcp add --transport http NAME URL
				url, rest = rest[0], nil
			}
			switch {
			case url != "" && len(rest) > 0:
				return errors.New("give either --url or -- COMMAND ARGS..., not both")
			case url != "":
				s.URL = url
			case len(rest) > 0:
				s.Command, s.Args = rest[0], rest[1:]
			default:
				return errors.New("missing the server: add -- COMMAND ARGS... or --url URL")
			}
			for _, e := range envs {
				k, v, ok := strings.Cut(e, "=")
				if !ok || k == "" {
					return fmt.Errorf("--env %q: use KEY=VALUE", e)
				}
				if s.Env == nil {
					s.Env = map[string]string{}
				}
				s.Env[k] = v
			}
			for _, h := range headers {
				k, v, ok := strings.Cut(h, ":")
				if !ok || strings.TrimSpace(k) == "" {
					return fmt.Errorf("--header %q: use 'Name: value'", h)
				}
				if s.Headers == nil {
					s.Headers = map[string]string{}
				}
				s.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			path, err := mcpConfigPath(f, scope)
			if err != nil {
				return err
			}
			s.Origin = path
			if err := s.Validate(); err != nil {
				return err
			}
			b, err := json.Marshal(s)
			if err != nil {
				return err
			}
			if err := editMCPFile(path, scope == "local" || scope == "", func(m map[string]json.RawMessage) error {
				if _, ok := m[name]; ok {
					return fmt.Errorf("MCP server %s already exists in %s; remove it first (llmrt mcp remove %s)", name, path, name)
				}
				m[name] = b
				return nil
			}); err != nil {
				return err
			}
			_, err = fmt.Fprintf(f.IO.Out, "Added MCP server %s to %s\n", name, path)
			return err
		},
	}
	cmd.Flags().StringVarP(&scope, "scope", "s", "local", "where to save it: local (yours, this project; kept out of the repository), project (.mcp.json) or user")
	cmd.Flags().StringVar(&url, "url", "", "the URL of a remote (streamable HTTP or SSE) server")
	cmd.Flags().StringVarP(&transport, "transport", "t", "", "stdio, http or sse (default: stdio for a command, http for a URL)")
	cmd.Flags().StringArrayVarP(&envs, "env", "e", nil, "an environment variable for the server, KEY=VALUE; repeatable")
	cmd.Flags().StringArrayVarP(&headers, "header", "H", nil, "an HTTP header for a remote server, 'Name: value'; repeatable")
	return cmd
}

func newMCPRemoveCmd(f *Factory) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove an MCP server from its scope (local, project or user)",
		Long: `Remove an MCP server from the scope that has it (local, the project's
.mcp.json, or the user config), or from the one --scope names.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := mcpConfigPath(f, scope)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("scope") {
				if path, err = mcpScopeOf(f, args[0]); err != nil {
					return err
				}
			}
			if err := editMCPFile(path, false, func(m map[string]json.RawMessage) error {
				if _, ok := m[args[0]]; !ok {
					return fmt.Errorf("no MCP server named %q in %s", args[0], path)
				}
				delete(m, args[0])
				return nil
			}); err != nil {
				return err
			}
			_, err = fmt.Fprintf(f.IO.Out, "Removed MCP server %s from %s\n", args[0], path)
			return err
		},
	}
	cmd.Flags().StringVarP(&scope, "scope", "s", "local", "local, project (.mcp.json) or user (default: the one that has it)")
	return cmd
}

// mcpScopeOf returns the file, local, project or user, that holds a
// server; the local one when none does (remove then says so), and an
// error naming them when several do.
func mcpScopeOf(f *Factory, name string) (string, error) {
	var holders []string
	for _, scope := range []string{"local", "project", "user"} {
		p, err := mcpConfigPath(f, scope)
		if err != nil {
			continue
		}
		if _, err := rawMCPServer(p, name); err == nil {
			holders = append(holders, p)
		}
	}
	switch len(holders) {
	case 0:
		return mcpConfigPath(f, "local")
	case 1:
		return holders[0], nil
	}
	return "", usageErrorf("MCP server %q is in %s; pass --scope local, project or user", name, strings.Join(holders, " and "))
}
