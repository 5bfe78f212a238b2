package cmd

import (
	"fmt"
	"slices"

	acp "github.com/coder/acp-go-sdk"

	"github.com/llmrt/llmrt/tools/mcp"
)

// addClientServers adds the MCP servers an editor passed with a session
// to those of the configuration. They are the user's own, as the servers
// of their user config are, so they start whether the folder is trusted
// or not; one named like a configured server replaces it. Their secret
// environment values and headers are redacted like any server's.
func (s *settings) addClientServers(f *Factory, list []acp.McpServer) error {
	if len(list) == 0 {
		return nil
	}
	var client []mcp.Server
	for i, c := range list {
		sv, err := clientServer(c)
		if err != nil {
			return usageErrorf("mcpServers[%d]: %v", i, err)
		}
		client = append(client, sv)
		s.mcpSecrets = append(s.mcpSecrets, headerSecrets(sv.Headers)...)
		for k, v := range sv.Env {
			s.mcpSecrets = append(s.mcpSecrets, secretValues([]string{k + "=" + v})...)
		}
	}
	servers, skipped, _ := loadMCPServers(f.Getenv, s.workDir, s.mcpConfigs, s.trusted)
	var enabled []mcp.Server
	for _, sv := range servers {
		taken := slices.ContainsFunc(client, func(c mcp.Server) bool { return c.Name == sv.Name })
		refused := slices.ContainsFunc(skipped, func(k mcp.Server) bool { return k.Name == sv.Name })
		if sv.IsEnabled() && !taken && !refused {
			enabled = append(enabled, sv)
		}
	}
	if s.mcp != nil {
		_ = s.mcp.Close() // never started: nothing runs yet
	}
	s.mcp = mcp.New(append(enabled, client...), s.workDir)
	s.mcp.Sandbox = s.sandbox
	s.mcp.SetAuth(mcpAuth(f))
	f.secrets.add(s.mcpSecrets...)
	return nil
}

// clientServer is an ACP server description as llmrt's.
func clientServer(c acp.McpServer) (mcp.Server, error) {
	switch {
	case c.Stdio != nil:
		env := map[string]string{}
		for _, e := range c.Stdio.Env {
			env[e.Name] = e.Value
		}
		if c.Stdio.Name == "" || c.Stdio.Command == "" {
			return mcp.Server{}, fmt.Errorf("a stdio server needs a name and a command")
		}
		return mcp.Server{Name: c.Stdio.Name, Command: c.Stdio.Command, Args: c.Stdio.Args, Env: env}, nil
	case c.Http != nil:
		return remoteServer(c.Http.Name, c.Http.Url, mcp.TransportHTTP, c.Http.Headers)
	case c.Sse != nil:
		return remoteServer(c.Sse.Name, c.Sse.Url, mcp.TransportSSE, c.Sse.Headers)
	}
	return mcp.Server{}, fmt.Errorf("unsupported transport; give a stdio, http or sse server")
}

func remoteServer(name, url, transport string, headers []acp.HttpHeader) (mcp.Server, error) {
	if name == "" || url == "" {
		return mcp.Server{}, fmt.Errorf("a remote server needs a name and a url")
	}
	h := map[string]string{}
	for _, x := range headers {
		h[x.Name] = x.Value
	}
	return mcp.Server{Name: name, Type: transport, URL: url, Headers: h}, nil
}
