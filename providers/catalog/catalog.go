// Package catalog builds any provider by name, from explicit settings or
// from each provider's environment variables (OPENAI_API_KEY,
// ANTHROPIC_BASE_URL, ...), for hosts that choose the provider at run time
// as the CLI does. It is the all-in-one: it links every adapter. A program
// that knows its provider imports that adapter alone and passes it to
// engine.Config.Adapters.
//
//	p, err := catalog.New(name, catalog.FromEnv(name, os.Getenv))
//	...
//	rt, err := engine.New(engine.Config{Adapters: []engine.Provider{p}})
package catalog

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/ollama"
	"github.com/llmrt/llmrt/providers/openai"
	"github.com/llmrt/llmrt/providers/scripted"
)

// Settings configure one provider. Empty fields take the provider's
// defaults.
type Settings struct {
	APIKey     string
	BaseURL    string
	APIVersion string // Azure only
	// API picks the wire API of a provider that speaks more than one
	// (Spec.APIs): for openai, APIResponses (the default) or APIChat.
	API        string
	HTTPClient *http.Client
	Timeouts   providers.Timeouts
}

// The wire APIs a provider may offer a choice of.
const (
	// APIResponses is OpenAI's Responses API, which carries reasoning
	// models' reasoning across tool calls.
	APIResponses = "responses"
	// APIChat is Chat Completions, for a server (a proxy, a gateway) that
	// speaks only that at a base URL given for openai.
	APIChat = "chat"
)

// ParseAPI checks an API name: "", APIResponses or APIChat.
func ParseAPI(s string) error {
	switch s {
	case "", APIResponses, APIChat:
		return nil
	}
	return fmt.Errorf("unknown API %q (use %s or %s)", s, APIResponses, APIChat)
}

// Spec describes a provider: its environment variables and defaults.
type Spec struct {
	Name string
	// KeyVars are the API key variables, first match wins; empty when the
	// provider needs no key.
	KeyVars []string
	// KeyOptional is set when a key may be omitted (openai-compatible).
	KeyOptional bool
	// BaseURLVar names the base-URL variable; DefaultBaseURL is used when
	// it is unset ("" means the variable is required).
	BaseURLVar     string
	DefaultBaseURL string
	// DefaultModel is used when no model is given ("" means one must be).
	DefaultModel string
	// Auto marks the providers automatic selection tries, in list order,
	// by whether their key is set.
	Auto bool
	// NoWebSearch, when set, says why runs on this provider cannot use
	// native web search (the adapter also warns at run time).
	NoWebSearch string
	// APIs are the wire APIs Settings.API may choose, the default first;
	// empty for a provider that speaks one.
	APIs []string
}

// specs lists every provider in the order used for automatic selection.
var specs = []Spec{
	{Name: "openai", KeyVars: []string{"OPENAI_API_KEY"}, BaseURLVar: "OPENAI_BASE_URL", DefaultBaseURL: "https://api.openai.com/v1", DefaultModel: "gpt-5-mini", Auto: true,
		APIs: []string{APIResponses, APIChat}},
	{Name: "anthropic", KeyVars: []string{"ANTHROPIC_API_KEY"}, BaseURLVar: "ANTHROPIC_BASE_URL", DefaultBaseURL: "https://api.anthropic.com", DefaultModel: "claude-sonnet-4-5", Auto: true},
	{Name: "google", KeyVars: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}, BaseURLVar: "GOOGLE_GEMINI_BASE_URL", DefaultBaseURL: "https://generativelanguage.googleapis.com", DefaultModel: "gemini-2.5-flash", Auto: true,
		NoWebSearch: "Gemini cannot combine Google Search grounding with function calling, which every run uses"},
	{Name: "xai", KeyVars: []string{"XAI_API_KEY"}, BaseURLVar: "XAI_BASE_URL", DefaultBaseURL: "https://api.x.ai/v1", DefaultModel: "grok-4-fast", Auto: true,
		NoWebSearch: "xAI chat completions have no web search option"},
	{Name: "azure", KeyVars: []string{"AZURE_OPENAI_API_KEY"}, BaseURLVar: "AZURE_OPENAI_ENDPOINT",
		NoWebSearch: "Azure OpenAI chat completions have no web search option"},
	{Name: "openai-compatible", KeyVars: []string{"OPENAI_COMPATIBLE_API_KEY"}, KeyOptional: true, BaseURLVar: "OPENAI_COMPATIBLE_BASE_URL",
		NoWebSearch: "OpenAI-compatible servers have no standard web search option"},
	{Name: "ollama", KeyVars: []string{"OLLAMA_API_KEY"}, KeyOptional: true, BaseURLVar: "OLLAMA_HOST", DefaultBaseURL: ollama.DefaultBaseURL, DefaultModel: "llama3.2",
		NoWebSearch: "ollama has no native web search"},
	{Name: "scripted", NoWebSearch: "the scripted provider does not search"},
}

