package config

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// parseFlags returns the command line's layer for args.
func parseFlags(t *testing.T, args ...string) *Layer {
	t.Helper()
	var l Layer
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	RegisterFlags(fs, &l)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %v: %v", args, err)
	}
	return &l
}

// TestFlagsAreALayer: a flag sets its option only when given, so a flag
// left out leaves the lower layers' value, and a flag set to a zero value
// still wins.
func TestFlagsAreALayer(t *testing.T) {
	l := parseFlags(t, "--budget", "0", "-q", "--web-search", "--timeout", "90s", "--allow", "read_file", "--allow", "list_files", "--skills-dir", "rel")
	if l.Budget == nil || *l.Budget != 0 {
		t.Errorf("--budget 0: got %v, want a set zero", l.Budget)
	}
	if l.Quiet == nil || !*l.Quiet || l.Verbose != nil {
		t.Errorf("-q: got quiet %v verbose %v, want quiet set and verbose unset", l.Quiet, l.Verbose)
	}
	if l.WebSearch == nil || *l.WebSearch != "medium" {
		t.Errorf("--web-search alone: got %v, want medium", l.WebSearch)
	}
	if l.Timeout.Std() != 90*time.Second {
		t.Errorf("--timeout 90s: got %v", l.Timeout.Std())
	}
	if strings.Join(l.Allow, "|") != "read_file|list_files" {
		t.Errorf("--allow twice: got %v", l.Allow)
	}
	if len(l.SkillsDirs) != 1 || !filepath.IsAbs(l.SkillsDirs[0]) {
		t.Errorf("--skills-dir rel: got %v, want one absolute path", l.SkillsDirs)
	}
	if l.Model != nil || l.MaxIterations != nil || l.Temperature != nil {
		t.Errorf("flags not given must stay unset: %+v", l)
	}
	var bad Layer
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	RegisterFlags(fs, &bad)
	if err := fs.Parse([]string{"--max-iterations", "many"}); err == nil || !strings.Contains(err.Error(), "not a whole number") {
		t.Errorf("--max-iterations many: got %v, want an error saying it is not a whole number", err)
	}
}

// TestPrecedence: user < project < environment < session < flags, in one
// merge, and each option knows the layer that set it.
func TestPrecedence(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "llmrt", "config.json"), `{"max_iterations":1,"max_tokens":1,"budget":1,"finish":"text","temperature":0.1,"allow":["read_file"]}`)
	writeFile(t, filepath.Join(dir, ".llmrt", "config.json"), `{"max_tokens":2,"budget":2,"finish":"evidence","model":"project-model"}`)
	sess := &Layer{Budget: ptr(4), Temperature: ptr(0.4), Allow: []string{"list_files", "read_file"}}
	flags := parseFlags(t, "--temperature", "0.5", "--allow", "write_file")
	c, err := Load(Options{Dir: dir, Getenv: env(map[string]string{"XDG_CONFIG_HOME": home, "LLMRT_MODEL": "env-model"}),
		Session: sess, SessionID: "s1", Flags: flags})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		key    string
		got    any
		value  any
		origin Origin
		where  string
	}{
		{"max_iterations", *c.MaxIterations, 1, User, "config key max_iterations in " + filepath.Join(home, "llmrt", "config.json")},
		{"max_tokens", *c.MaxTokens, 2, Project, "config key max_tokens in " + ProjectPath(dir)},
		{"model", *c.Model, "env-model", Environment, "LLMRT_MODEL"},
		{"budget", *c.Budget, 4, Session, "budget (recorded by session s1)"},
		{"temperature", *c.Temperature, 0.5, Flags, "--temperature"},
	}
	for _, w := range want {
		if w.got != w.value || c.From(w.key).Origin != w.origin || c.Where(w.key) != w.where {
			t.Errorf("%s: got %v from %v (%q), want %v from %v (%q)", w.key, w.got, c.From(w.key).Origin, c.Where(w.key), w.value, w.origin, w.where)
		}
	}
	if strings.Join(c.Allow, "|") != "read_file|list_files|write_file" {
		t.Errorf("rules add up once each: got %v", c.Allow)
	}
	if c.From("system").Origin != Default || c.Where("system") != "system" {
		t.Errorf("an option nobody set: got %v %q", c.From("system"), c.Where("system"))
	}
}

