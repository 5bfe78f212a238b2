package mcp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStdioServerEnvironment: a stdio server gets a small environment —
// the basic variables, its env block and what env_vars names — and never
// llmrt's provider keys or other variables unless named.
func TestStdioServerEnvironment(t *testing.T) {
	for k, v := range map[string]string{
		"OPENAI_API_KEY": "sk-openai-secret", "ANTHROPIC_API_KEY": "sk-ant-secret", "GITHUB_TOKEN": "ghp-secret",
		"DATABASE_URL": "postgres://u:pw@db/x", "RANDOM_SETTING": "r", "LC_TIME": "C", "TZ": "UTC", "LANG": "C.UTF-8",
	} {
		t.Setenv(k, v)
	}
	servers, err := Parse([]byte(`{"mcpServers":{"s":{"command":"sh","env":{"FROM_BLOCK":"b"},"env_vars":["GITHUB_TOKEN","NOT_SET"]}}}`), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := servers[0].EnvVars; !slices.Equal(got, []string{"GITHUB_TOKEN", "NOT_SET"}) {
		t.Fatalf("env_vars: got %q", got)
	}
	exe, _ := os.Executable()
	dir := t.TempDir()
	out := filepath.Join(dir, "env.txt")
	s := servers[0]
	s.Args = []string{"-c", "env > " + out + "; exec " + exe}
	s.Env["LLMRT_MCP_TEST_SERVER"] = "1"
	src := New([]Server{s}, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	defer src.Close()
	if d := src.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %+v", d)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, want := range []string{"PATH=" + os.Getenv("PATH"), "LC_TIME=C", "TZ=UTC", "LANG=C.UTF-8", "FROM_BLOCK=b", "GITHUB_TOKEN=ghp-secret"} {
		if !slices.Contains(env, want) {
			t.Errorf("the server should see %s:\n%s", want, data)
		}
	}
	for _, leak := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "DATABASE_URL", "RANDOM_SETTING", "NOT_SET", "sk-openai-secret", "sk-ant-secret"} {
		if strings.Contains(string(data), leak) {
			t.Errorf("the server should not see %s:\n%s", leak, data)
		}
	}
}
