package google

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/llmrt/llmrt/internal/origin"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// Name is the name of the provider this adapter serves.
const Name = "google"

// Defaults for Config.
const (
	DefaultBaseURL    = "https://generativelanguage.googleapis.com"
	DefaultAPIVersion = "v1beta"
)

// Config configures the provider. Only APIKey is required.
type Config struct {
	// BaseURL is the host root (https://generativelanguage.googleapis.com);
	// a path prefix for a proxy is kept. Plain http:// is accepted.
	BaseURL string
	// APIKey is sent in the x-goog-api-key header (GEMINI_API_KEY or
	// GOOGLE_API_KEY; the catalog reads the environment, this package
	// never does).
	APIKey string
	// APIVersion is the path version, default v1beta.
	APIVersion string
	// HTTPClient nil means a plain client. Its transport is wrapped with
	// the response and idle timeouts.
	HTTPClient *http.Client
	// Timeouts bound the wait for response headers and silences in the
	// stream; zero values take providers' defaults.
	Timeouts providers.Timeouts
}

// Provider is a Gemini API client speaking the REST API over net/http. It
// holds no per-call state and is safe for concurrent use.
type Provider struct {
	cfg Config
	// hc is a copy of cfg.HTTPClient whose transport enforces the
	// timeouts. The adapters' shared Send is not used: it drops the error
	// body, which holds the wait of a 429 (RetryInfo).
	hc *http.Client
}

var (
	_ providers.Provider       = (*Provider)(nil)
	_ providers.RetryDefaulter = (*Provider)(nil)
)

// New returns a provider for cfg. Problems with cfg (a missing key) are
// reported by Stream, so a host can list providers it cannot call.
func New(cfg Config) *Provider {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.APIVersion == "" {
		cfg.APIVersion = DefaultAPIVersion
	}
	hc := origin.Only(cfg.HTTPClient)
	hc.Transport = adapter.TimeoutTransport(hc.Transport, cfg.Timeouts)
	return &Provider{cfg: cfg, hc: hc}
}

// Name returns "google".
func (p *Provider) Name() string { return Name }

// Stream makes one streamGenerateContent call (SSE) and emits its reply as
// chunks, ending with a ChunkStop. See providers.Provider.
func (p *Provider) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	if p.cfg.APIKey == "" {
		return &providers.SetupError{Provider: Name, Vars: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}}
	}
	endpoint := p.endpoint(req.Model)
	fail := func(msg string, err error) error {
		return &providers.Error{Provider: Name, URL: endpoint, Message: msg, Err: err}
	}
	if req.Model == "" {
		return fail("no model given", nil)
	}
	names := adapter.ToolNameCodec(req, nameRule)
	body, warnings, err := buildRequest(req, names)
	if err != nil {
		return fail(err.Error(), err)
	}
	data, err := json.Marshal(body)
	if err != nil {
		// A tool schema that is not JSON; sending it again would fail the
		// same way.
		return fail("the request could not be built: "+err.Error(), err)
	}
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint+"?alt=sse", bytes.NewReader(data))
	if err != nil {
		return fail("bad base URL: "+err.Error(), err)
	}
	h := httpReq.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	h.Set("User-Agent", "llmrt")
	h.Set("X-Goog-Api-Key", p.cfg.APIKey)

	resp, err := p.hc.Do(httpReq)
	if err != nil {
		return adapter.NetworkError(ctx, Name, endpoint, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return statusError(ctx, endpoint, resp)
	}
	// Closing the body also stops the transport's idle timer.
	defer resp.Body.Close()
	// Deltas that arrive in one read reach the caller as one chunk.
	c := adapter.NewCoalescer(emit)
	defer c.Flush()
	s := &streamer{endpoint: endpoint, names: names, out: c, warnings: warnings, raw: req.Raw}
	return s.read(ctx, c.Before(resp.Body), resp.Header.Get("Content-Type"))
}

// endpoint is the streamGenerateContent URL for model, without the query.
// A bare model id gets the "models/" collection; "models/…" and
// "tunedModels/…" names are used as given.
func (p *Provider) endpoint(model string) string {
	if !strings.HasPrefix(model, "models/") && !strings.HasPrefix(model, "tunedModels/") {
		model = "models/" + model
	}
	coll, id, _ := strings.Cut(model, "/")
	return p.cfg.BaseURL + "/" + p.cfg.APIVersion + "/" + coll + "/" + url.PathEscape(id) + ":streamGenerateContent"
}

// DefaultRetry declares the zero policy: calls are retried with
// providers.RetryPolicy's defaults unless the run or the runtime sets a
// policy (providers.ResolveRetry).
func (p *Provider) DefaultRetry() providers.RetryPolicy { return providers.RetryPolicy{} }
