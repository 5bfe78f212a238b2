package tools

import (
	"context"
	"path"
	"slices"
	"strings"
	"testing"
)

func TestEnvPolicy(t *testing.T) {
	base := []string{
		"PATH=/bin", "HOME=/h", "OPENAI_API_KEY=sk-1", "github_token=gh", "MY_SECRET_THING=s",
		"DB_PASSWORD=p", "AWS_CREDENTIALS_FILE=f", "api_key=k", "EDITOR=vi", "GOFLAGS=-x", "BROKEN",
	}
	cases := []struct {
		name string
		p    EnvPolicy
		want []string
	}{
		{"zero value drops secrets", EnvPolicy{}, []string{"PATH=/bin", "HOME=/h", "EDITOR=vi", "GOFLAGS=-x"}},
		{"pass names one", EnvPolicy{Pass: []string{"github_token"}}, []string{"PATH=/bin", "HOME=/h", "github_token=gh", "EDITOR=vi", "GOFLAGS=-x"}},
		{"core", EnvPolicy{Inherit: "core"}, []string{"PATH=/bin", "HOME=/h"}},
		{"none with set", EnvPolicy{Inherit: "none", Set: map[string]string{"B": "2", "A": "1"}}, []string{"A=1", "B=2"}},
		{"exclude glob", EnvPolicy{Exclude: []string{"go*"}}, []string{"PATH=/bin", "HOME=/h", "EDITOR=vi"}},
		{"set overrides", EnvPolicy{Set: map[string]string{"EDITOR": "nano"}}, []string{"PATH=/bin", "HOME=/h", "GOFLAGS=-x", "EDITOR=nano"}},
		{"include only", EnvPolicy{IncludeOnly: []string{"PATH", "X*"}, Set: map[string]string{"XY": "1", "Z": "2"}}, []string{"PATH=/bin", "XY=1"}},
		{"ignore default excludes", EnvPolicy{IgnoreDefaultExcludes: true, IncludeOnly: []string{"*KEY*"}}, []string{"OPENAI_API_KEY=sk-1", "api_key=k"}},
	}
	for _, c := range cases {
		if got := c.p.Apply(base); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if err := (EnvPolicy{Inherit: "some"}).Check(); err == nil || !strings.Contains(err.Error(), "all, core or none") {
		t.Errorf("bad inherit: %v", err)
	}
	if err := (EnvPolicy{Exclude: []string{"[x"}}).Check(); err == nil {
		t.Error("a malformed pattern should be an error")
	}
}

// TestShellCmdHidesSecrets: a command the model composes sees no
// credential, by name or by value.
func TestShellCmdHidesSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-value-123")
	t.Setenv("SOME_SERVICE_TOKEN", "tok-456")
	t.Setenv("LLMRT_VISIBLE", "yes")
	sr, res, err := runShellTest(t, context.Background(), Options{}, map[string]any{"command": "echo key=$OPENAI_API_KEY; env"})
	if err != nil || res.IsError {
		t.Fatal(err, res.Content)
	}
	for _, leak := range []string{"sk-test-value-123", "tok-456", "OPENAI_API_KEY", "SOME_SERVICE_TOKEN"} {
		if strings.Contains(sr.Output, leak) {
			t.Errorf("the command saw %q:\n%s", leak, sr.Output)
		}
	}
	if !strings.Contains(sr.Output, "LLMRT_VISIBLE=yes") || !strings.Contains(sr.Output, "key=\n") {
		t.Errorf("other variables should pass and the key be empty:\n%s", sr.Output)
	}
	// A named variable passes when the policy says so.
	sr, _, _ = runShellTest(t, context.Background(), Options{Shell: ShellOptions{EnvPolicy: EnvPolicy{Pass: []string{"SOME_SERVICE_TOKEN"}}}}, map[string]any{"command": "echo $SOME_SERVICE_TOKEN"})
	if sr.Output != "tok-456\n" {
		t.Errorf("a passed variable should reach the command, got %q", sr.Output)
	}
}

// TestEnvPolicyDropsMoreCredentials: names with PWD, PASS or DSN in them
// and URL values carrying credentials are dropped too, whatever the name;
// PWD and OLDPWD (the shell's directories), URLs without credentials and
// an ssh user name stay. Pass keeps a named one.
func TestEnvPolicyDropsMoreCredentials(t *testing.T) {
	base := []string{
		"MYSQL_PWD=pw", "SSHPASS=pw", "SMTP_PASSWD=pw", "SENTRY_DSN=https://k@o1.ingest.sentry.io/1",
		"DATABASE_URL=postgres://app:s3cret@db:5432/app", "REDIS=redis://:s3cret@cache:6379",
		"GIT_REMOTE=https://ghp_abc@github.com/o/r.git",
		"PWD=/w", "OLDPWD=/", "HOMEPAGE=https://example.com/x?y=1", "GIT_URL=ssh://git@github.com/o/r", "EDITOR=vi",
	}
	want := []string{"PWD=/w", "OLDPWD=/", "HOMEPAGE=https://example.com/x?y=1", "GIT_URL=ssh://git@github.com/o/r", "EDITOR=vi"}
	if got := (EnvPolicy{}).Apply(base); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	got := (EnvPolicy{Pass: []string{"DATABASE_URL"}}).Apply(base)
	if !slices.Contains(got, "DATABASE_URL=postgres://app:s3cret@db:5432/app") {
		t.Errorf("pass should keep DATABASE_URL: %q", got)
	}
	for _, kv := range base {
		name, value, _ := strings.Cut(kv, "=")
		if got, secret := SecretVar(name, value), !slices.Contains(want, kv); got != secret {
			t.Errorf("SecretVar(%q, %q) = %v, want %v", name, value, got, secret)
		}
	}
}

// matchName's substring shortcut decides what path.Match decides, on names
// with and without slashes and patterns of every shape.
func TestMatchNameIsPathMatch(t *testing.T) {
	patterns := append([]string{"*", "**", "*K*", "*KEY", "KEY*", "*K?Y*", "*[KL]EY*", "*\\*K*", "*K/*", "*KEY*X*", "*/*", "[", "*[*"}, SecretPatterns...)
	names := []string{"", "KEY", "API_KEY", "MY_KEY_ID", "K", "KE", "A/KEY", "KEY/", "/", "PWD", "OLDPWD", "SECRETS", "*K*", "K/Y", "X*KEY", "[KEY]"}
	for _, p := range patterns {
		for _, n := range names {
			want, err := path.Match(p, n)
			if err != nil {
				want = false
			}
			if got := matchName(p, n); got != want {
				t.Errorf("matchName(%q, %q) = %v, path.Match says %v", p, n, got, want)
			}
		}
	}
}
