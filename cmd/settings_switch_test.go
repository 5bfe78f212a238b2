package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/ui"
)

// switchFactory returns a factory over env (and nothing of the real
// environment) whose user config holds userConfig when it is not empty.
func switchFactory(t *testing.T, env map[string]string, userConfig string) *Factory {
	t.Helper()
	home := t.TempDir()
	env["HOME"] = home
	env["XDG_CONFIG_HOME"] = filepath.Join(home, "config")
	env["XDG_STATE_HOME"] = filepath.Join(home, "state")
	if userConfig != "" {
		p := filepath.Join(home, "config", "llmrt", "config.json")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(userConfig), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := &IO{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}, Width: 80}
	return NewFactory(o, func(k string) string { return env[k] })
}

// TestSwitchModelKeepsEndpoints: /model keeps every provider's own
// endpoint and key: the base URL the run started with (--base-url,
// LLMRT_BASE_URL, a config file's base_url) belongs to the provider it
// was resolved for, and comes back with it; another provider gets its
// own variable or providers.<name>.base_url, else its public default,
// never the first provider's.
func TestSwitchModelKeepsEndpoints(t *testing.T) {
	str := func(s string) *string { return &s }
	keys := map[string]string{"OPENAI_API_KEY": "sk-openai-key-123", "ANTHROPIC_API_KEY": "sk-ant-key-456", "XAI_API_KEY": "xai-key-789"}
	cases := []struct {
		name       string
		env        map[string]string
		userConfig string
		flags      config.Layer
		// steps are provider/model switches and the base URL and key each
		// must leave ("" base URL: the provider's public default).
		steps []struct{ to, base, key string }
	}{
		{"--base-url stays with its provider", nil, "", config.Layer{Provider: str("openai"), Model: str("m"), BaseURL: str("http://proxy.example/v1")},
			[]struct{ to, base, key string }{
				{"anthropic/claude-x", "", "sk-ant-key-456"},
				{"openai/gpt-y", "http://proxy.example/v1", "sk-openai-key-123"},
				{"openai/gpt-z", "http://proxy.example/v1", "sk-openai-key-123"},
				{"xai/grok", "", "xai-key-789"},
				{"openai/m", "http://proxy.example/v1", "sk-openai-key-123"},
			}},
		{"LLMRT_BASE_URL is not another provider's", map[string]string{"LLMRT_BASE_URL": "http://llmrt-proxy.example/v1", "LLMRT_PROVIDER": "openai"}, "", config.Layer{},
			[]struct{ to, base, key string }{
				{"anthropic/claude-x", "", "sk-ant-key-456"},
				{"openai/gpt-y", "http://llmrt-proxy.example/v1", "sk-openai-key-123"},
			}},
		{"each provider's own variable and config", map[string]string{"ANTHROPIC_BASE_URL": "http://ant-proxy.example"},
			`{"provider":"openai","base_url":"http://user-openai.example/v1","providers":{"xai":{"base_url":"http://xai-proxy.example/v1"}}}`, config.Layer{},
			[]struct{ to, base, key string }{
				{"anthropic/claude-x", "http://ant-proxy.example", "sk-ant-key-456"},
				{"xai/grok", "http://xai-proxy.example/v1", "xai-key-789"},
				{"openai/gpt-y", "http://user-openai.example/v1", "sk-openai-key-123"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range keys {
				env[k] = v
			}
			for k, v := range tc.env {
				env[k] = v
			}
			f := switchFactory(t, env, tc.userConfig)
			flags := tc.flags
			flags.Cwd = str(t.TempDir())
			s, err := f.resolveSettings(context.Background(), flags, true, nil)
			if err != nil {
				t.Fatal(err)
			}
			hc := &http.Client{}
			s.backend.HTTPClient = hc
			start := s.backend.BaseURL
			for _, st := range tc.steps {
				p, m, _ := strings.Cut(st.to, "/")
				if err := s.switchModel(p, m); err != nil {
					t.Fatalf("switch to %s: %v", st.to, err)
				}
				if s.provider != p || s.model != m || s.backend.BaseURL != st.base || s.backend.APIKey != st.key || s.backend.HTTPClient != hc {
					t.Errorf("after /model %s (started on %q): got %s/%s at %q with key %q, want %q with key %q and the same client",
						st.to, start, s.provider, s.model, s.backend.BaseURL, s.backend.APIKey, st.base, st.key)
				}
			}
		})
	}
}

// guardedTransport refuses every host but loopback, recording the hosts
// it refused, so a test sees a request bound for a public endpoint
// without sending it.
type guardedTransport struct {
	mu      sync.Mutex
	refused []string
}

func (g *guardedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Hostname() != "127.0.0.1" {
		g.mu.Lock()
		g.refused = append(g.refused, r.URL.Host)
		g.mu.Unlock()
		return nil, errors.New("refused by the test: not a fake server")
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestChatModelSwitchKeepsEndpoints: in the chat, a turn on openai behind
// --base-url, /model anthropic/x (with ANTHROPIC_BASE_URL) and a turn,
// /model openai/y and a turn: each request reaches the fake server of its
// provider with that provider's key, and nothing goes anywhere else.
func TestChatModelSwitchKeepsEndpoints(t *testing.T) {
	answer := func(s string) scripted.Turn {
		return scripted.Turn{ToolCalls: []scripted.Call{{Name: "final_answer", Arguments: []byte(fmt.Sprintf(`{"answer":%q}`, s))}}}
	}
	oai := fakellm.Start(fakellm.OpenAI, answer("one"), answer("three"))
	defer oai.Close()
	ant := fakellm.Start(fakellm.Anthropic, answer("two"))
	defer ant.Close()
	env := map[string]string{"OPENAI_API_KEY": "sk-openai-key-123", "ANTHROPIC_API_KEY": "sk-ant-key-456", "ANTHROPIC_BASE_URL": ant.URL}
	f := switchFactory(t, env, "")
	guard := &guardedTransport{}
	f.HTTPClient = &http.Client{Transport: guard}
	str := func(s string) *string { return &s }
	s, err := f.resolveSettings(context.Background(), config.Layer{Provider: str("openai"), Model: str("m"), BaseURL: str(oai.URL + "/v1"), Cwd: str(t.TempDir())}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := newHost(f.IO, s, nil, f.secrets)
	c, err := newChatHost(h, nil, f, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	handlers := c.commands()
	turn := func(prompt string) {
		t.Helper()
		if err := c.Turn(context.Background(), ui.Turn{Prompt: prompt, Events: func(engine.Event) {}, Prompts: &screenStub{}}); err != nil {
			t.Fatalf("turn %q: %v", prompt, err)
		}
	}
	turn("first")
	if _, err := handlers["model"](context.Background(), "anthropic/claude-x"); err != nil {
		t.Fatal(err)
	}
	turn("second")
	if _, err := handlers["model"](context.Background(), "openai/gpt-y"); err != nil {
		t.Fatal(err)
	}
	turn("third")
	if len(guard.refused) > 0 {
		t.Errorf("requests went to hosts nobody configured: %q", guard.refused)
	}
	o, a := oai.Requests(), ant.Requests()
	if len(o) != 2 || len(a) != 1 {
		t.Fatalf("got %d requests at the openai server and %d at the anthropic one, want 2 and 1", len(o), len(a))
	}
	if got := o[1].Header.Get("Authorization"); got != "Bearer sk-openai-key-123" || !strings.Contains(string(o[1].Body), `"gpt-y"`) {
		t.Errorf("the third turn should go to the openai proxy with its key and the new model: %q\n%s", got, o[1].Body)
	}
	if got := a[0].Header.Get("X-Api-Key"); got != "sk-ant-key-456" {
		t.Errorf("the anthropic turn should carry the anthropic key, got %q", got)
	}
}
