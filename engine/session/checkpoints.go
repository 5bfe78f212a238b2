package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
)

// Checkpoints keeps the engine's paused runs as sessions of a Backend: it
// is the engine.CheckpointStore of Config.Checkpoints. A run that pauses
// becomes a session (meta, its messages, an end record holding the
// pause's token); each Resume that makes progress adds its answers, its
// messages and its own end record to the same session, so the session
// holds the whole conversation across pauses and processes, and lists
// and loads like any other.
//
// A token is the session id, a dot and 32 random hex digits. It resumes
// its pause while the session's last record is that pause's end; Claim
// holds the session's Lock until Save, Finish or Release, so of two
// processes racing to resume one token, one gets it and the other
// engine.ErrTokenInUse, then engine.ErrInvalidToken once the first has
// made progress.
//
// Claims are held by this value: Save, Finish and Release of a token go
// to the Checkpoints that claimed it. It is safe for concurrent use.
type Checkpoints struct {
	b      Backend
	mu     sync.Mutex
	claims map[string]*claim // by token
}

// claim is a pause this process holds.
type claim struct {
	id     string
	unlock func() error
	msgs   []engine.Message // the conversation the pause held
}

var _ engine.CheckpointStore = (*Checkpoints)(nil)

// NewCheckpoints returns a checkpoint store keeping paused runs in b.
func NewCheckpoints(b Backend) *Checkpoints {
	return &Checkpoints{b: b, claims: make(map[string]*claim)}
}

// options is what a checkpoint's session records of the run's settings
// in Meta.Options, in the form llmrt's own config layer uses, so the
// command line resumes such a session with the same tools.
type options struct {
	Tools *string `json:"tools,omitempty"`
}

// Save keeps a paused run: a new session, or the claimed one it resumed.
// When that fails the claim stands, for the resumer to release.
func (c *Checkpoints) Save(ctx context.Context, cp engine.Checkpoint) (string, error) {
	if cp.Resumed == "" {
		return c.saveNew(ctx, cp)
	}
	c.mu.Lock()
	cl := c.claims[cp.Resumed]
	c.mu.Unlock()
	if cl == nil {
		return "", fmt.Errorf("session: token %s is not claimed here", cp.Resumed)
	}
	token := newToken(cl.id)
	if err := c.append(ctx, cl, cp.Messages, endOfPause(cp, token)); err != nil {
		return "", err
	}
	if _, err := c.take(cp.Resumed); err != nil {
		return "", err
	}
	if err := cl.unlock(); err != nil {
		return token, fmt.Errorf("session %s: the pause is kept, but unlock: %w", cl.id, err)
	}
	return token, nil
}

func (c *Checkpoints) saveNew(ctx context.Context, cp engine.Checkpoint) (string, error) {
	meta := Meta{Provider: cp.Provider, Model: cp.Model, WorkDir: cp.WorkDir, Title: firstPrompt(cp.Messages)}
	if cp.BuiltIns != nil {
		tools := strings.Join(cp.BuiltIns, ",")
		if tools == "" {
			tools = "none"
		}
		meta.Options, _ = json.Marshal(options{Tools: &tools}) // a string always encodes
	}
	w, err := c.b.CreateContext(ctx, meta)
	if err != nil {
		return "", err
	}
	token := newToken(w.ID())
	err = writeAll(w, cp.Messages, endOfPause(cp, token))
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return token, nil
}

// Claim locks the token's session and checks that its last record is the
// token's pause.
func (c *Checkpoints) Claim(ctx context.Context, token string) (engine.Checkpoint, error) {
	id, ok := tokenSession(token)
	if !ok {
		return engine.Checkpoint{}, engine.ErrInvalidToken
	}
	unlock, err := c.b.Lock(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return engine.Checkpoint{}, fmt.Errorf("session %s: %w", id, engine.ErrInvalidToken)
	case errors.Is(err, ErrLocked):
		return engine.Checkpoint{}, fmt.Errorf("session %s: %w", id, engine.ErrTokenInUse)
	case err != nil:
		return engine.Checkpoint{}, err
	}
	s, err := c.load(ctx, id, token)
	if err != nil {
		return engine.Checkpoint{}, errors.Join(err, unlock())
	}
	c.mu.Lock()
	c.claims[token] = &claim{id: id, unlock: unlock, msgs: s.Messages}
	c.mu.Unlock()
	return checkpointOf(s, token), nil
}

