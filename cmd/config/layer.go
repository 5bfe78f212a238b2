package config

import (
	"encoding/json"
	"fmt"
	"time"
)

// Layer is one set of option values: a config file, the environment, a
// session's record or the command line. Every option is declared once,
// here, and its tags say everything else about it:
//
//   - json: the config file key, also the key a session records it under;
//     "-" for an option only the command line sets.
//   - flag, short, noopt: the command-line flag, its one-letter form, and
//     the value of the flag given without one.
//   - env: the environment variable that sets it.
//   - help: the flag's help line.
//   - scope: "session" for an option a session records so that resuming
//     it behaves as the run it continues; "noconfig" for one a config
//     file may not set; "path" for paths a flag makes absolute; "trust"
//     for one that loosens policy, which a project's config file sets
//     only once the user trusts the project; "noproject" for where keys
//     are sent, which a project's config file never sets.
//
// Pointer fields tell "unset" from a zero value, so a higher layer
// overrides only what it sets; lists add up across layers.
type Layer struct {
	Provider *string `json:"provider,omitempty" flag:"provider" env:"LLMRT_PROVIDER" help:"provider: openai, anthropic, google, azure, xai, openai-compatible, ollama, scripted (env LLMRT_PROVIDER)"`
	Model    *string `json:"model,omitempty" flag:"model" env:"LLMRT_MODEL" help:"model name; the deployment for azure, the script path for scripted (env LLMRT_MODEL)"`
	BaseURL  *string `json:"base_url,omitempty" flag:"base-url" env:"LLMRT_BASE_URL" scope:"noproject" help:"base URL of the provider's API (env LLMRT_BASE_URL)"`
	// API is the wire API of the openai provider: responses (default) or
	// chat, for a server at its base URL that speaks only Chat
	// Completions. Like the base URL it belongs to the provider a run
	// starts with.
	API *string `json:"api,omitempty" flag:"api" env:"LLMRT_API" scope:"session" help:"API of --provider openai: responses (default) or chat, for a server that speaks only Chat Completions (env LLMRT_API)"`

	System     *string `json:"system,omitempty" flag:"system" help:"system prompt"`
	SystemFile *string `json:"system_file,omitempty" flag:"system-file" help:"read the system prompt from a file"`

	Tools      *string  `json:"tools,omitempty" flag:"tools" scope:"session" help:"built-in tools: all, none, read-only, or a comma list"`
	Permission *string  `json:"permission,omitempty" flag:"permission" scope:"session,trust" help:"permission mode: auto, ask (default), read or plan"`
	PlanModel  *string  `json:"plan_model,omitempty" flag:"plan-model" scope:"session" help:"the model that plans in plan mode: provider/model, or a model of the provider in use"`
	Allow      []string `json:"allow,omitempty" flag:"allow" scope:"session,trust" help:"allow calls matching a rule, e.g. 'write_file(path=out/**)'; repeatable"`
	Deny       []string `json:"deny,omitempty" flag:"deny" scope:"session" help:"deny calls matching a rule, e.g. 'shell_cmd(command=rm *)'; repeatable"`

	MaxIterations   *int      `json:"max_iterations,omitempty" flag:"max-iterations" scope:"session" help:"most model calls in one run (default 24)"`
	MaxTokens       *int      `json:"max_tokens,omitempty" flag:"max-tokens" scope:"session" help:"most output tokens per model call"`
	Temperature     *float64  `json:"temperature,omitempty" flag:"temperature" scope:"session" help:"sampling temperature"`
	ReasoningEffort *string   `json:"reasoning_effort,omitempty" flag:"reasoning-effort" scope:"session" help:"reasoning effort: none, low, medium or high"`
	WebSearch       *string   `json:"web_search,omitempty" flag:"web-search" noopt:"medium" scope:"session" help:"use the provider's web search: low, medium or high context"`
	Finish          *string   `json:"finish,omitempty" flag:"finish" scope:"session" help:"when a text reply may end a run: evidence (default) or text"`
	Budget          *int      `json:"budget,omitempty" flag:"budget" scope:"session" help:"token budget for the run (input + output)"`
	Timeout         *Duration `json:"timeout,omitempty" flag:"timeout" help:"time limit for the whole run, e.g. 5m"`
	// StreamIdleTimeout is the longest silence inside a streamed reply
	// before the attempt is given up and retried (default 60s).
	StreamIdleTimeout *Duration `json:"stream_idle_timeout,omitempty" flag:"stream-idle-timeout" help:"give up on a streamed reply after this long without data, and retry (default 60s)"`
	MaxResultBytes    *int      `json:"max_result_bytes,omitempty" flag:"max-result-bytes" scope:"session" help:"most bytes of each tool result the model sees (default 32768)"`
	// ContextWindow is the model's context window in tokens, for models
	// the built-in table does not know or gets wrong.
	ContextWindow *int `json:"context_window,omitempty"`

	AllowPrivateWeb *bool `json:"web_fetch_allow_private,omitempty" scope:"trust"`
	// Sandbox is off, read-only or workspace-write; SandboxWritable adds
	// writable paths (relative ones to the working directory);
	// SandboxedCommands "auto" lets ask mode run confined commands without
	// asking.
	Sandbox           *string  `json:"sandbox,omitempty" flag:"sandbox" scope:"session,trust" help:"confine commands: off, read-only or workspace-write (default where the OS supports it)"`
	SandboxNetwork    *bool    `json:"sandbox_network,omitempty" flag:"sandbox-network" scope:"session,trust" help:"let sandboxed commands reach the network"`
	SandboxWritable   []string `json:"sandbox_writable,omitempty" scope:"trust"`
	SandboxedCommands *string  `json:"sandboxed_commands,omitempty" scope:"trust"`
	// ShellEnv shapes the environment of the commands the model runs; a
	// layer that sets it replaces the lower layers' setting whole.
	ShellEnv *ShellEnv `json:"shell_env,omitempty" scope:"trust"`

	// SkillsDirs are extra skill roots (relative ones in a config file to
	// the working directory), searched before the standard ones.
	SkillsDirs []string `json:"skills_dirs,omitempty" flag:"skills-dir" scope:"session,path" help:"also load skills from this directory (wins over the standard skill roots); repeatable"`
	// MCPConfigs are extra MCP config files; only the command line names
	// them, and a session keeps them so its tools come back.
	MCPConfigs []string `json:"mcp_config,omitempty" flag:"mcp-config" scope:"session,noconfig,path" help:"also load MCP servers from this file (mcpServers or servers shape; wins over the others); repeatable"`
	// MCPConfigSums are the fingerprints (config.Sum) a session recorded
	// of its MCPConfigs inside the workspace, where the commands it ran
	// could rewrite them: a resumed session loads such a file only as it
	// was.
	MCPConfigSums map[string]string `json:"mcp_config_sums,omitempty" scope:"session,noconfig"`

	Providers map[string]Backend `json:"providers,omitempty" scope:"noproject"`

	// StatusLine is the person's own line in the chat, above llmrt's: a
	// shell command given the session as JSON on stdin, as Claude Code
	// gives its statusLine command, whose first line of output is shown.
	// It runs a command, so a project sets it only once trusted.
	StatusLine *StatusLine `json:"status_line,omitempty" scope:"trust"`
	// Checkpoints bounds the snapshots llmrt rewind restores from. A
	// project's config never sets it: it would decide how long the
	// person's other sessions can be undone.
	Checkpoints *Checkpoints `json:"checkpoints,omitempty" scope:"noproject"`
	// Notifications says how the chat tells the person that a long turn
	// ended or a prompt waits: auto (default), bell or off.
	Notifications *string `json:"notifications,omitempty" env:"LLMRT_NOTIFICATIONS"`

	// Options of the command line only.
	Cwd                   *string `json:"-" flag:"cwd" help:"working directory, the root the file tools are confined to"`
	Trace                 *string `json:"-" flag:"trace" help:"write a JSONL trace of the run to a file"`
	Strict                *bool   `json:"-" flag:"strict" help:"treat diagnostics (unknown config keys, ignored web search, ...) as errors"`
	NoColor               *bool   `json:"-" flag:"no-color" help:"disable colour and Markdown styling"`
	Quiet                 *bool   `json:"-" flag:"quiet" short:"q" help:"print nothing but the answer and errors"`
	Verbose               *bool   `json:"-" flag:"verbose" help:"show progress on stderr even when it is not a terminal"`
	NoProjectInstructions *bool   `json:"-" flag:"no-project-instructions" help:"do not put AGENTS.md/CLAUDE.md files in the system prompt"`
	Trust                 *bool   `json:"-" flag:"trust" help:"trust this folder's project files (MCP servers, .env, settings) for this run, without asking"`
}

