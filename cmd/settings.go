package cmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/cmd/config"
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

// settings is the resolved configuration of a run: flags over environment
// over .env over project config over user config over defaults.
type settings struct {
	cfg      *config.Config
	workDir  string
	provider string
	model    string
	backend  catalog.Settings

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
	skillsDirs    []string // --skills-dir roots, after the standard ones
	skills        *skills.Catalogue
	projectDocs   *instructions.Set // nil with --no-project-instructions
	mcp           *mcp.Source       // nil when no MCP server is configured
	mcpSecrets    []string          // header and secret env values of the MCP servers, for redaction
	mcpConfigs    []string          // --mcp-config files, absolute

	allowPrivateWeb bool
	sandbox         sandbox.Policy // Workspace is filled per call by shell_cmd
	shellEnv        tools.EnvPolicy
	diagnostics     []string

	// Host behaviour from the shared flags.
	quiet, verbose, strict bool
	tracePath              string
	// recorded are the written options a session keeps so that resuming
	// it behaves like the run it continues; see sessionOptions.
	recorded session.Options
	resumed  session.Options // what a resumed session recorded
}

// resolveSettings layers flags over the configuration files and
// environment. needModel is false for commands that call no model. A
// resumed session keeps its working directory, provider and model unless
// flags name others.
func (f *Factory) resolveSettings(ctx context.Context, cmd *cobra.Command, sf *sharedFlags, needModel bool, resumed *session.Meta) (*settings, error) {
	dir, err := workDir(sf.cwd)
	if err != nil {
		return nil, err
	}
	if resumed != nil && !cmd.Flags().Changed("cwd") && resumed.WorkDir != "" {
		if d, err := workDir(resumed.WorkDir); err == nil {
			dir = d
		}
	}
	cfg, err := f.Config(dir)
	if err != nil {
		return nil, err
	}
	s := &settings{cfg: cfg, workDir: dir, diagnostics: append([]string(nil), cfg.Diagnostics...), skillsDirs: configDirs(dir, cfg.SkillsDirs, absPaths(sf.skillsDirs)), mcpConfigs: absPaths(sf.mcpConfigs)}
	changed := cmd.Flags().Changed
	str := func(flagName, flagVal, env string, file *string) string {
		if changed(flagName) {
			return flagVal
		}
		if env != "" {
			if v := cfg.Getenv(env); v != "" {
				return v
			}
		}
		if file != nil {
			return *file
		}
		return ""
	}
	s.provider = str("provider", sf.provider, "LLMRT_PROVIDER", cfg.Provider)
	s.model = str("model", sf.model, "LLMRT_MODEL", cfg.Model)
	if resumed != nil && !changed("provider") && resumed.Provider != "" {
		s.provider = resumed.Provider
		if !changed("model") {
			s.model = resumed.Model
		}
	}
	if needModel {
		if err := s.pickProvider(ctx, f); err != nil {
			return nil, err
		}
		if err := s.pickBackend(cmd, sf); err != nil {
			return nil, err
		}
		// A resumed session goes back to the endpoint it ran against.
		if resumed != nil && resumed.Provider == s.provider && !changed("base-url") && resumed.BaseURL != "" {
			s.backend.BaseURL = resumed.BaseURL
		}
	}
	s.quiet, s.verbose, s.strict, s.tracePath = sf.quiet, sf.verbose, sf.strict, sf.trace
	f.secrets.add(knownKeys(cfg.Getenv)...)
	f.secrets.add(s.backend.APIKey)
	f.secrets.add(secretValues(os.Environ())...)
	f.secrets.add(secretValues(cfg.Dotenv())...)
	if err := s.applyRunFlags(cmd, sf); err != nil {
		return nil, err
	}
	if err := s.applyToolFlags(cmd, sf); err != nil {
		return nil, err
	}
	if err := s.applySandbox(cmd, sf); err != nil {
		return nil, err
	}
	if err := s.applyShellEnv(); err != nil {
		return nil, err
	}
	if resumed != nil && resumed.Options != nil {
		if err := s.applyResumed(changed, *resumed.Options); err != nil {
			return nil, err
		}
	}
	s.record(changed, sf)
	if s.webSearch != nil && needModel {
		if why, ignored := catalog.WebSearchIgnored(s.provider); ignored {
			s.diagnostics = append(s.diagnostics, fmt.Sprintf("--web-search is ignored: %s", why))
		}
	}
	s.loadContext(f.Getenv, sf, needModel)
	f.secrets.add(s.mcpSecrets...)
	return s, nil
}

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

