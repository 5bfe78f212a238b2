package tools

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"
)

// EnvPolicy decides the environment of the commands a model composes
// (shell_cmd). The zero value inherits the environment minus every
// variable that looks like a secret, so a model that runs `env` or
// `echo $OPENAI_API_KEY` learns no credential.
//
// The steps run in this order: start from Inherit; drop the variables
// that hold secrets (SecretVar: a name matching SecretPatterns, or a URL
// value with credentials) unless IgnoreDefaultExcludes, keeping the names
// in Pass; drop names matching Exclude; add Set; if IncludeOnly is given,
// keep only the names matching it.
type EnvPolicy struct {
	// Inherit is "all" (the default when empty), "core" (HOME, PATH, USER,
	// SHELL, LANG, TERM, TMPDIR and a few more) or "none".
	Inherit string
	// IgnoreDefaultExcludes keeps variables whose names look like secrets.
	IgnoreDefaultExcludes bool
	// Pass names variables kept even though their names look like secrets,
	// e.g. GITHUB_TOKEN for a model that should run `gh`.
	Pass []string
	// Exclude are further name patterns to drop (shell globs, matched
	// without regard to case).
	Exclude []string
	// Set adds or overrides variables.
	Set map[string]string
	// IncludeOnly, when not empty, keeps only the names matching one of
	// its patterns (applied last, after Set).
	IncludeOnly []string
}

// SecretPatterns are the name patterns dropped from a command's
// environment by default, matched without regard to case: *PASS* covers
// PASSWORD, PASSWD and SSHPASS, *PWD* MYSQL_PWD (but not the shell's PWD
// and OLDPWD, see notSecret), *DSN* the connection strings of Sentry and
// databases.
var SecretPatterns = []string{"*KEY*", "*SECRET*", "*TOKEN*", "*PASS*", "*PWD*", "*DSN*", "*CREDENTIAL*"}

// notSecret are names SecretPatterns match that hold no secret: the
// current and previous directory, which the shell sets anyway.
var notSecret = []string{"PWD", "OLDPWD"}

// coreEnv is what Inherit "core" keeps.
var coreEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "USER", "USERNAME", "TMPDIR", "TEMP", "TMP", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM"}

// Check reports a policy that cannot be applied: an unknown Inherit value
// or a malformed pattern.
func (p EnvPolicy) Check() error {
	switch p.Inherit {
	case "", "all", "core", "none":
	default:
		return fmt.Errorf("inherit %q is not all, core or none", p.Inherit)
	}
	for _, pats := range [][]string{p.Exclude, p.IncludeOnly} {
		for _, pat := range pats {
			if _, err := path.Match(strings.ToUpper(pat), ""); err != nil {
				return fmt.Errorf("pattern %q: %v", pat, err)
			}
		}
	}
	return nil
}

// Apply returns the environment a command gets from base, which is in
// os.Environ's KEY=VALUE form.
func (p EnvPolicy) Apply(base []string) []string {
	out := make([]string, 0, len(base)+len(p.Set))
	for _, kv := range base {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !p.keeps(name, value) {
			continue
		}
		if _, over := p.Set[name]; over {
			continue
		}
		out = append(out, kv)
	}
	for _, k := range sortedKeys(p.Set) {
		if len(p.IncludeOnly) == 0 || matchAny(p.IncludeOnly, k) {
			out = append(out, k+"="+p.Set[k])
		}
	}
	return out
}

// keeps applies every step but Set to one inherited variable.
func (p EnvPolicy) keeps(name, value string) bool {
	switch p.Inherit {
	case "none":
		return false
	case "core":
		if !slices.Contains(coreEnv, name) {
			return false
		}
	}
	if !p.IgnoreDefaultExcludes && SecretVar(name, value) && !slices.Contains(p.Pass, name) {
		return false
	}
	if matchAny(p.Exclude, name) {
		return false
	}
	return len(p.IncludeOnly) == 0 || matchAny(p.IncludeOnly, name)
}

// LooksSecret reports whether a variable name matches SecretPatterns.
func LooksSecret(name string) bool {
	return matchAny(SecretPatterns, name) && !slices.Contains(notSecret, strings.ToUpper(name))
}

// SecretVar reports whether a variable holds a secret: its name looks like
// one (LooksSecret), or its value is a URL with credentials in it
// (URLCredential), such as DATABASE_URL=postgres://app:pw@db/app.
func SecretVar(name, value string) bool {
	if LooksSecret(name) {
		return true
	}
	_, ok := URLCredential(value)
	return ok
}

// URLCredential returns the credential a URL-valued string carries: the
// password of scheme://user:password@host, or the user of an http(s) URL
// without one (https://TOKEN@github.com), where the user is the token.
// An ssh-style user alone (ssh://git@host) is no credential.
func URLCredential(value string) (string, bool) {
	scheme, rest, ok := strings.Cut(value, "://")
	if !ok || !strings.Contains(rest, "@") || strings.ContainsAny(scheme, " /") {
		return "", false
	}
	u, err := url.Parse(value)
	if err != nil || u.User == nil {
		return "", false
	}
	if pw, set := u.User.Password(); set && pw != "" {
		return pw, true
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss":
		if name := u.User.Username(); name != "" {
			return name, true
		}
	}
	return "", false
}

func matchAny(patterns []string, name string) bool {
	upper := strings.ToUpper(name)
	for _, pat := range patterns {
		if matchName(strings.ToUpper(pat), upper) {
			return true
		}
	}
	return false
}

// matchName is path.Match(pattern, name) with a malformed pattern matching
// nothing. A pattern "*WORD*", the shape of SecretPatterns, is a substring
// test, which is what path.Match decides for a name without a slash (a
// star does not cross one); every process start checks each variable
// against each pattern, so that shape is worth its own line.
func matchName(pattern, name string) bool {
	if len(pattern) > 2 && pattern[0] == '*' && pattern[len(pattern)-1] == '*' &&
		!strings.ContainsAny(pattern[1:len(pattern)-1], `*?[\`) && !strings.Contains(name, "/") {
		return strings.Contains(name, pattern[1:len(pattern)-1])
	}
	ok, _ := path.Match(pattern, name)
	return ok
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// commandEnv is the environment of one shell_cmd call: the policy applied
// to env (or this process's environment), pagers and git prompts turned
// off since nobody can answer them, and the call's marker, by which the
// call's leftover processes are found once it returns.
func commandEnv(env []string, p EnvPolicy, marker string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := p.Apply(env)
	set := func(k, v string) {
		for _, kv := range out {
			if strings.HasPrefix(kv, k+"=") {
				return
			}
		}
		out = append(out, k+"="+v)
	}
	set("PAGER", "cat")
	set("GIT_PAGER", "cat")
	set("GIT_TERMINAL_PROMPT", "0")
	if marker != "" {
		out = slices.DeleteFunc(out, func(kv string) bool { return strings.HasPrefix(kv, callMarkerVar+"=") })
		out = append(out, callMarkerVar+"="+marker)
	}
	return out
}
