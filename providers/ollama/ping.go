package ollama

import (
	"context"
	"fmt"
	"net/http"

	"github.com/llmrt/llmrt/internal/origin"
)

// Ping asks the server for its version, to learn whether one answers at
// the provider's base URL (automatic provider selection probes a local
// server this way). ctx bounds the wait.
func (p *Provider) Ping(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.base+"/api/version", nil)
	if err != nil {
		return fmt.Errorf("ollama: ping: %w", err)
	}
	p.setHeaders(req.Header)
	hc := origin.Only(p.cfg.HTTPClient)
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("ollama: ping %s: %w", p.base, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("ollama: ping %s: HTTP %d", p.base, resp.StatusCode)
	}
	return nil
}
