package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestLayering: project config overrides user config, rules accumulate,
// .env values sit below the process environment.
func TestLayering(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "llmrt", "config.json"), `{"provider":"anthropic","model":"user-model","max_iterations":10,"allow":["read_file"]}`)
	writeFile(t, filepath.Join(dir, ".llmrt", "config.json"), `{"model":"project-model","allow":["shell_cmd(command=go test *)"]}`)
	writeFile(t, filepath.Join(dir, ".env"), "OPENAI_API_KEY=from-dotenv\nXAI_API_KEY=xai-dotenv\n")
	c, err := Load(Options{Dir: dir, Getenv: env(map[string]string{"XDG_CONFIG_HOME": home, "OPENAI_API_KEY": "from-env"}), Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	if *c.Provider != "anthropic" || *c.Model != "project-model" || *c.MaxIterations != 10 {
		t.Errorf("got provider %s model %s iterations %d", *c.Provider, *c.Model, *c.MaxIterations)
	}
	if strings.Join(c.Allow, "|") != "read_file|shell_cmd(command=go test *)" {
		t.Errorf("allow rules should accumulate, got %v", c.Allow)
	}
	if c.Getenv("OPENAI_API_KEY") != "from-env" || c.Getenv("XAI_API_KEY") != "xai-dotenv" {
		t.Errorf("env should win over .env: got %q and %q", c.Getenv("OPENAI_API_KEY"), c.Getenv("XAI_API_KEY"))
	}
	if len(c.Files) != 2 {
		t.Errorf("files read: %v", c.Files)
	}
}

// TestBadFiles: every error names the file, and the line and key where
// there is one.
func TestBadFiles(t *testing.T) {
	cases := []struct {
		name, content string
		line          int
		key, msg      string
	}{
		{"syntax error", "{\n  \"model\": \"x\",\n  \"provider\" \"openai\"\n}", 3, "", "invalid JSON"},
		{"not an object", "[1, 2]", 1, "", "JSON object"},
		{"wrong type", "{\n  \"model\": \"m\",\n  \"max_iterations\": \"lots\"\n}", 3, "max_iterations", "whole number"},
		{"bad list", "{\"allow\": \"read_file\"}", 1, "allow", "list of strings"},
		{"bad choice", "{\n\n  \"permission\": \"sometimes\"\n}", 3, "permission", `"sometimes" (use auto, ask, read or plan)`},
		{"bad api", "{\"api\": \"completions\"}", 1, "api", `"completions" (use responses or chat)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ".llmrt", "config.json")
			writeFile(t, path, tc.content)
			_, err := Load(Options{Dir: dir, Getenv: env(map[string]string{"XDG_CONFIG_HOME": t.TempDir()})})
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a FileError", err)
			}
			if fe.Path != path || fe.Line != tc.line || fe.Key != tc.key || !strings.Contains(fe.Error(), tc.msg) {
				t.Errorf("got %q (line %d key %q), want line %d key %q mentioning %q", fe.Error(), fe.Line, fe.Key, tc.line, tc.key, tc.msg)
			}
		})
	}
}

func TestUnknownKeyIsADiagnostic(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".llmrt", "config.json"), "{\n  \"model\": \"m\",\n  \"modle\": \"typo\"\n}")
	c, err := Load(Options{Dir: dir, Getenv: env(map[string]string{"XDG_CONFIG_HOME": t.TempDir()})})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diagnostics) != 1 || !strings.Contains(c.Diagnostics[0], `config.json:3: unknown key "modle"`) {
		t.Errorf("diagnostics: %v", c.Diagnostics)
	}
}

func TestNewerKeysAreKnown(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".llmrt", "config.json"),
		`{"mcpServers":{"gh":{"command":"x"}},"skills_dirs":["s"],"context_window":128000,"shell_env":{"pass":["GITHUB_TOKEN"]}}`)
	c, err := Load(Options{Dir: dir, Getenv: env(map[string]string{"XDG_CONFIG_HOME": t.TempDir()}), Trusted: true})
	if err != nil || len(c.Diagnostics) != 0 {
		t.Errorf("got %v %v, want no diagnostics", err, c.Diagnostics)
	}
	if c.ContextWindow == nil || *c.ContextWindow != 128000 || len(c.SkillsDirs) != 1 || c.ShellEnv == nil || c.ShellEnv.Pass[0] != "GITHUB_TOKEN" {
		t.Errorf("the keys should be read: %+v", c.Layer)
	}
}

func TestBadDotEnv(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".env"), "OPENAI_API_KEY='unterminated\n")
	_, err := Load(Options{Dir: dir, Getenv: env(map[string]string{"XDG_CONFIG_HOME": t.TempDir()}), Trusted: true})
	var fe *FileError
	if !errors.As(err, &fe) || !strings.HasSuffix(fe.Path, ".env") {
		t.Fatalf("got %v, want an error naming .env", err)
	}
}