// Checkpoints is the checkpoints config key.
type Checkpoints struct {
	// Enabled false takes no checkpoints (rewind then restores only the
	// conversation).
	Enabled *bool `json:"enabled,omitempty"`
	// MaxAgeDays removes a session's checkpoints that many days after
	// its last one (default 30).
	MaxAgeDays *int `json:"max_age_days,omitempty"`
	// MaxSizeMB bounds all sessions' checkpoints together, in MiB
	// (default 2048): the least recently used go first.
	MaxSizeMB *int `json:"max_size_mb,omitempty"`
}

// ShellEnv is the shell_env config key: which variables the commands a
// model composes inherit. By default they inherit everything except
// variables whose names look like secrets.
type ShellEnv struct {
	// Inherit is all (default), core or none.
	Inherit string `json:"inherit"`
	// IgnoreDefaultExcludes keeps variables that look like secrets.
	IgnoreDefaultExcludes bool `json:"ignore_default_excludes"`
	// Pass names variables kept although they look like secrets.
	Pass []string `json:"pass"`
	// Exclude and IncludeOnly are name globs, matched ignoring case.
	Exclude     []string          `json:"exclude"`
	IncludeOnly []string          `json:"include_only"`
	Set         map[string]string `json:"set"`
}

// StatusLine is the status_line config key: the command, written as a
// string or as Claude Code's statusLine object, {"type": "command",
// "command": "~/.claude/statusline.sh", "padding": 0}, so a setting
// copied from Claude Code works unchanged.
type StatusLine struct {
	Command string `json:"command"`
	// Padding is spaces before the text.
	Padding int `json:"padding,omitempty"`
}

