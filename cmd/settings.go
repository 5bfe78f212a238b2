package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/llmrt/llmrt/agents"
	"github.com/llmrt/llmrt/cmd/commands"
	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/cmd/hooks"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/instructions"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/catalog"
	"github.com/llmrt/llmrt/skills"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/mcp"
	"github.com/llmrt/llmrt/tools/sandbox"
)

// settings is the resolved configuration of a run: the options of every
// layer merged (config.Load) and checked, in the types the engine and the
// tools take.
type settings struct {
	cfg     *config.Config
	workDir string
	// env is where the session works, told to the model; computed once,
	// so every request of the session starts the same.
	env      engine.Environment
	provider string
	model    string
	backend  catalog.Settings
	// backends are the backends of the providers /model switched away
	// from, kept for when it switches back (switchModel).
	backends map[string]catalog.Settings
	// planProvider and planModel are the plan_model setting: the model
	// of turns in plan mode. An empty planProvider is the provider in use.
	planProvider string
	planModel    string

	system     string
	builtIns   []string
	permission engine.Permission
	maxIter    int
	maxTokens  int
	// contextWindow is the context_window config key (0: the model's own).
	contextWindow int
	temperature   *float64
	effort        providers.Effort
	webSearch     *providers.WebSearch
	finish        engine.FinishPolicy
	budget        int
	timeout       time.Duration
	streamIdle    time.Duration // the providers' idle timeout; 0: their default
	skillsDirs    []string      // extra skill roots, after the standard ones
	skills        *skills.Catalogue
	commands      *commands.Catalogue // custom slash commands
	agents        []agents.Agent      // the agents spawn_agent offers (see loadAgents)
	projectDocs   *instructions.Set   // nil with --no-project-instructions
	mcp           *mcp.Source         // nil when no MCP server is configured
	mcpSecrets    []string            // header and secret env values of the MCP servers, for redaction

	allowPrivateWeb bool
	sandbox         sandbox.Policy // Workspace is filled per call by shell_cmd
	shellEnv        tools.EnvPolicy
	diagnostics     []string

	// Host behaviour from the command line.
	quiet, verbose, strict bool
	tracePath              string
	// recorded is the layer a new session records: the options the
	// command line and a resumed session gave, so that resuming it
	// behaves like the run it continues.
	recorded config.Layer
	// folder is the working directory's project files; trusted says they
	// apply (see decideTrust), and untrustedServers are the MCP servers
	// they would have started.
	mcpConfigs       []string // the --mcp-config files loaded, see vetMCPConfigs
	folder           config.Folder
	trustStore       config.TrustStore
	trusted          bool
	untrustedServers []mcp.Server
	// hooks are the person's hook commands (Claude Code's format); nil
	// when there are none.
	hooks *hooks.Runner
}

