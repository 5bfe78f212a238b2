package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// Responses is a client of OpenAI's Responses API (POST /responses), the
// API OpenAI's reasoning models keep their reasoning across tool calls
// through. Calls are stateless (store: false): each carries the whole
// conversation, with the encrypted reasoning items of earlier replies
// replayed from the neutral messages. It holds no per-call state and is
// safe for concurrent use.
type Responses struct {
	cfg Config
}

var (
	_ providers.Provider       = (*Responses)(nil)
	_ providers.RetryDefaulter = (*Responses)(nil)
	_ providers.ModelLister    = (*Responses)(nil)
)

// NewResponses returns a Responses API client for cfg. An empty Name means
// "openai", whose default base URL is DefaultOpenAIBaseURL; any base URL
// serving /responses with OpenAI's protocol works (a proxy of OpenAI's
// API, Azure's /openai/v1). APIVersion is not used.
func NewResponses(cfg Config) *Responses {
	return &Responses{cfg: cfg.withDefaults()}
}

// Name returns the provider name given in Config.
func (p *Responses) Name() string { return p.cfg.Name }

// Stream makes one streamed Responses call and emits its reply as chunks,
// ending with a ChunkStop. See providers.Provider.
func (p *Responses) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	if p.cfg.BaseURL == "" {
		return p.cfg.missingBaseURL()
	}
	endpoint := p.cfg.BaseURL + "/responses"
	codec := adapter.ToolNameCodec(req, adapter.FunctionNames)
	body, err := p.buildRequest(req, codec, endpoint)
	if err != nil {
		return err
	}
	var warnings []providers.Warning
	resp, err := p.send(ctx, endpoint, body)
	// A model may refuse an option its name did not reveal it lacks;
	// each such option is dropped once and the call sent again.
	for err != nil {
		w, ok := downgrade(body, err)
		if !ok {
			return err
		}
		if w.Code != "" {
			warnings = append(warnings, w)
		}
		resp, err = p.send(ctx, endpoint, body)
	}
	// Closing the body also releases Send's idle timer.
	defer resp.Body.Close()
	for _, w := range warnings {
		emit(providers.Chunk{Type: providers.ChunkWarning, Warning: w})
	}
	// Deltas that arrive in one read reach the caller as one chunk.
	c := adapter.NewCoalescer(emit)
	defer c.Flush()
	s := &rstreamer{site: site{p.cfg.Name, endpoint}, codec: codec, out: c, raw: req.Raw}
	br := bufio.NewReaderSize(c.Before(resp.Body), 64<<10)
	if isJSONBody(resp.Header.Get("Content-Type"), br) {
		return s.readJSON(ctx, br)
	}
	return s.readSSE(ctx, br)
}

// send posts body and returns the response once its headers arrived.
func (p *Responses) send(ctx context.Context, endpoint string, body *responsesRequest) (*http.Response, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, &providers.Error{Provider: p.cfg.Name, URL: endpoint, Message: "encode request: " + err.Error(), Err: err}
	}
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(data))
	if err != nil {
		return nil, &providers.Error{Provider: p.cfg.Name, URL: adapter.StripQuery(endpoint),
			Message: "bad base URL: " + err.Error(), Err: err}
	}
	p.cfg.setHeaders(httpReq.Header)
	return adapter.Send(ctx, p.cfg.HTTPClient, p.cfg.Name, httpReq, p.cfg.Timeouts)
}

// downgrade drops from body the option a 400 says the model does not
// take, and reports whether it did: the include of encrypted reasoning,
// with the reasoning items replayed (a model that does not reason), or
// reasoning summaries (an organization not verified for them, told in a
// warning since the reasoning text it asked for will not come).
func downgrade(body *responsesRequest, err error) (providers.Warning, bool) {
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.StatusCode != http.StatusBadRequest {
		return providers.Warning{}, false
	}
	msg := strings.ToLower(pe.Message)
	switch {
	case body.Include != nil && strings.Contains(msg, "encrypted content"):
		body.Include = nil
		body.Input = slices.DeleteFunc(body.Input, func(it any) bool {
			_, reasoning := it.(reasoningItem)
			return reasoning
		})
		return providers.Warning{}, true
	case body.Reasoning != nil && body.Reasoning.Summary != "" && strings.Contains(msg, "summar"):
		body.Reasoning.Summary = ""
		return providers.Warning{Code: "reasoning_summary_unavailable",
			Message: pe.Provider + ": the server refused reasoning summaries (" + pe.Message + "); the call was sent without them"}, true
	}
	return providers.Warning{}, false
}

// SupportedModels lists the models the provider serves; see
// Provider.SupportedModels.
func (p *Responses) SupportedModels(ctx context.Context) ([]string, error) {
	return p.cfg.supportedModels(ctx)
}

// DefaultRetry declares the zero policy, as Provider.DefaultRetry does.
func (p *Responses) DefaultRetry() providers.RetryPolicy { return providers.RetryPolicy{} }
