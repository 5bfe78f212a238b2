package adapter

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sort"

	"github.com/llmrt/llmrt/providers"
)

// maxModelList bounds the body of a model list.
const maxModelList = 8 << 20

// ListModels GETs a server's model list at endpoint with the headers set
// by header, and returns the names names takes from the decoded body,
// sorted. Failures are *providers.Error values naming provider and the
// URL, as a model call's are.
func ListModels[T any](ctx context.Context, hc *http.Client, provider, endpoint string, t Timeouts, header func(http.Header), names func(*T) []string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return nil, &providers.Error{Provider: provider, URL: StripQuery(endpoint), Message: "bad base URL: " + err.Error(), Err: err}
	}
	header(req.Header)
	req.Header.Set("Accept", "application/json")
	resp, err := Send(ctx, hc, provider, req, t)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxModelList))
	if err != nil {
		return nil, ReadError(ctx, provider, endpoint, err)
	}
	var body T
	if err := json.Unmarshal(data, &body); err != nil {
		return nil, &providers.Error{Provider: provider, URL: StripQuery(endpoint), Err: err,
			Message: "invalid model list from " + StripQuery(endpoint) + ": " + err.Error()}
	}
	out := names(&body)
	sort.Strings(out)
	return out, nil
}
