package session

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/llmrt/llmrt/engine"
)

// Line types of a session file.
const (
	lineMeta    = "meta"
	lineMessage = "message"
	lineEnd     = "end"
	// lineCompacted holds the whole conversation a run continued from
	// after compacting it; resuming starts from the latest one.
	lineCompacted = "compacted"
)

// line is one line of a session file. Exactly one payload is set, matching
// Type; keeping the payload nested (rather than flattened next to "type")
// means a future Message field can never collide with the envelope.
type line struct {
	Type    string          `json:"type"`
	Time    time.Time       `json:"time"`
	Meta    *Meta           `json:"meta,omitempty"`
	Message *engine.Message `json:"message,omitempty"`
	End     *End            `json:"end,omitempty"`
	// Compacted is the payload of a compacted line.
	Compacted []engine.Message `json:"compacted,omitempty"`
}

// Meta describes a session. It is the first line of every session file and
// holds nothing secret: no API keys, no headers, and BaseURL only without
// user info, query or fragment.
type Meta struct {
	ID       string    `json:"id"`
	Created  time.Time `json:"created"`
	Provider string    `json:"provider,omitempty"`
	Model    string    `json:"model,omitempty"`
	// BaseURL is the provider endpoint when it is not the default one.
	BaseURL string `json:"base_url,omitempty"`
	WorkDir string `json:"workdir,omitempty"`
	// Title is the first user prompt, on one line, cut to about 80
	// characters.
	Title string `json:"title,omitempty"`
	// Version is the llmrt version that created the session.
	Version string `json:"version,omitempty"`
	// Options are the options the host ran the session with, in the
	// host's own form (llmrt records its config layer), so a resumed run
	// behaves like the one it continues. The store keeps them as they are;
	// like the rest of Meta they hold nothing secret.
	Options json.RawMessage `json:"options,omitempty"`
	// Parent, when set, is the session this one was branched from (by
	// llmrt rewind), and ParentTurn the turn it was cut before: this
	// session holds the parent's messages from before that turn.
	Parent     string `json:"parent,omitempty"`
	ParentTurn int    `json:"parent_turn,omitempty"`
}

// End records one terminal event: how a run ended, without its messages,
// which the session already holds line by line.
type End struct {
	Status engine.Status    `json:"status"`
	RunID  string           `json:"run_id,omitempty"`
	Output string           `json:"output,omitempty"`
	Error  *engine.RunError `json:"error,omitempty"`
	// Pending are the calls a tool_calls run left for the host to answer.
	Pending    []engine.ToolCall `json:"pending,omitempty"`
	Usage      engine.Usage      `json:"usage"`
	Iterations int               `json:"iterations"`
	Warnings   []engine.Warning  `json:"warnings,omitempty"`
	// PauseKind is what a tool_calls run waits for.
	PauseKind engine.PauseKind `json:"pause_kind,omitempty"`
	// Token resumes the pause this record ends in, with the engine's
	// Runtime.Resume and Checkpoints; set when the run had a checkpoint
	// store.
	Token string `json:"token,omitempty"`
}

func endOf(res *engine.Result) *End {
	return &End{
		Status: res.Status, RunID: res.RunID, Output: res.Output, Error: res.Error,
		Pending: res.PendingCalls, Usage: res.Usage, Iterations: res.Iterations, Warnings: res.Warnings,
		PauseKind: res.PauseKind, Token: res.Token,
	}
}

// now is the time of records that come from no event.
func now() time.Time { return time.Now() }

// maxTitle bounds Meta.Title in characters, so listings stay one line.
const maxTitle = 80

// title turns a prompt into a session title: whitespace collapsed to
// single spaces and cut to about 80 characters with an ellipsis.
func title(prompt string) string {
	s := strings.Join(strings.Fields(prompt), " ")
	if utf8.RuneCountInString(s) <= maxTitle {
		return s
	}
	r := []rune(s)[:maxTitle-1]
	return strings.TrimRight(string(r), " ") + "…"
}

// redactURL returns raw without user info, query and fragment, which is
// where credentials hide in endpoint URLs (https://user:key@host/v1?key=…).
// A value that does not parse is dropped entirely rather than stored as
// is, since it might be a secret.
func redactURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// newID returns a session id: UTC creation time, then random hex, so ids
// sort by creation time, never collide in practice (Create also refuses
// to overwrite) and are safe file names on every system.
func newID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// validID reports whether id is 1 to 128 letters, digits, dots,
// underscores and dashes, starting with a letter or digit. (A regular
// expression saying so cost 150 KB at every start: its bounded repeat
// compiles to 128 copies.)
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// checkID refuses ids that are not plain file names (empty, path
// separators, "..", leading dots), so an id from the command line can
// never reach outside the store directory.
func checkID(id string) error {
	if !validID(id) || strings.Contains(id, "..") {
		return fmt.Errorf("session: invalid session id %q (want a name like 20261122-153012-a1b2c3)", id)
	}
	return nil
}