// UnmarshalJSON reads the command string or the object.
func (s *StatusLine) UnmarshalJSON(b []byte) error {
	var cmd string
	if err := json.Unmarshal(b, &cmd); err == nil {
		*s = StatusLine{Command: cmd}
		return nil
	}
	var obj struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Padding int    `json:"padding"`
	}
	if err := json.Unmarshal(b, &obj); err != nil {
		return fmt.Errorf(`want a command or {"type": "command", "command": "..."}, got %s`, b)
	}
	if obj.Type != "" && obj.Type != "command" {
		return fmt.Errorf(`type %q is not supported; want "command"`, obj.Type)
	}
	if obj.Command == "" {
		return fmt.Errorf(`want a command in "command"`)
	}
	*s = StatusLine{Command: obj.Command, Padding: max(obj.Padding, 0)}
	return nil
}

// Backend holds per-provider settings from a config file.
type Backend struct {
	BaseURL    string `json:"base_url"`
	APIVersion string `json:"api_version"`
}

// Duration is a time span written as Go writes one: "90s", "5m", "1h30m".
type Duration time.Duration

// UnmarshalJSON reads a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf(`want a duration such as "5m", got %s`, b)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf(`%q is not a duration (write e.g. "5m")`, s)
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// Std returns the value as a time.Duration; a nil d is zero.
func (d *Duration) Std() time.Duration {
	if d == nil {
		return 0
	}
	return time.Duration(*d)
}