// resolveSettings merges the command line's layer (flags) with the
// configuration files, the environment and a resumed session's record,
// and checks the result. needModel is false for commands that call no
// model. A resumed session keeps its working directory, provider and
// model unless flags name others.
func (f *Factory) resolveSettings(ctx context.Context, flags config.Layer, needModel bool, resumed *session.Meta) (*settings, error) {
	cwd := deref(flags.Cwd)
	if flags.Cwd == nil && resumed != nil && resumed.WorkDir != "" {
		if _, err := workDir(resumed.WorkDir); err == nil {
			cwd = resumed.WorkDir
		}
	}
	dir, err := workDir(cwd)
	if err != nil {
		return nil, err
	}
	o := config.Options{Dir: dir, Getenv: f.Getenv, Flags: &flags}
	var sessionLayer config.Layer
	if resumed != nil {
		sessionLayer = resumedLayer(*resumed)
		o.Session, o.SessionID = &sessionLayer, resumed.ID
	}
	given := config.Merge(sessionLayer, flags)
	s := &settings{workDir: dir, env: engine.DetectEnvironment(dir, time.Now()), recorded: given.Recorded(), trustStore: config.TrustStore{Path: config.TrustPath(f.Getenv)}}
	userConfig := userConfigIfInside(f.Getenv, dir)
	o.UserInWorkspace = len(userConfig) > 0
	s.folder = projectFolder(f.Getenv, dir)
	s.mcpConfigs = s.vetMCPConfigs(flags, sessionLayer)
	if w := exposedWorkspace(s.folder.Dir, f.Getenv); w != "" {
		s.diagnostics = append(s.diagnostics, w)
	}
	if s.trusted, err = f.decideTrust(ctx, s, o, needModel); err != nil {
		return nil, err
	}
	o.Trusted = s.trusted
	cfg, err := config.Load(o)
	if err != nil {
		return nil, err
	}
	s.cfg = cfg
	s.diagnostics = append(s.diagnostics, cfg.Diagnostics...)
	s.quiet, s.verbose, s.strict, s.tracePath = isTrue(cfg.Quiet), isTrue(cfg.Verbose), isTrue(cfg.Strict), deref(cfg.Trace)
	s.provider, s.model = deref(cfg.Provider), deref(cfg.Model)
	if needModel {
		if err := s.pickProvider(ctx, f); err != nil {
			return nil, err
		}
		if err := s.pickBackend(); err != nil {
			return nil, err
		}
		if err := s.applyPlanModel(); err != nil {
			return nil, err
		}
	}
	f.secrets.add(knownKeys(cfg.Getenv)...)
	f.secrets.add(s.backend.APIKey)
	f.secrets.add(secretValues(os.Environ())...)
	f.secrets.add(secretValues(cfg.Dotenv())...)
	for _, check := range []func() error{s.applyRun, s.loadSystem, s.applyTools, s.applySandbox, s.applyShellEnv} {
		if err := check(); err != nil {
			return nil, err
		}
	}
	if o := cfg.From("sandbox").Origin; o != config.User && o != config.Project {
		// The mode commands ran under is kept even when it is the default,
		// so the session says how it was confined; a config file's is read
		// again on resume.
		mode := string(s.sandbox.Mode)
		s.recorded.Sandbox = &mode
	}
	if s.webSearch != nil && needModel {
		if why, ignored := catalog.WebSearchIgnored(s.provider); ignored {
			s.diagnostics = append(s.diagnostics, fmt.Sprintf("--web-search is ignored: %s", why))
		}
	}
	s.loadContext(f.Getenv, needModel && !isTrue(cfg.NoProjectInstructions))
	s.loadAgents(f.Getenv)
	if needModel {
		s.loadHooks(f.Getenv)
	}
	f.secrets.add(s.mcpSecrets...)
	if s.mcp != nil {
		s.mcp.SetAuth(mcpAuth(f))
	}
	return s, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func isTrue(p *bool) bool { return p != nil && *p }

// knownKeys returns the values of every provider key variable set in the
// environment or .env, for redaction.
func knownKeys(getenv func(string) string) []string {
	var vals []string
	for _, name := range catalog.Names() {
		spec, _ := catalog.Lookup(name)
		for _, v := range spec.KeyVars {
			if val := strings.TrimSpace(getenv(v)); val != "" {
				vals = append(vals, val)
			}
		}
	}
	return vals
}

func workDir(flag string) (string, error) {
	dir := flag
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", usageErrorf("--cwd %s: %v", flag, err)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.IsDir() {
		return "", usageErrorf("--cwd %s: not a directory", flag)
	}
	return abs, nil
}

// errNoProvider says no provider was named and none could be picked: no
// key is set and no Ollama answers.
var errNoProvider = errors.New("no provider configured")

