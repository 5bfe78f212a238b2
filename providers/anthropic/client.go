package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"strings"

	"github.com/llmrt/llmrt/internal/origin"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// Name is the provider name this adapter reports and stamps on the
// reasoning state it issues.
const Name = "anthropic"

// DefaultBaseURL is the API's host root; the adapter appends /v1/messages.
const DefaultBaseURL = "https://api.anthropic.com"

// Config configures one provider. Every field is optional.
type Config struct {
	// BaseURL is the host root (https://api.anthropic.com, or a proxy's
	// root); plain http:// is accepted. A trailing /v1 is tolerated.
	BaseURL string
	// APIKey is sent as X-Api-Key; empty sends no key (for gateways that
	// add their own).
	APIKey string
	// HTTPClient nil means a fresh client over http.DefaultTransport. Its
	// transport is wrapped, never modified.
	HTTPClient *http.Client
	// Timeouts bound the wait for response headers and silences in the
	// stream; zero values take providers' defaults.
	Timeouts providers.Timeouts
	// Headers are extra request headers (anthropic-beta, ...).
	Headers map[string]string
}

// Provider is a Messages API client speaking the HTTP API over net/http.
// It holds no per-call state and is safe for concurrent use.
type Provider struct {
	endpoint string // base + /v1/messages
	key      string
	headers  map[string]string
	// hc is a copy of Config.HTTPClient whose transport enforces the
	// timeouts.
	hc *http.Client
}

var (
	_ providers.Provider       = (*Provider)(nil)
	_ providers.RetryDefaulter = (*Provider)(nil)
)

// apiVersion is the anthropic-version header every call sends.
const apiVersion = "2023-06-01"

// New returns a provider for cfg.
func New(cfg Config) *Provider {
	base := strings.TrimRight(cfg.BaseURL, "/")
	if base == "" {
		base = DefaultBaseURL
	}
	// A base URL copied from an OpenAI-style setting would otherwise ask
	// for /v1/v1/messages.
	base = strings.TrimSuffix(base, "/v1")

	hc := origin.Only(cfg.HTTPClient)
	// No client-wide timeout: it would bound the whole stream, and a long
	// answer is not a hung one. The transport bounds the wait for headers
	// and each silence instead.
	hc.Transport = adapter.TimeoutTransport(hc.Transport, cfg.Timeouts)
	return &Provider{endpoint: base + "/v1/messages", key: cfg.APIKey, headers: maps.Clone(cfg.Headers), hc: hc}
}

// Name returns "anthropic".
func (p *Provider) Name() string { return Name }

// Stream makes one streamed Messages call and emits its reply as chunks,
// ending with a ChunkStop. See providers.Provider. Retries are the
// caller's (providers.RetryPolicy), which knows whether output was shown.
func (p *Provider) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	codec := adapter.ToolNameCodec(req, nameRule)
	params, warnings, err := p.buildParams(req, codec)
	if err != nil {
		return err
	}
	body, err := json.Marshal(params)
	if err != nil {
		// A tool schema that is not JSON: sending it again would fail the
		// same way.
		return p.notSent(err)
	}
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(body))
	if err != nil {
		return p.notSent(err) // a bad base URL
	}
	h := httpReq.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	h.Set("User-Agent", "llmrt")
	h.Set("Anthropic-Version", apiVersion)
	if p.key != "" {
		h.Set("X-Api-Key", p.key)
	}
	for k, v := range p.headers {
		h.Set(k, v)
	}
	resp, err := p.hc.Do(httpReq)
	if err != nil {
		return adapter.NetworkError(ctx, Name, p.endpoint, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return statusError(ctx, p.endpoint, resp)
	}
	// Closing the body also stops the idle timer of TimeoutTransport.
	defer resp.Body.Close()
	for _, w := range warnings {
		emit(providers.Chunk{Type: providers.ChunkWarning, Warning: w})
	}
	// Deltas that arrive in one read reach the caller as one chunk.
	c := adapter.NewCoalescer(emit)
	defer c.Flush()
	s := &streamer{endpoint: p.endpoint, codec: codec, out: c, raw: req.Raw, contentType: resp.Header.Get("Content-Type")}
	return s.read(ctx, c.Before(resp.Body))
}

// nameRule is what Anthropic accepts: ^[a-zA-Z0-9_-]{1,128}$.
var nameRule = adapter.NameRule{Byte: adapter.FunctionNameByte, MaxLen: 128}

// DefaultRetry declares the zero policy: calls are retried with
// providers.RetryPolicy's defaults unless the run or the runtime sets a
// policy (providers.ResolveRetry).
func (p *Provider) DefaultRetry() providers.RetryPolicy { return providers.RetryPolicy{} }
