package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// Provider names this adapter serves.
const (
	NameOpenAI     = "openai"
	NameAzure      = "azure"
	NameXAI        = "xai"
	NameCompatible = "openai-compatible"
)

// Default base URLs and API versions.
const (
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
	DefaultXAIBaseURL    = "https://api.x.ai/v1"
	// DefaultAzureAPIVersion is the api-version sent to classic Azure
	// OpenAI deployment URLs when Config.APIVersion is empty.
	DefaultAzureAPIVersion = "2024-10-21"
	// DefaultFoundryAPIVersion is the api-version sent to Azure AI Foundry
	// /models endpoints when Config.APIVersion is empty.
	DefaultFoundryAPIVersion = "2024-05-01-preview"
)

// Config configures one provider. Only Name and, for azure and
// openai-compatible, BaseURL are required.
type Config struct {
	// Name is "openai", "azure", "xai" or "openai-compatible"; it selects
	// the dialect and names the provider in errors.
	Name string
	// BaseURL includes the version path for the OpenAI family
	// (https://api.openai.com/v1). For azure it is the resource endpoint
	// (https://x.openai.azure.com), an /openai/v1 endpoint, or an Azure AI
	// Foundry /models endpoint. Empty takes the default for openai and xai.
	BaseURL string
	// APIKey may be empty for openai-compatible: no Authorization header is
	// sent then.
	APIKey string
	// APIVersion is the Azure api-version query parameter.
	APIVersion string
	// HTTPClient nil means http.DefaultClient.
	HTTPClient *http.Client
	// Timeouts bound the wait for response headers and silences in the
	// stream; zero values take providers' defaults.
	Timeouts providers.Timeouts
	// Headers are extra request headers; they override the defaults.
	Headers map[string]string
}

// Provider is a Chat Completions client. It holds no per-call state and is
// safe for concurrent use.
type Provider struct {
	cfg Config
}

var (
	_ providers.Provider       = (*Provider)(nil)
	_ providers.RetryDefaulter = (*Provider)(nil)
)

// New returns a provider for cfg. An empty Name means "openai".
func New(cfg Config) *Provider {
	return &Provider{cfg: cfg.withDefaults()}
}

// withDefaults fills in the name ("openai") and the default base URL of
// openai and xai, and trims a trailing slash from the base URL.
func (c Config) withDefaults() Config {
	if c.Name == "" {
		c.Name = NameOpenAI
	}
	if c.BaseURL == "" {
		switch c.Name {
		case NameOpenAI:
			c.BaseURL = DefaultOpenAIBaseURL
		case NameXAI:
			c.BaseURL = DefaultXAIBaseURL
		}
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	return c
}

// Name returns the provider name given in Config.
func (p *Provider) Name() string { return p.cfg.Name }

// Stream makes one streamed Chat Completions call and emits its reply as
// chunks, ending with a ChunkStop. See providers.Provider.
func (p *Provider) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	if p.cfg.BaseURL == "" {
		return p.cfg.missingBaseURL()
	}
	endpoint := p.endpoint(req.Model)
	codec := adapter.ToolNameCodec(req, adapter.FunctionNames)
	body, warnings, err := p.buildRequest(req, codec, endpoint)
	if err != nil {
		return err
	}
	data, err := json.Marshal(body)
	if err != nil {
		return &providers.Error{Provider: p.cfg.Name, URL: adapter.StripQuery(endpoint),
			Message: "encode request: " + err.Error(), Err: err}
	}
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(data))
	if err != nil {
		return &providers.Error{Provider: p.cfg.Name, URL: adapter.StripQuery(endpoint),
			Message: "bad base URL: " + err.Error(), Err: err}
	}
	p.cfg.setHeaders(httpReq.Header)

	resp, err := adapter.Send(ctx, p.cfg.HTTPClient, p.cfg.Name, httpReq, p.cfg.Timeouts)
	if err != nil {
		return err
	}
	// Closing the body also releases Send's idle timer.
	defer resp.Body.Close()
	for _, w := range warnings {
		emit(providers.Chunk{Type: providers.ChunkWarning, Warning: w})
	}
	// Deltas that arrive in one read reach the caller as one chunk.
	c := adapter.NewCoalescer(emit)
	defer c.Flush()
	s := &streamer{site: site{p.cfg.Name, endpoint}, codec: codec, out: c, raw: req.Raw}
	br := bufio.NewReaderSize(c.Before(resp.Body), 64<<10)
	if isJSONBody(resp.Header.Get("Content-Type"), br) {
		return s.readJSON(ctx, br)
	}
	return s.readSSE(ctx, br)
}

// endpoint returns the chat completions URL for model. Azure has three
// shapes: classic deployments (model is the deployment name, api-version
// required), the /openai/v1 API and Azure AI Foundry /models (model in the
// body).
func (p *Provider) endpoint(model string) string {
	base := p.cfg.BaseURL
	if p.cfg.Name != NameAzure {
		return base + "/chat/completions"
	}
	path := base
	if u, err := url.Parse(base); err == nil {
		path = u.Path
	}
	switch {
	case strings.HasSuffix(path, "/openai/v1"):
		return base + "/chat/completions"
	case strings.HasSuffix(path, "/models") || strings.Contains(path, "/models/"):
		return base + "/chat/completions?api-version=" + url.QueryEscape(p.apiVersion(DefaultFoundryAPIVersion))
	}
	base = strings.TrimSuffix(base, "/openai")
	return base + "/openai/deployments/" + url.PathEscape(model) +
		"/chat/completions?api-version=" + url.QueryEscape(p.apiVersion(DefaultAzureAPIVersion))
}

func (p *Provider) apiVersion(def string) string {
	if p.cfg.APIVersion != "" {
		return p.cfg.APIVersion
	}
	return def
}

func (c *Config) setHeaders(h http.Header) {
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	h.Set("User-Agent", "llmrt")
	if c.APIKey != "" {
		if c.Name == NameAzure {
			h.Set("Api-Key", c.APIKey)
		} else {
			h.Set("Authorization", "Bearer "+c.APIKey)
		}
	}
	for k, v := range c.Headers {
		h.Set(k, v)
	}
}

func (c *Config) missingBaseURL() error {
	switch c.Name {
	case NameAzure:
		return &providers.SetupError{Provider: c.Name, Vars: []string{"AZURE_OPENAI_ENDPOINT"}}
	case NameCompatible:
		return &providers.SetupError{Provider: c.Name, Vars: []string{"OPENAI_COMPATIBLE_BASE_URL", "LLMRT_BASE_URL"}}
	}
	return &providers.SetupError{Provider: c.Name, Message: "no base URL configured"}
}

// isJSONBody reports whether the response is a whole JSON document rather
// than an event stream: a server that ignores stream:true answers with
// application/json, and some send JSON under another content type.
func isJSONBody(contentType string, br *bufio.Reader) bool {
	if strings.Contains(contentType, "event-stream") {
		return false
	}
	if strings.Contains(contentType, "json") {
		return true
	}
	// Sniff: an event stream never starts with '{' or '['. Leading blank
	// lines mean nothing to either format, so they are skipped.
	for {
		b, err := br.ReadByte()
		if err != nil {
			return false
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		_ = br.UnreadByte()
		return b == '{' || b == '['
	}
}

// DefaultRetry declares the zero policy: calls are retried with
// providers.RetryPolicy's defaults unless the run or the runtime sets a
// policy (providers.ResolveRetry).
func (p *Provider) DefaultRetry() providers.RetryPolicy { return providers.RetryPolicy{} }
