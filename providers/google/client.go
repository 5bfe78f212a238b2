package google

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"google.golang.org/genai"

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

// Provider is a Gemini API client built on google.golang.org/genai. It
// holds no per-call state and is safe for concurrent use.
type Provider struct {
	cfg    Config
	client *genai.Client
	err    error // from building the client
}

var _ providers.Provider = (*Provider)(nil)

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
	p := &Provider{cfg: cfg}
	if cfg.APIKey == "" {
		// genai would fall back to the environment; a provider must not.
		return p
	}
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		c := *cfg.HTTPClient
		hc = &c
	}
	hc.Transport = recorder{base: adapter.TimeoutTransport(hc.Transport, cfg.Timeouts)}
	// Building the client does no I/O with an API key and an HTTP client.
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:     cfg.APIKey,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: hc,
		HTTPOptions: genai.HTTPOptions{
			BaseURL:    cfg.BaseURL + "/",
			APIVersion: cfg.APIVersion,
			// One attempt: providers.RetryPolicy owns retries.
			RetryOptions: &genai.HTTPRetryOptions{Attempts: genai.Ptr[int32](1)},
		},
	})
	if err != nil {
		// genai's errors print the whole client config, key included.
		return &Provider{cfg: cfg, err: errors.New(strings.ReplaceAll(err.Error(), cfg.APIKey, "[redacted]"))}
	}
	p.client = client
	return p
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
	switch {
	case p.err != nil:
		return fail("cannot create the Gemini client: "+p.err.Error(), p.err)
	case req.Model == "":
		return fail("no model given", nil)
	}
	names := adapter.ToolNameCodec(req, nameRule)
	contents, err := p.buildContents(req, names)
	if err != nil {
		return fail(err.Error(), err)
	}
	cfg, warnings := p.buildConfig(req, names)

	ex := &exchange{}
	s := &streamer{names: names, emit: emit}
	for resp, err := range p.client.Models.GenerateContentStream(withExchange(ctx, ex), req.Model, contents, cfg) {
		if err != nil {
			if s.complete(ctx, ex) {
				break
			}
			return p.callError(ctx, ex, endpoint, err)
		}
		if s.responses == 0 {
			for _, w := range warnings {
				emit(providers.Chunk{Type: providers.ChunkWarning, Warning: w})
			}
		}
		s.handle(resp)
	}
	if ex.url != "" {
		endpoint = ex.url
	}
	if !s.complete(ctx, ex) {
		if err := bodyError(ctx, ex, endpoint); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return s.finishReply(Name, endpoint)
}

// endpoint is the URL called for model, for messages about calls that never
// reached the transport.
func (p *Provider) endpoint(model string) string {
	return p.cfg.BaseURL + "/" + p.cfg.APIVersion + "/models/" +
		strings.TrimPrefix(model, "models/") + ":streamGenerateContent"
}