// TestAnotherProviderDropsItsModel: the model, base URL and API a lower
// layer gave for one provider do not follow a higher layer to another.
func TestAnotherProviderDropsItsModel(t *testing.T) {
	cases := []struct {
		name                string
		lower, higher       Layer
		model, baseURL, api string
	}{
		{"another provider", Layer{Provider: ptr("openai"), Model: ptr("gpt"), BaseURL: ptr("http://a"), API: ptr("chat")}, Layer{Provider: ptr("anthropic")}, "", "", ""},
		{"the same provider", Layer{Provider: ptr("openai"), Model: ptr("gpt"), BaseURL: ptr("http://a"), API: ptr("chat")}, Layer{Provider: ptr("openai")}, "gpt", "http://a", "chat"},
		{"a model without a provider", Layer{Model: ptr("gpt")}, Layer{Provider: ptr("anthropic")}, "gpt", "", ""},
		{"another provider with its model", Layer{Provider: ptr("openai"), Model: ptr("gpt")}, Layer{Provider: ptr("anthropic"), Model: ptr("claude")}, "claude", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Options{Dir: t.TempDir(), Getenv: env(map[string]string{"XDG_CONFIG_HOME": t.TempDir()}), Session: &tc.lower, Flags: &tc.higher})
			if err != nil {
				t.Fatal(err)
			}
			if deref(c.Model) != tc.model || deref(c.BaseURL) != tc.baseURL || deref(c.API) != tc.api {
				t.Errorf("got model %q base URL %q api %q, want %q, %q and %q", deref(c.Model), deref(c.BaseURL), deref(c.API), tc.model, tc.baseURL, tc.api)
			}
		})
	}
}

// TestRecorded: a session keeps the run options, never the command
// line's own (trace, quiet) nor what a file sets for the host (system).
func TestRecorded(t *testing.T) {
	l := parseFlags(t, "--budget", "5", "--permission", "auto", "--mcp-config", "/m.json", "--trace", "t.jsonl", "-q", "--system", "hi", "--timeout", "1m")
	data, err := json.Marshal(l.Recorded())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(data), `{"permission":"auto","budget":5,"mcp_config":["/m.json"]}`; got != want {
		t.Errorf("recorded %s, want %s", got, want)
	}
	var back Layer
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back, l.Recorded()) {
		t.Errorf("a record reads back as the layer it was: %v %+v", err, back)
	}
}

// TestCommandLineKeysAreNotConfigKeys: a config file cannot name the
// extra MCP config files, which only the command line gives.
func TestCommandLineKeysAreNotConfigKeys(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, ProjectPath(dir), `{"mcp_config":["/elsewhere.json"],"timeout":"2m"}`)
	c, err := Load(Options{Dir: dir, Getenv: env(map[string]string{"XDG_CONFIG_HOME": t.TempDir()})})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.MCPConfigs) != 0 || len(c.Diagnostics) != 1 || !strings.Contains(c.Diagnostics[0], `unknown key "mcp_config"`) {
		t.Errorf("got %v and diagnostics %v, want the key ignored and reported", c.MCPConfigs, c.Diagnostics)
	}
	if c.Timeout.Std() != 2*time.Minute {
		t.Errorf("timeout: got %v, want 2m", c.Timeout.Std())
	}
	writeFile(t, ProjectPath(dir), `{"timeout":"soon"}`)
	if _, err := Load(Options{Dir: dir, Getenv: env(map[string]string{"XDG_CONFIG_HOME": t.TempDir()})}); err == nil || !strings.Contains(err.Error(), `"soon" is not a duration`) {
		t.Errorf("a bad timeout: got %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
