package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/llmrt/llmrt/cmd/hooks"
	"github.com/llmrt/llmrt/engine/session"
)

// A project's files can run code (MCP servers), redirect traffic (base
// URLs, .env) or loosen policy (permission mode, allow rules, the
// sandbox). They are honoured only for a directory the user trusts, and
// only as they were when trusted: the trust store keeps the directory's
// real path and a fingerprint of those files' contents, so a file changed
// since, by whoever, makes the directory untrusted again.

// Folder is what a working directory's files would add to llmrt.
type Folder struct {
	// Dir is the directory's real path.
	Dir string
	// Files are the files that need trust, as they exist now.
	Files []string
	// Fingerprint is a hash of the files' names and contents.
	Fingerprint string
}

// ProjectFiles returns the files of dir that need trust, lowest
// precedence first: the project config, .mcp.json and .env, then extra
// files (a --mcp-config, or the user's own config when the workspace
// holds it) that lie inside dir, where a confined command can write them.
// Files that do not exist are left out.
func ProjectFiles(dir string, extra ...string) []string {
	candidates := []string{ProjectPath(dir), filepath.Join(dir, ".mcp.json"), filepath.Join(dir, ".env")}
	candidates = append(candidates, hookFiles(dir)...)
	for _, p := range extra {
		if Inside(dir, p) && !slices.Contains(candidates, p) {
			candidates = append(candidates, p)
		}
	}
	var out []string
	for _, p := range candidates {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// hookFiles are the Claude Code settings files of the project dir is in
// (from the repository root down to dir) and the scripts their hooks and
// the project config's name: hooks run commands with the person's
// rights, so a changed script needs trust again as a changed settings
// file does.
func hookFiles(dir string) []string {
	home := os.Getenv("HOME")
	root := ProjectRoot(dir, home)
	var out []string
	scripts := func(path string) {
		if set, err := hooks.ReadFile(path); err == nil {
			out = append(out, hooks.Scripts(set, root, dir)...)
		}
	}
	for _, d := range ProjectDirs(dir, home) {
		for _, name := range []string{"settings.json", "settings.local.json"} {
			p := filepath.Join(d, ".claude", name)
			out = append(out, p)
			scripts(p)
		}
	}
	scripts(ProjectPath(dir))
	return out
}

// Inside reports whether path is dir or below it, after resolving
// symbolic links where they exist.
func Inside(dir, path string) bool {
	d, p := realPath(dir), realPath(path)
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// realPath resolves what it can of path: the longest existing prefix is
// resolved and the rest kept.
func realPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	parent := filepath.Dir(abs)
	if parent == abs {
		return abs
	}
	return filepath.Join(realPath(parent), filepath.Base(abs))
}

// Sum fingerprints one file's contents ("" when it cannot be read).
func Sum(path string) string {
	data, err := ReadRegular(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// NewFolder fingerprints the files of dir that need trust.
func NewFolder(dir string, extra ...string) Folder {
	p := Folder{Dir: realPath(dir), Files: ProjectFiles(dir, extra...)}
	h := sha256.New()
	for _, f := range p.Files {
		rel, err := filepath.Rel(p.Dir, realPath(f))
		if err != nil {
			rel = f
		}
		data, err := ReadRegular(f)
		if err != nil {
			data = []byte("unreadable: " + err.Error())
		}
		fmt.Fprintf(h, "%s\x00%d\x00", rel, len(data))
		h.Write(data)
	}
	p.Fingerprint = "sha256:" + hex.EncodeToString(h.Sum(nil))
	return p
}

// Refresh fingerprints the folder's files again, as they are now (a file
// llmrt wrote on the user's behalf).
func (p Folder) Refresh() Folder { return NewFolder(p.Dir, p.Files...) }

// TrustStore remembers the directories a user trusts, in a JSON file of
// the user's state directory.
type TrustStore struct {
	Path string
}

// StateDir returns llmrt's state directory, $XDG_STATE_HOME/llmrt (the
// sessions' parent); "" without a home.
func StateDir(getenv func(string) string) string {
	if d := session.DefaultDir(getenv); d != "" {
		return filepath.Dir(d)
	}
	return ""
}

// TrustPath returns the trust store's file: $XDG_STATE_HOME/llmrt/trust.json.
func TrustPath(getenv func(string) string) string {
	if d := StateDir(getenv); d != "" {
		return filepath.Join(d, "trust.json")
	}
	return ""
}

// Trusted is one trusted directory.
type Trusted struct {
	Dir         string    `json:"dir"`
	Fingerprint string    `json:"fingerprint"`
	Files       []string  `json:"files"`
	At          time.Time `json:"trusted_at"`
}

type trustFile struct {
	Folders []Trusted `json:"folders"`
}

// List returns the trusted directories.
func (s TrustStore) List() ([]Trusted, error) {
	if s.Path == "" {
		return nil, nil
	}
	data, err := ReadRegular(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f trustFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, &FileError{Path: s.Path, Msg: "not a trust store: " + err.Error() + " (remove it and trust your folders again)"}
	}
	return f.Folders, nil
}

// Check reports whether p is trusted as its files are now, and whether
// the directory was trusted once with other contents (changed).
func (s TrustStore) Check(p Folder) (trusted, changed bool, err error) {
	list, err := s.List()
	if err != nil {
		return false, false, err
	}
	for _, t := range list {
		if t.Dir == p.Dir {
			return t.Fingerprint == p.Fingerprint, t.Fingerprint != p.Fingerprint, nil
		}
	}
	return false, false, nil
}

// Trust records p as trusted with its files as they are now.
func (s TrustStore) Trust(p Folder) error {
	return s.update(func(list []Trusted) []Trusted {
		list = slices.DeleteFunc(list, func(t Trusted) bool { return t.Dir == p.Dir })
		return append(list, Trusted{Dir: p.Dir, Fingerprint: p.Fingerprint, Files: p.Files, At: time.Now().UTC()})
	})
}

// Revoke forgets dir; it reports whether it was trusted.
func (s TrustStore) Revoke(dir string) (bool, error) {
	dir = realPath(dir)
	found := false
	err := s.update(func(list []Trusted) []Trusted {
		return slices.DeleteFunc(list, func(t Trusted) bool {
			found = found || t.Dir == dir
			return t.Dir == dir
		})
	})
	return found, err
}

// update changes the store under an exclusive lock and writes it whole to
// a temporary file renamed over the old one, so a reader never sees half
// a store and two writers do not lose each other's change.
func (s TrustStore) update(change func([]Trusted) []Trusted) error {
	if s.Path == "" {
		return errors.New("no state directory to keep trusted folders in (set HOME or XDG_STATE_HOME)")
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return err
	}
	lock, err := os.OpenFile(s.Path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	list, err := s.List()
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(trustFile{Folders: change(list)}, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.Path), ".trust-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), s.Path)
}

// LocalPath returns the file of the MCP servers a user added to one
// project for themselves (llmrt mcp add --scope local): in the user's
// state, keyed by the project's real path, never in the repository.
func LocalPath(getenv func(string) string, dir string) string {
	state := StateDir(getenv)
	if state == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(realPath(dir)))
	return filepath.Join(state, "projects", hex.EncodeToString(sum[:8])+".json")
}
