package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/llmrt/llmrt/tools"
)

// PauseKind says what a paused run (status tool_calls) waits for: the
// seed's pauseKind, on Result and so on the tool_calls event.
type PauseKind string

// Pause kinds.
const (
	// PauseQuestion: a person must answer an ask_user_input call (host
	// tools may wait beside it).
	PauseQuestion PauseKind = "question"
	// PauseHostTool: the host must run host-owned tools, and no person is
	// asked anything.
	PauseHostTool PauseKind = "host_tool"
)

// pauseKindOf is the kind of a pause on pending: a question as soon as one
// call asks a person, since the host cannot answer that by itself.
func pauseKindOf(pending []ToolCall) PauseKind {
	for _, c := range pending {
		if c.Name == AskUserTool {
			return PauseQuestion
		}
	}
	return PauseHostTool
}

// Resume error codes; each matches its sentinel with errors.Is.
const (
	// CodeInvalidToken: Resume was given a token its store does not hold
	// as a pause: unknown, or spent by an earlier Resume (the seed's
	// resume.invalidToken).
	CodeInvalidToken ErrorCode = "resume.invalid_token"
	// CodeTokenInUse: another Resume, in this process or another one
	// sharing the store, holds the pause right now.
	CodeTokenInUse ErrorCode = "resume.in_use"
)

var (
	// ErrInvalidToken matches the error of Resume with a token that names
	// no pause: unknown, or already resumed.
	ErrInvalidToken = errors.New("invalid resume token")
	// ErrTokenInUse matches the error of Resume while another resumer
	// holds the same pause.
	ErrTokenInUse = errors.New("resume token in use")
)

// Checkpoint is a paused run as a CheckpointStore keeps it: what another
// process needs to go on with it.
type Checkpoint struct {
	// Resumed, on Save, is the token of the pause this run resumed (held
	// through Claim), or "" for a run started by a request. On Claim it is
	// the token claimed.
	Resumed string `json:"resumed,omitempty"`
	RunID   string `json:"run_id"`
	// Kind is what the pause waits for.
	Kind PauseKind `json:"kind"`
	// Provider, Model, WorkDir and BuiltIns are the settings the run was
	// started with; a resumed run takes them where its request leaves
	// them zero.
	Provider string   `json:"provider,omitempty"`
	Model    string   `json:"model,omitempty"`
	WorkDir  string   `json:"workdir,omitempty"`
	BuiltIns []string `json:"built_ins,omitempty"`
	// Messages is the conversation the resumed run goes on from. Every
	// tool call in it has a result except Pending, the calls of its last
	// assistant message that wait for answers.
	Messages   []Message  `json:"messages"`
	Pending    []ToolCall `json:"pending"`
	Usage      Usage      `json:"usage"`
	Iterations int        `json:"iterations"`
}

// CheckpointStore keeps paused runs so that Runtime.Resume can go on with
// them by token, in this process or in any other sharing the store: the
// seed's durable resume store (its checkpoint adapter). engine/session
// implements it over sessions (session.NewCheckpoints), kept in JSONL files
// or, for several machines, in a SQL database (engine/session/sqlstore).
//
// A token resumes its pause once. Claim gives one resumer the pause; until
// that resumer calls Save (the run paused again), Finish (it ended) or
// Release (it made no progress), every other Claim of the token fails with
// ErrTokenInUse, and after Save or Finish with ErrInvalidToken. A claim
// whose process died lapses, as the store's locks do, and the pause can be
// claimed again.
type CheckpointStore interface {
	// Save keeps a run that paused and returns the token that resumes it.
	// With cp.Resumed set, the run continued that claimed pause: the same
	// conversation goes on, and once the pause is kept the claim ends. A
	// token returned with an error means the pause was kept and something
	// after it failed (a lock lost while held).
	Save(ctx context.Context, cp Checkpoint) (token string, err error)
	// Claim takes the pause token names for the caller alone and returns
	// it. Errors match ErrInvalidToken or ErrTokenInUse, or are the
	// store's own.
	Claim(ctx context.Context, token string) (Checkpoint, error)
	// Finish records how the resumed run of a claimed pause ended, when it
	// did not pause again, and ends the claim; the token is spent.
	Finish(ctx context.Context, token string, res Result) error
	// Release ends a claim and records nothing: the token resumes the
	// same pause again.
	Release(ctx context.Context, token string) error
}

// ResumeInput is what Resume takes besides the token: the seed's
// resumeInput.
type ResumeInput struct {
	// Answers are the tool messages answering the pause's pending calls,
	// one per call: AnswerMessage for a question, ToolResultMessage for a
	// host tool.
	Answers []Message
	// Request configures the resumed run like any request: host tools,
	// Asker, permissions, bounds. Its Messages are replaced by the paused
	// conversation with Answers added; a zero Provider, Model, WorkDir or
	// nil BuiltIns take the paused run's.
	Request Request
	// Observe, when set, receives the resumed run's events, as
	// CompleteWith's observer does.
	Observe Sink
}