// pickProvider selects a provider when none is configured (the first whose
// key is set, else a local Ollama; see catalog.AutoSelect) and checks the
// name and model.
func (s *settings) pickProvider(ctx context.Context, f *Factory) error {
	if s.provider == "" {
		s.provider = catalog.AutoSelect(ctx, s.cfg.Getenv, f.HTTPClient)
	}
	if s.provider == "" {
		keys := catalog.AutoKeys()
		return withHint(usageErrorf("%w", errNoProvider),
			fmt.Sprintf("set one of %s or %s (see .env.example), start ollama, or try llmrt offline with --provider scripted --model examples/hello.json",
				strings.Join(keys[:len(keys)-1], ", "), keys[len(keys)-1]))
	}
	spec, ok := catalog.Lookup(s.provider)
	if !ok {
		return usageErrorf("unknown provider %q (known: %s)", s.provider, strings.Join(catalog.Names(), ", "))
	}
	if s.model == "" {
		s.model = spec.DefaultModel
	}
	if s.model == "" {
		what := "a model name"
		switch s.provider {
		case "azure":
			what = "the deployment name"
		case "scripted":
			what = "the path of a script file, e.g. examples/hello.json"
		}
		return usageErrorf("--model is required for provider %s (%s)", s.provider, what)
	}
	return nil
}

// pickBackend resolves the provider's key, base URL and API version. A
// base URL from the command line, a resumed session or LLMRT_BASE_URL
// wins over the provider's own variable (OPENAI_BASE_URL, ...), which
// wins over the config files'.
func (s *settings) pickBackend() error {
	c := s.cfg
	b := s.providerBackend(s.provider)
	spec, _ := catalog.Lookup(s.provider)
	ownVar := spec.BaseURLVar != "" && strings.TrimSpace(c.Getenv(spec.BaseURLVar)) != ""
	if c.BaseURL != nil && (c.From("base_url").Origin >= config.Environment || !ownVar) {
		b.BaseURL = *c.BaseURL
	}
	if b.BaseURL != "" && s.provider != "scripted" {
		if !strings.Contains(b.BaseURL, "://") && s.provider != "ollama" {
			return usageErrorf("base URL %q has no scheme (write e.g. http://%s)", b.BaseURL, b.BaseURL)
		}
	}
	if api := deref(c.API); api != "" {
		if err := catalog.ParseAPI(api); err != nil {
			return usageErrorf("%s: %v", c.Where("api"), err)
		}
		if slices.Contains(spec.APIs, api) {
			b.API = api
		} else if c.From("api").Origin >= config.Environment {
			// A config file's api is meant for openai; naming it on
			// the command line or in the environment for another
			// provider is worth a word.
			s.diagnostics = append(s.diagnostics, fmt.Sprintf("%s %s is ignored: provider %s has one API", c.Where("api"), api, s.provider))
		}
	}
	s.backend = b
	return nil
}

// switchModel points the settings at another provider and model, as the
// chat's /model does. Every provider keeps its own endpoint and key: the
// one the settings were resolved for keeps the backend it started with (a
// base URL from --base-url, LLMRT_BASE_URL, a resumed session or a config
// file's base_url was meant for it alone, and comes back with it); any
// other gets what its own configuration gives (providerBackend), never
// another provider's base URL, so a key is never sent to a host the user
// did not name for its provider.
func (s *settings) switchModel(provider, model string) error {
	spec, ok := catalog.Lookup(provider)
	if !ok {
		return usageErrorf("unknown provider %q (known: %s)", provider, strings.Join(catalog.Names(), ", "))
	}
	if model == "" {
		model = spec.DefaultModel
	}
	if model == "" {
		return usageErrorf("provider %s needs a model name: /model %s/NAME", provider, provider)
	}
	if provider != s.provider {
		if s.backends == nil {
			s.backends = map[string]catalog.Settings{}
		}
		s.backends[s.provider] = s.backend
		b, ok := s.backends[provider]
		if !ok {
			b = s.providerBackend(provider)
		}
		b.HTTPClient = s.backend.HTTPClient
		// A provider without its key (or base URL) is not switched to:
		// the next turn would fail where this says why.
		if _, err := catalog.New(provider, b); err != nil {
			why := strings.TrimPrefix(err.Error(), provider+": ")
			return usageErrorf("not switched to %s: %s; still using %s/%s", provider, why, s.provider, s.model)
		}
		s.backend = b
	}
	s.provider, s.model = provider, model
	return nil
}

