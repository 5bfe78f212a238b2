// Command conformanceclient is llmrt's MCP client as the MCP conformance
// suite (@modelcontextprotocol/conformance) drives it, for tests only: it
// connects to the streamable HTTP URL it is given through tools/mcp,
// lists the server's tools and calls each with arguments made from its
// schema, then closes. Elicitation requests are answered as a person
// pressing Enter everywhere would: the first choice of each question,
// which is the server's default where it gave one.
//
// Authorization is llmrt's own (tools/mcp/oauth) with the person played
// by a browser that follows every redirect: the suite's authorization
// servers approve at once. The suite's MCP_CONFORMANCE_CONTEXT (client
// credentials, a private key) becomes the server's "oauth" config, as a
// user would write it.
//
// Usage: conformanceclient URL (the suite appends the URL and names the
// scenario in MCP_CONFORMANCE_SCENARIO). It exits 1 when the server could
// not be started or a call failed outright.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/mcp"
	"github.com/llmrt/llmrt/tools/mcp/oauth"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: conformanceclient URL")
		os.Exit(2)
	}
	os.Exit(run(os.Args[1]))
}

func run(url string) int {
	dir, _ := os.Getwd()
	cfg, err := oauthConfig(os.Getenv("MCP_CONFORMANCE_SCENARIO"), os.Getenv("MCP_CONFORMANCE_CONTEXT"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "context:", err)
		return 2
	}
	src := mcp.New([]mcp.Server{{Name: "conformance", URL: url, Timeout: 20, OAuth: cfg}}, dir)
	src.SetAsk(acceptFirst)
	src.SetAuth(mcp.Auth{Open: follow})
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	defer src.Close()
	if err := src.Start(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "start:", err)
		return 1
	}
	for _, d := range src.Diagnostics() {
		fmt.Fprintf(os.Stderr, "%s: %s\n", d.Source, d.Message)
		return 1
	}
	list, err := src.Tools(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tools:", err)
		return 1
	}
	code := 0
	for _, t := range list {
		res, err := t.Execute(ctx, arguments(t.Schema))
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", t.Name, err)
			code = 1
			continue
		}
		fmt.Printf("%s (error %v): %s\n", t.Name, res.IsError, res.Content)
	}
	return code
}

// acceptFirst picks every question's first choice.
func acceptFirst(_ context.Context, in tools.AskInput) (tools.Answer, error) {
	a := tools.Answer{Selected: map[string][]string{}}
	for _, q := range in.Questions {
		if len(q.Options) > 0 {
			a.Selected[q.ID] = []string{q.Options[0].ID}
		}
	}
	return a, nil
}

// arguments makes a value for every property of an object schema:
// numbers count up from 2 (so add(a, b) is add(2, 3)), strings say
// "test", booleans are true.
func arguments(schema json.RawMessage) json.RawMessage {
	var s struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	args := map[string]any{}
	n := 2
	for _, name := range names {
		switch s.Properties[name].Type {
		case "number", "integer":
			args[name] = n
			n++
		case "boolean":
			args[name] = true
		case "array":
			args[name] = []any{}
		case "object":
			args[name] = map[string]any{}
		default:
			args[name] = "test"
		}
	}
	b, _ := json.Marshal(args)
	return b
}

// clientMetadataURL is the client metadata document URL the suite's
// authorization servers expect (they do not fetch it).
const clientMetadataURL = "https://conformance-test.local/client-metadata.json"

// oauthConfig turns the suite's context into the server's oauth block:
// a pre-registered client, client credentials (with a secret or a
// private key) for the scenarios named so, or enterprise-managed
// authorization when it names an identity provider.
func oauthConfig(scenario, raw string) (*oauth.Config, error) {
	cfg := &oauth.Config{ClientMetadataURL: clientMetadataURL}
	if raw == "" {
		return cfg, nil
	}
	var c struct {
		ClientID      string `json:"client_id"`
		ClientSecret  string `json:"client_secret"`
		PrivateKeyPEM string `json:"private_key_pem"`
		SigningAlg    string `json:"signing_algorithm"`
		IDPClientID   string `json:"idp_client_id"`
		IDPIDToken    string `json:"idp_id_token"`
		IDPTokenURL   string `json:"idp_token_endpoint"`
	}
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		return nil, err
	}
	cfg.ClientID, cfg.ClientSecret = c.ClientID, c.ClientSecret
	cfg.PrivateKey, cfg.SigningAlg = c.PrivateKeyPEM, c.SigningAlg
	switch {
	case strings.HasPrefix(scenario, "auth/client-credentials"):
		cfg.GrantType = oauth.GrantClientCredentials
	case c.IDPIDToken != "":
		cfg.GrantType = oauth.GrantCrossAppAccess
		cfg.IDPClientID, cfg.IDToken, cfg.IDPTokenEndpoint = c.IDPClientID, c.IDPIDToken, c.IDPTokenURL
	}
	return cfg, nil
}

// follow plays a person who approves at once: it loads the authorization
// page and follows its redirects back to llmrt's loopback listener.
func follow(ctx context.Context, authURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("authorization page: HTTP %d", resp.StatusCode)
	}
	return nil
}