// pickProvider selects a provider when none is configured (the first whose
// key is set, else a local Ollama; see catalog.AutoSelect) and checks the
// name and model.
func (s *settings) pickProvider(ctx context.Context, f *Factory) error {
	if s.provider == "" {
		s.provider = catalog.AutoSelect(ctx, s.cfg.Getenv, f.HTTPClient)
	}
	if s.provider == "" {
		keys := catalog.AutoKeys()
		return withHint(usageErrorf("no provider configured"),
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

// pickBackend resolves the provider's key, base URL and API version.
func (s *settings) pickBackend(cmd *cobra.Command, sf *sharedFlags) error {
	b := catalog.FromEnv(s.provider, s.cfg.Getenv)
	if b.BaseURL == "" {
		if s.cfg.BaseURL != nil {
			b.BaseURL = *s.cfg.BaseURL
		} else if pb, ok := s.cfg.Providers[s.provider]; ok {
			b.BaseURL = pb.BaseURL
		}
	}
	if pb, ok := s.cfg.Providers[s.provider]; ok && b.APIVersion == "" {
		b.APIVersion = pb.APIVersion
	}
	if cmd.Flags().Changed("base-url") {
		b.BaseURL = sf.baseURL
	}
	if b.BaseURL != "" && s.provider != "scripted" {
		if !strings.Contains(b.BaseURL, "://") && s.provider != "ollama" {
			return usageErrorf("base URL %q has no scheme (write e.g. http://%s)", b.BaseURL, b.BaseURL)
		}
	}
	s.backend = b
	return nil
}

// switchModel points the settings at another provider and model, as the
// chat's /model does: the new provider's key and base URL come from the
// environment and configuration, as they would at start-up.
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
		b := catalog.FromEnv(provider, s.cfg.Getenv)
		if pb, ok := s.cfg.Providers[provider]; ok {
			if b.BaseURL == "" {
				b.BaseURL = pb.BaseURL
			}
			if b.APIVersion == "" {
				b.APIVersion = pb.APIVersion
			}
		}
		b.HTTPClient = s.backend.HTTPClient
		s.backend = b
	}
	s.provider, s.model = provider, model
	return nil
}

// applyRunFlags resolves the per-run knobs.
func (s *settings) applyRunFlags(cmd *cobra.Command, sf *sharedFlags) error {
	cfg, changed := s.cfg, cmd.Flags().Changed
	intOf := func(flag string, v int, file *int) int {
		if changed(flag) {
			return v
		}
		if file != nil {
			return *file
		}
		return 0
	}
	s.maxIter = intOf("max-iterations", sf.maxIterations, cfg.MaxIterations)
	s.maxTokens = intOf("max-tokens", sf.maxTokens, cfg.MaxTokens)
	s.budget = intOf("budget", sf.budget, cfg.Budget)
	if cfg.ContextWindow != nil {
		if *cfg.ContextWindow < 1_000 {
			return usageErrorf("config key context_window: %d tokens is too small; give the model's context window, e.g. 128000", *cfg.ContextWindow)
		}
		s.contextWindow = *cfg.ContextWindow
	}
	if s.maxIter < 0 || s.maxTokens < 0 || s.budget < 0 {
		return usageErrorf("--max-iterations, --max-tokens and --budget must not be negative")
	}
	switch {
	case changed("temperature"):
		t := sf.temperature
		s.temperature = &t
	case cfg.Temperature != nil:
		s.temperature = cfg.Temperature
	}
	var err error
	if s.effort, err = providers.ParseEffort(pick(changed("reasoning-effort"), sf.reasoningEffort, cfg.ReasoningEffort)); err != nil {
		return usageErrorf("--reasoning-effort: %v", err)
	}
	if s.webSearch, err = providers.ParseWebSearch(pick(changed("web-search"), sf.webSearch, cfg.WebSearch)); err != nil {
		return usageErrorf("--web-search: %v", err)
	}
	if s.finish, err = engine.ParseFinish(pick(changed("finish"), sf.finish, cfg.Finish)); err != nil {
		return usageErrorf("--finish: %v", err)
	}
	if changed("timeout") {
		s.timeout = sf.timeout
	} else if cfg.Timeout != nil {
		d, err := time.ParseDuration(*cfg.Timeout)
		if err != nil {
			return usageErrorf("config key timeout: %v (write e.g. \"5m\")", err)
		}
		s.timeout = d
	}
	if s.timeout < 0 {
		return usageErrorf("--timeout %s: must not be negative (0 means no limit)", s.timeout)
	}
	return s.loadSystem(cmd, sf)
}

func (s *settings) loadSystem(cmd *cobra.Command, sf *sharedFlags) error {
	changed := cmd.Flags().Changed
	s.system = pick(changed("system"), sf.system, s.cfg.System)
	file := pick(changed("system-file"), sf.systemFile, s.cfg.SystemFile)
	if file == "" {
		return nil
	}
	read := os.ReadFile // a file named on the command line may be a pipe: --system-file <(...)
	if !changed("system-file") {
		// One named by a config file must be a regular file.
		read = config.ReadRegular
		if !filepath.IsAbs(file) {
			file = filepath.Join(s.workDir, file)
		}
	}
	data, err := read(file)
	if err != nil {
		return usageErrorf("--system-file: %v", err)
	}
	if s.system != "" {
		s.system += "\n\n"
	}
	s.system += strings.TrimSpace(string(data))
	return nil
}

func pick(flagSet bool, flagVal string, file *string) string {
	if flagSet {
		return flagVal
	}
	if file != nil {
		return *file
	}
	return ""
}

// configDirs resolves directories from config files against the working
// directory and puts the flag's after them, so the flag's win.
// absPaths makes paths given on the command line absolute, so a session
// can record them.
func absPaths(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		out = append(out, p)
	}
	return out
}

func configDirs(workDir string, fromConfig, fromFlags []string) []string {
	var out []string
	for _, d := range fromConfig {
		if !filepath.IsAbs(d) {
			d = filepath.Join(workDir, d)
		}
		out = append(out, d)
	}
	return append(out, fromFlags...)
}