// Resume goes on with the paused run token names, in this process or in
// another one sharing Config.Checkpoints: the seed's resume(token,
// resumeInput). The pause's pending calls get in.Answers and the loop runs
// as Complete's does; a new pause gets a new token, and the old one is
// spent once the run makes progress. A run that fails before the model
// replies leaves the pause as it was, so the token can be tried again.
//
// An unknown or spent token returns a *RunError matching ErrInvalidToken,
// and a failed Result whose Diagnostics say so (resume.invalid_token); a
// pause another resumer holds, ErrTokenInUse. Other errors are misuse
// (no Config.Checkpoints, answers missing), a store that failed, or an
// outcome the store could not record (the Result is then the run's).
func (rt *Runtime) Resume(ctx context.Context, token string, in ResumeInput) (Result, error) {
	store := rt.cfg.Checkpoints
	if store == nil {
		return resumeFailed(&RunError{Code: CodeInvalidRequest, Message: "Resume needs a checkpoint store (Config.Checkpoints)"})
	}
	if err := rt.checkOpen(); err != nil {
		return Result{}, err
	}
	cp, err := store.Claim(ctx, token)
	if err != nil {
		return resumeFailed(claimError(err))
	}
	req := in.Request
	req.Messages = append(append([]Message(nil), cp.Messages...), in.Answers...)
	req.Provider = cmpOr(req.Provider, cp.Provider)
	req.Model = cmpOr(req.Model, cp.Model)
	req.WorkDir = cmpOr(req.WorkDir, cp.WorkDir)
	if req.BuiltIns == nil {
		req.BuiltIns = cp.BuiltIns
	}
	// The emitter hands events over one at a time; progressed is read
	// once the loop has returned.
	var progressed atomic.Bool
	sink := func(ev Event) bool {
		if ev.ParentID == "" && ev.Type == EventAssistantMessage {
			progressed.Store(true)
		}
		if in.Observe != nil {
			in.Observe(ev)
		}
		return true
	}
	// The claim is settled even when the caller's context has ended: a
	// cancelled run's outcome is still recorded.
	settle := context.WithoutCancel(ctx)
	r, runCtx, err := rt.newRun(ctx, req, sink, true)
	if err != nil {
		if rerr := store.Release(settle, token); rerr != nil {
			return Result{}, errors.Join(err, rerr)
		}
		return Result{}, err
	}
	r.pause.resumes = token
	res := r.loop(runCtx)
	switch {
	case res.Status == StatusToolCalls && res.Token != "":
		// Save continued the session and ended the claim.
	case progressed.Load() && res.Status != StatusToolCalls:
		err = store.Finish(settle, token, res)
	default:
		// No progress, or a new pause the store could not keep: the old
		// pause stands.
		err = store.Release(settle, token)
	}
	if err != nil {
		return res, fmt.Errorf("resume: record the outcome: %w", err)
	}
	return res, nil
}

// claimError turns a store's Claim error into the RunError Resume
// returns.
func claimError(err error) *RunError {
	switch {
	case errors.Is(err, ErrInvalidToken):
		return &RunError{Code: CodeInvalidToken, Message: "no paused run has this token: it is unknown, or it was resumed already", Err: err}
	case errors.Is(err, ErrTokenInUse):
		return &RunError{Code: CodeTokenInUse, Message: "the paused run is being resumed by another caller", Err: err}
	}
	return &RunError{Code: CodeInvalidRequest, Message: "resume: " + err.Error(), Err: err}
}

// resumeFailed is the failed Result and error of a Resume that ran
// nothing; the Result's diagnostic names the problem by its code.
func resumeFailed(re *RunError) (Result, error) {
	return Result{
		Status:      StatusFailed,
		Error:       re,
		Diagnostics: []Diagnostic{{Source: string(re.Code), Message: re.Message}},
	}, re
}

// AnswerMessage returns the tool message answering a pending
// ask_user_input call with a, checked against the call's questions (see
// AskInput.Resolve), for ResumeInput.Answers or for appending to
// Result.Messages.
func AnswerMessage(call ToolCall, a Answer) (Message, error) {
	in, err := tools.ParseAskInput(json.RawMessage(call.Arguments))
	if err != nil {
		return Message{}, fmt.Errorf("answer call %s: %w", call.ID, err)
	}
	res, err := in.Resolve(a)
	if err != nil {
		return Message{}, fmt.Errorf("answer call %s: %w", call.ID, err)
	}
	return ToolResultMessage(call, res.Content(), false), nil
}
