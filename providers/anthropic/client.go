package anthropic

import (
	"context"
	"net/http"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/ssestream"

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

// Provider is a Messages API client. It holds no per-call state and is safe
// for concurrent use.
type Provider struct {
	client   sdk.Client
	endpoint string // for errors: base + /v1/messages
}

var (
	_ providers.Provider       = (*Provider)(nil)
	_ providers.RetryDefaulter = (*Provider)(nil)
)

// New returns a provider for cfg.
func New(cfg Config) *Provider {
	base := strings.TrimRight(cfg.BaseURL, "/")
	if base == "" {
		base = DefaultBaseURL
	}
	// The SDK appends v1/messages itself; a base URL copied from an
	// OpenAI-style setting would otherwise ask for /v1/v1/messages.
	base = strings.TrimSuffix(base, "/v1")

	hc := http.Client{}
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	}
	hc.Transport = adapter.TimeoutTransport(hc.Transport, cfg.Timeouts)

	opts := []option.RequestOption{
		// The SDK would otherwise read ANTHROPIC_* variables and profile
		// files itself; configuration is the catalog's job.
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(base),
		option.WithHTTPClient(&hc),
		// providers.RetryPolicy retries, knowing whether output was
		// already shown; SDK retries would hide that and double the waits.
		option.WithMaxRetries(0),
	}
	// No option.WithRequestTimeout: it would bound the whole stream, and a
	// long answer is not a hung one. TimeoutTransport bounds the wait for
	// headers and each silence instead.
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	return &Provider{client: sdk.NewClient(opts...), endpoint: base + "/v1/messages"}
}

// Name returns "anthropic".
func (p *Provider) Name() string { return Name }

// Stream makes one streamed Messages call and emits its reply as chunks,
// ending with a ChunkStop. See providers.Provider.
func (p *Provider) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	codec := adapter.ToolNameCodec(req, nameRule)
	params, warnings, err := p.buildParams(req, codec)
	if err != nil {
		return err
	}
	// The call is made raw and its events decoded here (see eventJSON):
	// the SDK's typed stream decodes every event through reflection.
	var resp *http.Response
	err = p.client.Post(ctx, "v1/messages", params, &resp, option.WithJSONSet("stream", true))
	if err != nil {
		return p.callError(ctx, err)
	}
	// Closing the body also stops the idle timer of TimeoutTransport.
	defer resp.Body.Close()
	for _, w := range warnings {
		emit(providers.Chunk{Type: providers.ChunkWarning, Warning: w})
	}
	s := &streamer{endpoint: p.endpoint, codec: codec, emit: emit, raw: req.Raw, contentType: resp.Header.Get("Content-Type")}
	return s.read(ctx, ssestream.NewDecoder(resp))
}

// nameRule is what Anthropic accepts: ^[a-zA-Z0-9_-]{1,128}$.
var nameRule = adapter.NameRule{Byte: adapter.FunctionNameByte, MaxLen: 128}

// DefaultRetry declares the zero policy: calls are retried with
// providers.RetryPolicy's defaults unless the run or the runtime sets a
// policy (providers.ResolveRetry).
func (p *Provider) DefaultRetry() providers.RetryPolicy { return providers.RetryPolicy{} }
