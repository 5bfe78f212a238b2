package cmd

import (
	"time"

	"github.com/spf13/pflag"
)

// sharedFlags are the flags run and chat share.
type sharedFlags struct {
	provider, model, baseURL string
	system, systemFile       string
	attach                   []string
	tools                    string
	permission               string
	allow, deny              []string
	maxIterations, maxTokens int
	temperature              float64
	reasoningEffort          string
	webSearch                string
	finish                   string
	cwd                      string
	timeout                  time.Duration
	budget                   int
	trace                    string
	strict                   bool
	noColor, quiet, verbose  bool
	skillsDirs               []string
	mcpConfigs               []string
	noProjectInstructions    bool
	sandbox                  string
	sandboxNetwork           bool
}

func (s *sharedFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&s.provider, "provider", "", "provider: openai, anthropic, google, azure, xai, openai-compatible, ollama, scripted (env LLMRT_PROVIDER)")
	fs.StringVar(&s.model, "model", "", "model name; the deployment for azure, the script path for scripted (env LLMRT_MODEL)")
	fs.StringVar(&s.baseURL, "base-url", "", "base URL of the provider's API (env LLMRT_BASE_URL)")
	fs.StringVar(&s.system, "system", "", "system prompt")
	fs.StringVar(&s.systemFile, "system-file", "", "read the system prompt from a file")
	fs.StringArrayVar(&s.attach, "attach", nil, "attach a file (PNG, JPEG, GIF, WebP, PDF or text); repeatable")
	fs.StringVar(&s.tools, "tools", "", "built-in tools: all, none, read-only, or a comma list")
	fs.StringVar(&s.permission, "permission", "", "permission mode: auto, ask (default) or read")
	fs.StringArrayVar(&s.allow, "allow", nil, "allow calls matching a rule, e.g. 'write_file(path=out/**)'; repeatable")
	fs.StringArrayVar(&s.deny, "deny", nil, "deny calls matching a rule, e.g. 'shell_cmd(command=rm *)'; repeatable")
	fs.IntVar(&s.maxIterations, "max-iterations", 0, "most model calls in one run (default 24)")
	fs.IntVar(&s.maxTokens, "max-tokens", 0, "most output tokens per model call")
	fs.Float64Var(&s.temperature, "temperature", 0, "sampling temperature")
	fs.StringVar(&s.reasoningEffort, "reasoning-effort", "", "reasoning effort: none, low, medium or high")
	fs.StringVar(&s.webSearch, "web-search", "", "use the provider's web search: low, medium or high context")
	fs.Lookup("web-search").NoOptDefVal = "medium"
	fs.StringVar(&s.finish, "finish", "", "when a text reply may end a run: evidence (default) or text")
	fs.StringVar(&s.cwd, "cwd", "", "working directory, the root the file tools are confined to")
	fs.DurationVar(&s.timeout, "timeout", 0, "time limit for the whole run, e.g. 5m")
	fs.IntVar(&s.budget, "budget", 0, "token budget for the run (input + output)")
	fs.StringVar(&s.trace, "trace", "", "write a JSONL trace of the run to a file")
	fs.BoolVar(&s.strict, "strict", false, "treat diagnostics (unknown config keys, ignored web search, ...) as errors")
	fs.BoolVar(&s.noColor, "no-color", false, "disable colour and Markdown styling")
	fs.BoolVarP(&s.quiet, "quiet", "q", false, "print nothing but the answer and errors")
	fs.BoolVar(&s.verbose, "verbose", false, "show progress on stderr even when it is not a terminal")
	fs.StringArrayVar(&s.skillsDirs, "skills-dir", nil, "also load skills from this directory (wins over the standard skill roots); repeatable")
	fs.StringArrayVar(&s.mcpConfigs, "mcp-config", nil, "also load MCP servers from this file (mcpServers or servers shape; wins over the others); repeatable")
	fs.BoolVar(&s.noProjectInstructions, "no-project-instructions", false, "do not put AGENTS.md/CLAUDE.md files in the system prompt")
	fs.StringVar(&s.sandbox, "sandbox", "", "confine commands: off, read-only or workspace-write (default where the OS supports it)")
	fs.BoolVar(&s.sandboxNetwork, "sandbox-network", false, "let sandboxed commands reach the network")
}