// Lookup returns the pause token names without claiming it, for a host
// that shows its questions before it has the answers. Its error matches
// engine.ErrInvalidToken when the token names no pause.
func (c *Checkpoints) Lookup(ctx context.Context, token string) (engine.Checkpoint, error) {
	id, ok := tokenSession(token)
	if !ok {
		return engine.Checkpoint{}, engine.ErrInvalidToken
	}
	s, err := c.load(ctx, id, token)
	if errors.Is(err, ErrNotFound) {
		err = fmt.Errorf("session %s: %w", id, engine.ErrInvalidToken)
	}
	if err != nil {
		return engine.Checkpoint{}, err
	}
	return checkpointOf(s, token), nil
}

// load reads session id and checks that its last record is the pause of
// token.
func (c *Checkpoints) load(ctx context.Context, id, token string) (*Session, error) {
	s, err := c.b.LoadContext(ctx, id)
	if err != nil {
		return nil, err
	}
	if s.Last == nil || s.Last.Token != token || s.Last.Status != engine.StatusToolCalls ||
		len(s.Pending) == 0 || len(s.Pending) != len(s.Last.Pending) {
		return nil, fmt.Errorf("session %s: %w", id, engine.ErrInvalidToken)
	}
	return s, nil
}

// Finish appends the resumed run's messages and its end record.
func (c *Checkpoints) Finish(ctx context.Context, token string, res engine.Result) error {
	cl, err := c.take(token)
	if err != nil {
		return err
	}
	end := endOf(&res)
	end.Token, end.PauseKind = "", ""
	err = c.append(ctx, cl, res.Messages, end)
	if uerr := cl.unlock(); err == nil {
		err = uerr
	}
	return err
}

// Release unlocks the token's session, recording nothing.
func (c *Checkpoints) Release(_ context.Context, token string) error {
	cl, err := c.take(token)
	if err != nil {
		return err
	}
	return cl.unlock()
}

// take removes and returns the claim of token.
func (c *Checkpoints) take(token string) (*claim, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cl := c.claims[token]
	if cl == nil {
		return nil, fmt.Errorf("session: token %s is not claimed here", token)
	}
	delete(c.claims, token)
	return cl, nil
}

// append adds to the claimed session what msgs holds beyond the
// conversation it had, then end. A run that compacted its conversation no
// longer starts with it: the session then records the compacted
// conversation, as Writer.WriteEvent does.
func (c *Checkpoints) append(ctx context.Context, cl *claim, msgs []engine.Message, end *End) error {
	w, err := c.b.AppendContext(ctx, cl.id)
	if err != nil {
		return err
	}
	n := len(cl.msgs)
	if len(msgs) >= n && reflect.DeepEqual(msgs[:n], cl.msgs) {
		err = writeAll(w, msgs[n:], end)
	} else {
		err = w.writeLine(line{Type: lineCompacted, Time: now(), Compacted: msgs})
		if err == nil {
			err = writeAll(w, nil, end)
		}
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

func writeAll(w *Writer, msgs []engine.Message, end *End) error {
	for _, m := range msgs {
		if err := w.WriteMessage(m); err != nil {
			return err
		}
	}
	return w.writeLine(line{Type: lineEnd, Time: now(), End: end})
}

func endOfPause(cp engine.Checkpoint, token string) *End {
	return &End{Status: engine.StatusToolCalls, RunID: cp.RunID, Pending: cp.Pending, Usage: cp.Usage,
		Iterations: cp.Iterations, PauseKind: cp.Kind, Token: token}
}

// checkpointOf is the pause a loaded session ends in.
func checkpointOf(s *Session, token string) engine.Checkpoint {
	cp := engine.Checkpoint{
		Resumed: token, RunID: s.Last.RunID, Kind: s.Last.PauseKind,
		Provider: s.Meta.Provider, Model: s.Meta.Model, WorkDir: s.Meta.WorkDir,
		Messages: s.Messages, Pending: s.Pending, Usage: s.Last.Usage, Iterations: s.Last.Iterations,
	}
	var o options
	if json.Unmarshal(s.Meta.Options, &o) == nil && o.Tools != nil {
		switch t := *o.Tools; t {
		case "none":
			cp.BuiltIns = []string{}
		case "all":
			cp.BuiltIns = engine.AllBuiltIns()
		case "read-only":
			cp.BuiltIns = engine.DefaultBuiltIns()
		default:
			cp.BuiltIns = strings.Split(t, ",")
		}
	}
	return cp
}

func newToken(id string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return id + "." + hex.EncodeToString(b[:])
}

// tokenSession returns the session id of a token.
func tokenSession(token string) (string, bool) {
	i := strings.LastIndexByte(token, '.')
	if i <= 0 || len(token)-i-1 != 32 || checkID(token[:i]) != nil {
		return "", false
	}
	return token[:i], true
}

// firstPrompt is the text of the first user message, a new session's
// title.
func firstPrompt(msgs []engine.Message) string {
	for _, m := range msgs {
		if m.Role == providers.RoleUser {
			return m.Text()
		}
	}
	return ""
}
