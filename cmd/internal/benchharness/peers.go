package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// Peers are other agent CLIs timed on the same work against the same fake
// servers: Codex (codex exec, the Responses API) and Claude Code (claude
// -p, the Messages API). Each runs with a home of its own, so no user
// configuration or login of theirs is read.

// peer is one agent CLI the harness can drive.
type peer struct {
	name     string
	bin      string
	protocol string // the fake server's protocol it speaks
}

// command returns the command line and environment that make the peer answer
// prompt once from the server at url and exit.
func (p peer) command(home, url, prompt string) *exec.Cmd {
	var cmd *exec.Cmd
	switch p.name {
	case "codex":
		provider := fmt.Sprintf(`model_providers.fake={name="fake",base_url=%q,wire_api="responses",env_key="OPENAI_API_KEY"}`, url+"/v1")
		cmd = exec.Command(p.bin, "exec", "--skip-git-repo-check", "-c", "model_provider=fake", "-c", provider, "-m", "m", prompt)
		cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "OPENAI_API_KEY=k")
	default:
		cmd = exec.Command(p.bin, "-p", prompt, "--model", "m")
		cmd.Env = append(os.Environ(), "HOME="+home, "ANTHROPIC_BASE_URL="+url, "ANTHROPIC_API_KEY=k",
			"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	}
	return cmd
}

// runPeer times one run of the peer against url with its output to stdout.
func (h *harness) runPeer(p peer, url, prompt string, stdout io.Writer) sample {
	home := filepath.Join(h.ws, p.name+"-home")
	check(os.MkdirAll(home, 0o755))
	cmd := p.command(home, url, prompt)
	cmd.Dir = h.ws
	cmd.Stdout = stdout
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	s, err := measure(cmd)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchharness: %s: %v\n%s", p.name, err, stderr.String())
		os.Exit(1)
	}
	return s
}

// peerOneShot times the peer answering one trivial turn. The server has
// spare turns: a peer may ask more than once (a title, a check).
func (h *harness) peerOneShot(p peer) sample {
	turns := make([]scripted.Turn, 10)
	for i := range turns {
		turns[i] = scripted.Turn{Text: "ok"}
	}
	srv := fakellm.Start(p.protocol, turns...)
	defer srv.Close()
	return h.runPeer(p, srv.URL, "hi", io.Discard)
}
