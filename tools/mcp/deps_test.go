package mcp

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBinaryLinksNoMCPServer: llmrt's binary links mcp-go's protocol types
// only. Its client and transport packages bring mcp-go's server, and with
// it a JSON Schema library that compiles every draft's meta-schema at
// init, on every start of llmrt.
func TestBinaryLinksNoMCPServer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/llmrt/llmrt").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps listed only %d packages:\n%s", len(deps), out)
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/santhosh-tekuri/") ||
			strings.HasPrefix(d, "github.com/mark3labs/mcp-go/") && d != "github.com/mark3labs/mcp-go/mcp" {
			t.Errorf("llmrt links %s; of mcp-go only the mcp package (protocol types) belongs in the binary", d)
		}
	}
}
