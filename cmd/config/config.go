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

// Config is the merged result of every layer.
type Config struct {
	// Layer holds the merged values.
	Layer
	// Files lists the config files that were read, lowest precedence first.
	Files []string
	// Diagnostics are problems that did not stop loading.
	Diagnostics []string
	// Skipped says what an untrusted project's files would have changed
	// and were not allowed to: one line per file.
	Skipped []string
	// from says which layer set each option, by config key.
	from map[string]Source
	// dotenv holds .env values; the process environment wins over them.
	dotenv map[string]string
	// unread holds the values of a .env that was not read (an untrusted
	// folder's), which are still kept out of what the model sees.
	unread map[string]string
	getenv func(string) string
}

// Options say where to look, and the layers above the files.
type Options struct {
	// Dir is the working directory (project config and .env).
	Dir string
	// Getenv reads the process environment.
	Getenv func(string) string
	// Session is what a resumed session recorded, with its provider,
	// model and base URL; SessionID names it in messages.
	Session   *Layer
	SessionID string
	// Flags are the options the command line gave.
	Flags *Layer
	// Trusted says the user trusts the project's files as they are (see
	// Folder). Until then its .env is not read and its config file sets
	// nothing that loosens policy. Where keys are sent (base URLs,
	// providers) is never taken from a project's config file.
	Trusted bool
	// UserInWorkspace says the user config lies inside the working
	// directory, where the commands llmrt runs can change it; it is then
	// read as a project file.
	UserInWorkspace bool
}

// Origin is the kind of layer a value came from, lowest first.
type Origin int

// The layers, in order of precedence: each overrides those before it.
const (
	Default Origin = iota
	User
	Project
	Environment
	Session
	Flags
)

// Source is where one option's value came from.
type Source struct {
	Origin Origin
	// Path is the file of a User or Project value, the session id of a
	// Session value.
	Path string
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

// Load reads the config files and the environment and merges them with
// the session's and the command line's layers, in that order of
// precedence: user < project < environment (and .env) < session < flags.
func Load(o Options) (*Config, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	c := &Config{getenv: o.Getenv, from: map[string]Source{}}
	envPath := filepath.Join(o.Dir, ".env")
	data, err := ReadRegular(envPath)
	switch {
	case err == nil && !o.Trusted:
		if vals, err := godotenv.Parse(bytes.NewReader(data)); err == nil && len(vals) > 0 {
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: not read (%s)", envPath, strings.Join(sortedKeys(vals), ", ")))
			c.unread = vals
		}
	case err == nil:
		vals, err := godotenv.Parse(bytes.NewReader(data))
		if err != nil {
			return nil, &FileError{Path: envPath, Msg: fmt.Sprintf("cannot parse: %v (lines are KEY=value)", err)}
		}
		c.dotenv = vals
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fileError(envPath, err)
	}
	for _, f := range []struct {
		path   string
		origin Origin
	}{{UserPath(o.Getenv), User}, {ProjectPath(o.Dir), Project}} {
		l, diags, err := readFile(f.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fileError(f.path, err)
		}
		c.Files = append(c.Files, f.path)
		c.Diagnostics = append(c.Diagnostics, diags...)
		if f.origin == Project || o.UserInWorkspace {
			var untrusted, never []string
			l, untrusted, never = l.forProject(o.Trusted)
			if len(untrusted) > 0 {
				c.Skipped = append(c.Skipped, fmt.Sprintf("%s: %s not applied", f.path, strings.Join(untrusted, ", ")))
			}
			if len(never) > 0 {
				c.Diagnostics = append(c.Diagnostics, fmt.Sprintf("config %s: %s ignored: a project does not choose where your keys are sent; set %s in %s",
					f.path, strings.Join(never, ", "), strings.Join(never, ", "), UserPath(o.Getenv)))
			}
		}
		c.apply(&l, Source{Origin: f.origin, Path: f.path})
	}
	env, err := FromEnv(c.Getenv)
	if err != nil {
		return nil, err
	}
	c.apply(&env, Source{Origin: Environment})
	if o.Session != nil {
		c.apply(o.Session, Source{Origin: Session, Path: o.SessionID})
	}
	if o.Flags != nil {
		c.apply(o.Flags, Source{Origin: Flags})
	}
	return c, nil
}

// apply merges one layer over those applied before. A layer that names a
// provider other than the one below it drops the model, base URL and API
// the lower layers gave, since they were meant for that other provider.
func (c *Config) apply(l *Layer, src Source) {
	if l.Provider != nil && c.Provider != nil && *l.Provider != *c.Provider {
		if l.Model == nil {
			c.Model = nil
			delete(c.from, "model")
		}
		if l.BaseURL == nil {
			c.BaseURL = nil
			delete(c.from, "base_url")
		}
		if l.API == nil {
			c.API = nil
			delete(c.from, "api")
		}
	}
	for _, o := range overlay(&c.Layer, l) {
		if o.key != "" {
			c.from[o.key] = src
		}
	}
}

// From returns where the option with config key key got its value; the
// zero Source (Default) when no layer set it.
func (c *Config) From(key string) Source { return c.from[key] }

// Where names the place an option was set, for messages: "--budget",
// "LLMRT_MODEL", "config key budget in PATH", "session ID".
func (c *Config) Where(key string) string {
	src := c.From(key)
	for _, o := range options() {
		if o.key != key {
			continue
		}
		switch src.Origin {
		case Flags:
			return "--" + o.flag
		case Environment:
			if o.env != "" {
				return o.env
			}
		case Session:
			return fmt.Sprintf("%s (recorded by session %s)", key, src.Path)
		case User, Project:
			return fmt.Sprintf("config key %s in %s", key, src.Path)
		}
		break
	}
	return key
}

// Getenv reads a variable: the process environment first, then .env.
// A Config built without an environment (in tests) reads only .env.
func (c *Config) Getenv(key string) string {
	if c.getenv == nil {
		return c.dotenv[key]
	}
	if v := c.getenv(key); v != "" {
		return v
	}
	return c.dotenv[key]
}

// merge overlays the fields f sets.
// Dotenv returns the variables of the .env file, KEY=VALUE, sorted,
// whether it was read or not (an untrusted folder's): its values are
// secrets to keep out of what the model sees either way.
func (c *Config) Dotenv() []string {
	out := make([]string, 0, len(c.dotenv)+len(c.unread))
	for _, m := range []map[string]string{c.dotenv, c.unread} {
		for k, v := range m {
			out = append(out, k+"="+v)
		}
	}
	sort.Strings(out)
	return out
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
