// Package config loads llmrt's layered configuration: user
// config ($XDG_CONFIG_HOME/llmrt/config.json), then project config
// (.llmrt/config.json in the working directory), then `.env` in the working
// directory and the process environment. Flags are applied on top by the
// command layer, which sees which flags were set.
//
// A malformed file, or a key with a value of the wrong type, is a
// *FileError naming the file, line and key. An unknown key is a
// diagnostic, not an error: a warning, and exit 2 under --strict.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/joho/godotenv"
)

// File is the content of a config file. Pointer fields distinguish "unset"
// from a zero value, so a later layer overrides only what it sets.
type File struct {
	Provider        *string  `json:"provider"`
	Model           *string  `json:"model"`
	BaseURL         *string  `json:"base_url"`
	System          *string  `json:"system"`
	SystemFile      *string  `json:"system_file"`
	Tools           *string  `json:"tools"`
	Permission      *string  `json:"permission"`
	Allow           []string `json:"allow"`
	Deny            []string `json:"deny"`
	MaxIterations   *int     `json:"max_iterations"`
	MaxTokens       *int     `json:"max_tokens"`
	Temperature     *float64 `json:"temperature"`
	ReasoningEffort *string  `json:"reasoning_effort"`
	WebSearch       *string  `json:"web_search"`
	Finish          *string  `json:"finish"`
	Budget          *int     `json:"budget"`
	Timeout         *string  `json:"timeout"`
	AllowPrivateWeb *bool    `json:"web_fetch_allow_private"`
	// Sandbox is off, read-only or workspace-write; SandboxWritable adds
	// writable paths (relative ones to the working directory);
	// SandboxedCommands "auto" lets ask mode run confined commands without
	// asking.
	Sandbox           *string  `json:"sandbox"`
	SandboxNetwork    *bool    `json:"sandbox_network"`
	SandboxWritable   []string `json:"sandbox_writable"`
	SandboxedCommands *string  `json:"sandboxed_commands"`
	// ShellEnv shapes the environment of the commands the model runs; a
	// layer that sets it replaces the lower layers' setting whole.
	ShellEnv *ShellEnv `json:"shell_env"`
	// SkillsDirs are extra skill roots (relative ones to the working
	// directory), searched before the standard ones like --skills-dir.
	SkillsDirs []string `json:"skills_dirs"`
	// ContextWindow is the model's context window in tokens, for models
	// the built-in table does not know or gets wrong.
	ContextWindow *int               `json:"context_window"`
	Providers     map[string]Backend `json:"providers"`
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

// Backend holds per-provider settings from a config file.
type Backend struct {
	BaseURL    string `json:"base_url"`
	APIVersion string `json:"api_version"`
}

// Config is the merged result of every layer below the flags.
type Config struct {
	File
	// Files lists the config files that were read, lowest precedence first.
	Files []string
	// Diagnostics are problems that did not stop loading.
	Diagnostics []string
	// dotenv holds .env values; the process environment wins over them.
	dotenv map[string]string
	getenv func(string) string
}

// Options say where to look.
type Options struct {
	// Dir is the working directory (project config and .env).
	Dir string
	// Getenv reads the process environment.
	Getenv func(string) string
}

// FileError is a config file that cannot be used.
type FileError struct {
	Path string
	Line int
	Key  string
	Msg  string
}

func (e *FileError) Error() string {
	loc := e.Path
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("config %s: key %q: %s", loc, e.Key, e.Msg)
	}
	return fmt.Sprintf("config %s: %s", loc, e.Msg)
}

// UserPath returns the user config file path.
func UserPath(getenv func(string) string) string {
	return filepath.Join(userConfigDir(getenv), "llmrt", "config.json")
}

func userConfigDir(getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return d
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config")
	}
	d, _ := os.UserConfigDir()
	return d
}

// Load reads every layer below the flags.
func Load(o Options) (*Config, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	c := &Config{getenv: o.Getenv}
	for _, p := range []string{UserPath(o.Getenv), filepath.Join(o.Dir, ".llmrt", "config.json")} {
		f, diags, err := readFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fileError(p, err)
		}
		c.Files = append(c.Files, p)
		c.Diagnostics = append(c.Diagnostics, diags...)
		c.merge(f)
	}
	envPath := filepath.Join(o.Dir, ".env")
	data, err := ReadRegular(envPath)
	switch {
	case err == nil:
		vals, err := godotenv.Parse(bytes.NewReader(data))
		if err != nil {
			return nil, &FileError{Path: envPath, Msg: fmt.Sprintf("cannot parse: %v (lines are KEY=value)", err)}
		}
		c.dotenv = vals
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fileError(envPath, err)
	}
	return c, nil
}

// Getenv reads a variable: the process environment first, then .env.
func (c *Config) Getenv(key string) string {
	if v := c.getenv(key); v != "" {
		return v
	}
	return c.dotenv[key]
}

// merge overlays the fields f sets.
// Dotenv returns the variables of the .env file, KEY=VALUE, sorted.
func (c *Config) Dotenv() []string {
	out := make([]string, 0, len(c.dotenv))
	for k, v := range c.dotenv {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

func (c *Config) merge(f File) {
	set := func(dst **string, v *string) {
		if v != nil {
			*dst = v
		}
	}
	set(&c.Provider, f.Provider)
	set(&c.Model, f.Model)
	set(&c.BaseURL, f.BaseURL)
	set(&c.System, f.System)
	set(&c.SystemFile, f.SystemFile)
	set(&c.Tools, f.Tools)
	set(&c.Permission, f.Permission)
	set(&c.ReasoningEffort, f.ReasoningEffort)
	set(&c.WebSearch, f.WebSearch)
	set(&c.Finish, f.Finish)
	set(&c.Timeout, f.Timeout)
	if f.MaxIterations != nil {
		c.MaxIterations = f.MaxIterations
	}
	if f.MaxTokens != nil {
		c.MaxTokens = f.MaxTokens
	}
	if f.Temperature != nil {
		c.Temperature = f.Temperature
	}
	if f.Budget != nil {
		c.Budget = f.Budget
	}
	if f.AllowPrivateWeb != nil {
		c.AllowPrivateWeb = f.AllowPrivateWeb
	}
	set(&c.Sandbox, f.Sandbox)
	set(&c.SandboxedCommands, f.SandboxedCommands)
	if f.SandboxNetwork != nil {
		c.SandboxNetwork = f.SandboxNetwork
	}
	c.SandboxWritable = append(c.SandboxWritable, f.SandboxWritable...)
	c.SkillsDirs = append(c.SkillsDirs, f.SkillsDirs...)
	if f.ContextWindow != nil {
		c.ContextWindow = f.ContextWindow
	}
	if f.ShellEnv != nil {
		c.ShellEnv = f.ShellEnv
	}
	// Rules and skill roots accumulate across layers.
	c.Allow = append(c.Allow, f.Allow...)
	c.Deny = append(c.Deny, f.Deny...)
	for name, b := range f.Providers {
		if c.Providers == nil {
			c.Providers = make(map[string]Backend)
		}
		c.Providers[name] = b
	}
}

// notYet are keys of features this version does not have yet; they are
// reported rather than silently ignored.
var notYet = map[string]string{}

// Known keys, for the unknown-key diagnostic.
var known = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`provider model base_url system system_file tools permission allow deny
		max_iterations max_tokens temperature reasoning_effort web_search finish budget timeout
		web_fetch_allow_private providers sandbox sandbox_network sandbox_writable sandboxed_commands shell_env skills_dirs context_window
		mcpServers servers $schema`) {
		m[k] = true
	}
	return m
}()