// Names lists the provider names.
func Names() []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// Lookup returns the spec of a provider.
func Lookup(name string) (Spec, bool) {
	i := slices.IndexFunc(specs, func(s Spec) bool { return s.Name == name })
	if i < 0 {
		return Spec{}, false
	}
	return specs[i], true
}

// FromEnv reads a provider's settings from getenv: its key variables, its
// base-URL variable (LLMRT_BASE_URL overrides it), and for Azure
// AZURE_OPENAI_API_VERSION.
func FromEnv(name string, getenv func(string) string) Settings {
	spec, _ := Lookup(name)
	var s Settings
	for _, v := range spec.KeyVars {
		if s.APIKey = strings.TrimSpace(getenv(v)); s.APIKey != "" {
			break
		}
	}
	if spec.BaseURLVar != "" {
		s.BaseURL = strings.TrimSpace(getenv(spec.BaseURLVar))
	}
	if v := strings.TrimSpace(getenv("LLMRT_BASE_URL")); v != "" {
		s.BaseURL = v
	}
	if name == "azure" {
		s.APIVersion = strings.TrimSpace(getenv("AZURE_OPENAI_API_VERSION"))
	}
	return s
}

// WebSearchIgnored reports whether runs on the named provider cannot use
// native web search, and why, so a host can report it before the first
// model call.
func WebSearchIgnored(name string) (why string, ignored bool) {
	spec, _ := Lookup(name)
	return spec.NoWebSearch, spec.NoWebSearch != ""
}

// AutoSelect picks a provider when none is configured: the
// first provider marked Auto whose key getenv holds, else ollama if a
// server answers at its configured or default address within half a
// second, else "". hc nil means http.DefaultClient.
func AutoSelect(ctx context.Context, getenv func(string) string, hc *http.Client) string {
	for _, s := range specs {
		if s.Auto && HasKey(s.Name, getenv) {
			return s.Name
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	p := ollama.New(ollama.Config{BaseURL: FromEnv("ollama", getenv).BaseURL, HTTPClient: hc})
	if p.Ping(ctx) == nil {
		return "ollama"
	}
	return ""
}

// AutoKeys lists the key variables AutoSelect looks at, in its order (the
// first variable of each automatic provider), for a host telling a person
// what to set.
func AutoKeys() []string {
	var out []string
	for _, s := range specs {
		if s.Auto {
			out = append(out, s.KeyVars[0])
		}
	}
	return out
}

// HasKey reports whether getenv holds a key for the provider, for
// AutoSelect.
func HasKey(name string, getenv func(string) string) bool {
	spec, _ := Lookup(name)
	for _, v := range spec.KeyVars {
		if strings.TrimSpace(getenv(v)) != "" {
			return true
		}
	}
	return false
}

// New builds the named provider. A missing key or base URL is a
// *providers.SetupError naming the variable to set. openai speaks the
// Responses API, at its default URL or any base URL (a proxy of OpenAI's
// API), unless Settings.API is APIChat; azure, xai and openai-compatible
// speak Chat Completions.
func New(name string, s Settings) (providers.Provider, error) {
	spec, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown provider %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	if err := ParseAPI(s.API); err != nil {
		return nil, err
	}
	if s.API != "" && !slices.Contains(spec.APIs, s.API) {
		return nil, fmt.Errorf("provider %s has no choice of API; the %s API is for openai", name, s.API)
	}
	if len(spec.KeyVars) > 0 && !spec.KeyOptional && s.APIKey == "" {
		return nil, &providers.SetupError{Provider: name, Vars: spec.KeyVars}
	}
	base := s.BaseURL
	if base == "" {
		base = spec.DefaultBaseURL
	}
	if base == "" && spec.BaseURLVar != "" {
		return nil, &providers.SetupError{Provider: name, Vars: []string{spec.BaseURLVar},
			Message: fmt.Sprintf("%s is not set (the server's base URL%s)", spec.BaseURLVar, urlHint(name))}
	}
	switch name {
	case "openai", "xai", "azure", "openai-compatible":
		cfg := openai.Config{
			Name: name, BaseURL: base, APIKey: s.APIKey, APIVersion: s.APIVersion,
			HTTPClient: s.HTTPClient, Timeouts: s.Timeouts,
		}
		if name == "openai" && s.API != APIChat {
			return openai.NewResponses(cfg), nil
		}
		return openai.New(cfg), nil
	case "scripted":
		return scripted.New(), nil
	}
	return newNative(name, base, s)
}

func urlHint(name string) string {
	switch name {
	case "azure":
		return ", e.g. https://my-resource.openai.azure.com"
	case "openai-compatible":
		return ", including /v1, e.g. http://localhost:8000/v1"
	}
	return ""
}
