package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/llmrt/llmrt/providers"
)

// StatusIncomplete is the Summary status of a session whose last run has
// not ended: it is still running, or the process died.
const StatusIncomplete = "incomplete"

// Summary describes a session for listings (`llmrt sessions`).
type Summary struct {
	ID       string    `json:"id"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	Title    string    `json:"title,omitempty"`
	Provider string    `json:"provider,omitempty"`
	Model    string    `json:"model,omitempty"`
	WorkDir  string    `json:"workdir,omitempty"`
	// Status is the status of the last end line, StatusIncomplete when
	// messages follow it (or no run ended after the first message), and
	// empty for a session without messages.
	Status string `json:"status,omitempty"`
	// Messages counts the message lines.
	Messages int `json:"messages"`
	// Bytes is the size of the session's record.
	Bytes int64 `json:"bytes"`
	// Error says why the file could not be read; the other fields then
	// hold what was read before the problem.
	Error string `json:"error,omitempty"`
}

// List returns a summary of every session, most recently updated first. A
// missing directory means no sessions yet. Files that cannot be read are
// listed with Error set rather than hidden.
func (s *Store) List() ([]Summary, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("session: list: %w", err)
	}
	var out []Summary
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() || checkID(id) != nil {
			continue
		}
		out = append(out, s.summarize(id))
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Updated.Equal(out[j].Updated) {
			return out[i].Updated.After(out[j].Updated)
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

// Latest returns the most recently updated readable session whose work
// directory is workdir, for `chat --continue`. It wraps ErrNotFound when
// there is none.
func (s *Store) Latest(workdir string) (Summary, error) {
	sum, err := Latest(context.Background(), s, workdir)
	if errors.Is(err, ErrNotFound) {
		return sum, fmt.Errorf("session: no session for %s in %s: %w", workdir, s.Dir, ErrNotFound)
	}
	return sum, err
}

// summaryLine decodes only what a listing needs, skipping message content
// (which may hold large images) without building it.
type summaryLine struct {
	Type    string    `json:"type"`
	Time    time.Time `json:"time"`
	Meta    *Meta     `json:"meta"`
	Message *struct {
		Role providers.Role `json:"role"`
	} `json:"message"`
	End *struct {
		Status string `json:"status"`
	} `json:"end"`
}

// summarize reads one session file with the same torn-last-line rule as
// Load.
func (s *Store) summarize(id string) Summary {
	sum := Summary{ID: id}
	data, err := os.ReadFile(s.path(id))
	if err != nil {
		sum.Error = err.Error()
		return sum
	}
	sum.Bytes = int64(len(data))
	if st, err := os.Stat(s.path(id)); err == nil {
		sum.Updated = st.ModTime()
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n\r\t "), []byte{'\n'})
	var lastTime time.Time
	for i, raw := range lines {
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var l summaryLine
		if err := json.Unmarshal(raw, &l); err != nil {
			if i != len(lines)-1 || i == 0 {
				sum.Error = fmt.Sprintf("line %d: corrupt line: %v", i+1, err)
			}
			break
		}
		lastTime = l.Time
		switch {
		case l.Type == lineMeta && l.Meta != nil && i == 0:
			m := l.Meta
			sum.Created, sum.Title, sum.Provider, sum.Model, sum.WorkDir = m.Created, m.Title, m.Provider, m.Model, m.WorkDir
		case l.Type == lineMessage && l.Message != nil:
			sum.Messages++
			sum.Status = StatusIncomplete
		case l.Type == lineEnd && l.End != nil:
			sum.Status = l.End.Status
		}
	}
	if sum.Created.IsZero() && sum.Error == "" {
		sum.Error = "no meta line; not a session file"
	}
	if !lastTime.IsZero() {
		sum.Updated = lastTime
	}
	return sum
}