// providerBackend is the backend a provider's own configuration gives:
// its key and base-URL variables (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL),
// then providers.<name> in the config files. LLMRT_BASE_URL and the
// top-level base_url are left out: they belong to the provider a run
// starts with.
func (s *settings) providerBackend(provider string) catalog.Settings {
	b := catalog.FromEnv(provider, func(k string) string {
		if k == "LLMRT_BASE_URL" {
			return ""
		}
		return s.cfg.Getenv(k)
	})
	if pb, ok := s.cfg.Providers[provider]; ok {
		if b.BaseURL == "" {
			b.BaseURL = pb.BaseURL
		}
		if b.APIVersion == "" {
			b.APIVersion = pb.APIVersion
		}
	}
	return b
}

// applyRun checks the per-run knobs.
func (s *settings) applyRun() error {
	c := s.cfg
	s.maxIter, s.maxTokens, s.budget = deref(c.MaxIterations), deref(c.MaxTokens), deref(c.Budget)
	for key, v := range map[string]int{"max_iterations": s.maxIter, "max_tokens": s.maxTokens, "budget": s.budget, "max_result_bytes": deref(c.MaxResultBytes)} {
		if v < 0 {
			return usageErrorf("%s: %d must not be negative", c.Where(key), v)
		}
	}
	if c.ContextWindow != nil {
		if *c.ContextWindow < 1_000 {
			return usageErrorf("%s: %d tokens is too small; give the model's context window, e.g. 128000", c.Where("context_window"), *c.ContextWindow)
		}
		s.contextWindow = *c.ContextWindow
	}
	s.temperature = c.Temperature
	var err error
	if s.effort, err = providers.ParseEffort(deref(c.ReasoningEffort)); err != nil {
		return usageErrorf("%s: %v", c.Where("reasoning_effort"), err)
	}
	if c.WebSearch != nil {
		if s.webSearch, err = providers.ParseWebSearch(*c.WebSearch); err != nil {
			return usageErrorf("%s: %v", c.Where("web_search"), err)
		}
	}
	if s.finish, err = engine.ParseFinish(deref(c.Finish)); err != nil {
		return usageErrorf("%s: %v", c.Where("finish"), err)
	}
	switch v := deref(c.Notifications); v {
	case "", "auto", "bell", "off":
	default:
		return usageErrorf("%s: %q is not a choice; want auto, bell or off", c.Where("notifications"), v)
	}
	if s.timeout = c.Timeout.Std(); s.timeout < 0 {
		return usageErrorf("%s %s: must not be negative (0 means no limit)", c.Where("timeout"), s.timeout)
	}
	if s.streamIdle = c.StreamIdleTimeout.Std(); s.streamIdle < 0 {
		return usageErrorf("%s %s: must not be negative (0 means the default, 60s)", c.Where("stream_idle_timeout"), s.streamIdle)
	}
	if c.AllowPrivateWeb != nil {
		s.allowPrivateWeb = *c.AllowPrivateWeb
	}
	s.skillsDirs = inDir(s.workDir, c.SkillsDirs)
	return nil
}

// loadSystem reads the system prompt and the system file. A file named
// on the command line may be a pipe (--system-file <(...)) and is
// relative to where llmrt runs; one a config file names must be a regular
// file and is relative to the working directory.
func (s *settings) loadSystem() error {
	c := s.cfg
	s.system = deref(c.System)
	file := deref(c.SystemFile)
	if file == "" {
		return nil
	}
	read := os.ReadFile
	if c.From("system_file").Origin != config.Flags {
		read = config.ReadRegular
		file = inDir(s.workDir, []string{file})[0]
	}
	data, err := read(file)
	if err != nil {
		return usageErrorf("%s: %v", c.Where("system_file"), err)
	}
	if s.system != "" {
		s.system += "\n\n"
	}
	s.system += strings.TrimSpace(string(data))
	return nil
}

// inDir makes relative paths relative to dir.
func inDir(dir string, paths []string) []string {
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		out = append(out, p)
	}
	return out
}
