package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// Name is the provider name this adapter serves.
const Name = "ollama"

// DefaultBaseURL is where a local Ollama server listens by default.
const DefaultBaseURL = "http://localhost:11434"

// DefaultResponseTimeout is the default wait for response headers, longer
// than providers' default because it includes loading the model.
const DefaultResponseTimeout = 5 * time.Minute

// Config configures the provider. Every field is optional.
type Config struct {
	// BaseURL is the server root (http://localhost:11434), or a value in
	// OLLAMA_HOST's forms: "host:port" or ":11434" without a scheme, which
	// means http://. Empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token; only ollama.com needs one.
	APIKey string
	// HTTPClient nil means http.DefaultClient.
	HTTPClient *http.Client
	// Timeouts bound the wait for response headers and silences in the
	// stream. A zero Response takes DefaultResponseTimeout: Ollama sends
	// headers only once the model is loaded, which for a large model on a
	// cold disk takes minutes. A zero Idle takes providers' default.
	Timeouts providers.Timeouts
	// Headers are extra request headers; they override the defaults.
	Headers map[string]string
}

// Provider is an Ollama /api/chat client. It holds no per-call state and is
// safe for concurrent use.
type Provider struct {
	cfg  Config
	base string // normalized server root, no trailing slash
}

var (
	_ providers.Provider       = (*Provider)(nil)
	_ providers.RetryDefaulter = (*Provider)(nil)
)

// New returns a provider for cfg.
func New(cfg Config) *Provider {
	if cfg.Timeouts.Response <= 0 {
		cfg.Timeouts.Response = DefaultResponseTimeout
	}
	return &Provider{cfg: cfg, base: baseURL(cfg.BaseURL)}
}

// Name returns "ollama".
func (p *Provider) Name() string { return Name }

// BaseURL returns the normalized server root the provider calls.
func (p *Provider) BaseURL() string { return p.base }

// Stream makes one streamed /api/chat call and emits its reply as chunks,
// ending with a ChunkStop. See providers.Provider.
func (p *Provider) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	endpoint := p.base + "/api/chat"
	codec := adapter.ToolNameCodec(req, adapter.FunctionNames)
	body, warnings, err := buildRequest(req, codec)
	if err != nil {
		return &providers.Error{Provider: Name, URL: endpoint, Message: err.Error(), Err: err}
	}
	data, err := json.Marshal(body)
	if err != nil {
		return &providers.Error{Provider: Name, URL: endpoint, Message: "encode request: " + err.Error(), Err: err}
	}
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(data))
	if err != nil {
		return &providers.Error{Provider: Name, URL: endpoint, Message: "bad base URL: " + err.Error(), Err: err}
	}
	p.setHeaders(httpReq.Header)

	resp, err := adapter.Send(ctx, p.cfg.HTTPClient, Name, httpReq, p.cfg.Timeouts)
	if err != nil {
		return p.sendError(err, req.Model)
	}
	// Closing the body also releases Send's idle timer.
	defer resp.Body.Close()
	for _, w := range warnings {
		emit(providers.Chunk{Type: providers.ChunkWarning, Warning: w})
	}
	// Deltas that arrive in one read reach the caller as one chunk.
	c := adapter.NewCoalescer(emit)
	defer c.Flush()
	s := newStreamer(endpoint, codec, req.Tools, c)
	s.raw = req.Raw
	return s.read(ctx, c.Before(resp.Body))
}

func (p *Provider) setHeaders(h http.Header) {
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/x-ndjson")
	h.Set("User-Agent", "llmrt")
	if p.cfg.APIKey != "" {
		h.Set("Authorization", "Bearer "+p.cfg.APIKey)
	}
	for k, v := range p.cfg.Headers {
		h.Set(k, v)
	}
}

// baseURL normalizes a base URL given in any of OLLAMA_HOST's forms:
// "http://host:port", "host:port", "host", ":port", "ollama.com". Without a
// scheme the port defaults to 11434, as in Ollama's own client. The
// wildcard addresses a server binds to (0.0.0.0, ::, empty) become
// localhost, which is what a client must dial. A trailing /api or /v1 is
// dropped: the base is the server root, and the OpenAI-compatible URL of
// the same server is a common thing to paste.
func baseURL(raw string) string {
	raw = strings.Trim(strings.TrimSpace(raw), `"'`)
	if raw == "" {
		return DefaultBaseURL
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		scheme, rest = "http", raw
		if rest == "ollama.com" || strings.HasPrefix(rest, "ollama.com/") {
			scheme = "https"
		}
	}
	hostport, path, _ := strings.Cut(rest, "/")
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = strings.Trim(hostport, "[]"), ""
		if !ok && scheme == "http" {
			port = "11434"
		}
	}
	switch host {
	case "", "0.0.0.0", "::":
		host = "localhost"
	}
	u := url.URL{Scheme: scheme, Host: host, Path: "/" + path}
	if port != "" {
		u.Host = net.JoinHostPort(host, port)
	}
	out := strings.TrimRight(u.String(), "/")
	for _, suffix := range []string{"/api", "/v1"} {
		out = strings.TrimSuffix(out, suffix)
	}
	return out
}

// DefaultRetry declares the zero policy: calls are retried with
// providers.RetryPolicy's defaults unless the run or the runtime sets a
// policy (providers.ResolveRetry).
func (p *Provider) DefaultRetry() providers.RetryPolicy { return providers.RetryPolicy{} }
