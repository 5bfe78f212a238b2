package tools

import (
	"net/netip"
	"time"

	"github.com/llmrt/llmrt/tools/sandbox"
)

// Options configure the built-in tools of one run. The zero value is the
// default configuration: every field documents what zero means.
type Options struct {
	// Shell configures shell_cmd.
	Shell ShellOptions
	// WebFetch configures web_fetch.
	WebFetch WebFetchOptions
	// Search configures search_files.
	Search SearchOptions
}

// ShellOptions configure shell_cmd.
type ShellOptions struct {
	// DefaultTimeout applies when a call gives no timeout_ms; zero means
	// 120s. Calls may ask for up to 600s.
	DefaultTimeout time.Duration
	// GraceKill is how long a process group has to exit after SIGTERM
	// before it gets SIGKILL; zero means 2s.
	GraceKill time.Duration
	// MaxOutputBytes bounds the output kept (head plus tail); zero means
	// 30,000 bytes, so the JSON result stays under the engine's default
	// 32 KiB result cap and is never cut mid-JSON.
	MaxOutputBytes int
	// Sandbox confines commands (the zero value confines nothing); its
	// Workspace is the run's workspace root whatever the field says.
	Sandbox sandbox.Policy
	// Env is the environment commands start from; nil means the
	// environment of this process. EnvPolicy then filters it, and PAGER,
	// GIT_PAGER and GIT_TERMINAL_PROMPT are set to non-interactive values
	// unless the result sets them.
	Env []string
	// EnvPolicy filters Env; its zero value drops every variable whose
	// name looks like a secret.
	EnvPolicy EnvPolicy
	// Protected are files, relative to the workspace root, that a
	// confined command may not change: the host's own configuration,
	// which would otherwise let a command loosen the next run's sandbox
	// or permissions. A change is undone when the call returns, and the
	// model is told.
	Protected []string
}

// WebFetchOptions configure web_fetch.
type WebFetchOptions struct {
	// AllowPrivate lets web_fetch reach loopback, private, link-local and
	// other non-public addresses. Off by default: a model must not be able
	// to probe the host's network or a cloud metadata endpoint.
	AllowPrivate bool
	// AllowNets are non-public networks reachable even when AllowPrivate
	// is false, e.g. an intranet range the host trusts.
	AllowNets []netip.Prefix
	// MaxBytes caps the (decompressed) body read; zero means 5 MiB.
	MaxBytes int64
	// MaxRedirects bounds the redirects followed; zero means 5, negative
	// means none.
	MaxRedirects int
	// DefaultTimeout applies when a call gives no timeout_ms; zero means
	// 30s. Calls may ask for up to 120s.
	DefaultTimeout time.Duration
	// UserAgent is sent with every request; empty means "llmrt-web-fetch/1".
	UserAgent string
}

// SearchOptions configure search_files.
type SearchOptions struct {
	// Workers is the number of files scanned in parallel; zero means
	// GOMAXPROCS (at least 2, at most 16).
	Workers int
}

// Builtins returns every built-in tool, bound to ws, in a stable order
// (file tools, shell_cmd, web_fetch, ask_user_input). Construction never touches ws, so ws may be nil when
// only names, schemas and kinds are needed.
func Builtins(ws *Workspace, opts Options) []Tool {
	return []Tool{
		readFileTool(ws),
		writeFileTool(ws),
		editFileTool(ws),
		listFilesTool(ws),
		searchFilesTool(ws, opts.Search),
		pathExistsTool(ws),
		createDirectoryTool(ws),
		shellCmdTool(ws, opts.Shell),
		webFetchTool(opts.WebFetch),
		askUserTool(),
	}
}

// BuiltinNames lists the names Builtins returns, for validating requests
// without building a workspace.
func BuiltinNames() []string {
	ts := Builtins(nil, Options{})
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return names
}
