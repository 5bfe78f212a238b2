package instructions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/llmrt/llmrt/tools"
)

// DefaultMaxBytes is the default cap on the instruction text taken from all
// files together.
const DefaultMaxBytes = 32 * 1024

// File names looked for in each directory, in order of preference.
const (
	AgentsFile = "AGENTS.md"
	ClaudeFile = "CLAUDE.md"
)

// Options say where to look for instruction files.
type Options struct {
	// WorkDir is the run's working directory. Files are read from the git
	// root above it (the nearest directory holding .git) down to WorkDir;
	// outside a git repository only WorkDir itself is read.
	WorkDir string
	// Home is the user's home directory, used when ConfigHome is empty.
	Home string
	// ConfigHome is $XDG_CONFIG_HOME; empty means Home/.config. The user
	// file is ConfigHome/llmrt/AGENTS.md.
	ConfigHome string
	// MaxBytes caps the text taken from all files together; zero means
	// DefaultMaxBytes.
	MaxBytes int
}

// File is one instruction file that was read.
type File struct {
	Path string `json:"path"`
	// Bytes is how much of it went into the system prompt.
	Bytes int `json:"bytes"`
	// Truncated reports that the cap cut it short (or left it out, when
	// Bytes is zero).
	Truncated bool `json:"truncated,omitempty"`
}

// Set is the instruction text of a run and the files it came from. It is
// immutable once loaded and safe for concurrent use.
type Set struct {
	files []File
	text  string
	diags []tools.Diagnostic
}

// Load reads the instruction files for o. Missing files are normal and
// silent; unreadable or non-UTF-8 files and the cap are diagnostics.
func Load(o Options) *Set {
	budget := o.MaxBytes
	if budget <= 0 {
		budget = DefaultMaxBytes
	}
	s := &Set{}
	var parts []string
	for _, p := range candidates(o) {
		data, size, err := readCapped(p, budget)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			s.diags = append(s.diags, tools.Diagnostic{Source: p, Message: "instructions not read: " + err.Error()})
			continue
		}
		text := strings.TrimSpace(string(data))
		if text == "" && size <= budget {
			continue
		}
		f := File{Path: p, Bytes: len(data), Truncated: size > len(data)}
		if f.Truncated {
			s.diags = append(s.diags, tools.Diagnostic{Source: p, Message: capMessage(f, size, budget, o)})
		}
		budget -= len(data)
		s.files = append(s.files, f)
		if text != "" {
			parts = append(parts, "## "+p+"\n\n"+text)
		}
	}
	if len(parts) > 0 {
		s.text = header + strings.Join(parts, "\n\n") + "\n"
	}
	return s
}

const header = "# Project instructions\n\n" +
	"These instruction files apply to this work, outermost first: a later (more specific) file refines an earlier one.\n\n"

func capMessage(f File, size, budget int, o Options) string {
	limit := o.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if f.Bytes == 0 {
		return fmt.Sprintf("instructions left out: the %d KiB cap on instruction files was used up by earlier files", limit/1024)
	}
	return fmt.Sprintf("instructions truncated to %d of %d bytes: the instruction files pass the %d KiB cap", f.Bytes, size, limit/1024)
}

// readCapped reads at most budget bytes of the regular file at p (cut on
// a rune boundary) and returns them with the file's size. The open never
// blocks: a named pipe called AGENTS.md would otherwise wait for a writer
// and hang the program before its run starts.
func readCapped(p string, budget int) ([]byte, int, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !info.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(budget)))
	if err != nil {
		return nil, 0, err
	}
	size := int(info.Size())
	if size < len(data) {
		size = len(data) // grew since the stat
	}
	if size > len(data) {
		cut := len(data)
		for cut > 0 && cut > len(data)-utf8.UTFMax && !utf8.Valid(data[:cut]) {
			cut--
		}
		data = data[:cut]
	}
	if !utf8.Valid(data) {
		return nil, 0, fmt.Errorf("file is not valid UTF-8")
	}
	return data, size, nil
}

// Files returns the files read, in the order their text appears.
func (s *Set) Files() []File { return s.files }

// Instructions returns the text for the managed system prompt, empty when
// no file was found.
func (s *Set) Instructions() string { return s.text }

// Diagnostics returns the problems found: unreadable files, the cap.
func (s *Set) Diagnostics() []tools.Diagnostic { return s.diags }

// Tools returns nothing: a Set is a tool source only for its instructions.
func (s *Set) Tools(context.Context) ([]tools.Tool, error) { return nil, nil }
