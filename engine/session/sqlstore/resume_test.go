package sqlstore_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/engine/session/sqlstore"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// The acceptance test runs each step in its own process: this test binary
// started again with LLMRT_SQLSTORE_STEP set runs TestHelperProcess only,
// which does the step on the database LLMRT_SQLSTORE_DB names and prints
// its outcome as one JSON line.

const langAsk = `{"questions":[{"id":"lang","header":"Language","question":"Which?","options":[{"id":"go","label":"Go"},{"id":"rs","label":"Rust"}]}]}`

// outcome is what a step prints.
type outcome struct {
	Status      engine.Status       `json:"status"`
	Token       string              `json:"token,omitempty"`
	PauseKind   engine.PauseKind    `json:"pause_kind,omitempty"`
	Output      string              `json:"output,omitempty"`
	Code        engine.ErrorCode    `json:"code,omitempty"`
	Diagnostics []engine.Diagnostic `json:"diagnostics,omitempty"`
	Invalid     bool                `json:"invalid_token,omitempty"`
	PID         int                 `json:"pid"`
}

// step runs one step in a new process and returns what it printed.
func step(t *testing.T, db, name, token string) outcome {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LLMRT_SQLSTORE_STEP="+name, "LLMRT_SQLSTORE_DB="+db, "LLMRT_SQLSTORE_TOKEN="+token)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("step %s: %v\nstdout: %s\nstderr: %s", name, err, out, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "OUTCOME "); ok {
			var o outcome
			if err := json.Unmarshal([]byte(line), &o); err != nil {
				t.Fatal(err)
			}
			return o
		}
	}
	t.Fatalf("step %s printed no outcome:\n%s", name, out)
	return outcome{}
}

// TestResumeInAnotherProcess is the acceptance test: one process pauses
// on ask_user_input with the SQL store, a second resumes by token and
// completes, and an unknown token returns the invalid-token error and
// diagnostic.
func TestResumeInAnotherProcess(t *testing.T) {
	db := filepath.Join(t.TempDir(), "llmrt.db")
	paused := step(t, db, "pause", "")
	if paused.Status != engine.StatusToolCalls || paused.Token == "" || paused.PauseKind != engine.PauseQuestion {
		t.Fatalf("first process: got %+v, want a question pause with a token", paused)
	}
	done := step(t, db, "resume", paused.Token)
	if done.Status != engine.StatusCompleted || done.Output != "Go it is" || done.PID == paused.PID {
		t.Fatalf("second process: got %+v, want completed %q in another process", done, "Go it is")
	}
	bad := step(t, db, "resume", "20260101-000000-abcdef.0123456789abcdef0123456789abcdef")
	if !bad.Invalid || bad.Code != engine.CodeInvalidToken || bad.Status != engine.StatusFailed ||
		len(bad.Diagnostics) != 1 || bad.Diagnostics[0].Source != string(engine.CodeInvalidToken) {
		t.Errorf("unknown token: got %+v, want the invalid-token error with its diagnostic", bad)
	}
	spent := step(t, db, "resume", paused.Token)
	if !spent.Invalid {
		t.Errorf("spent token: got %+v, want the invalid-token error", spent)
	}

	sdb, err := sql.Open("sqlite", dsn(db))
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	s, _ := sqlstore.New(sdb, sqlstore.Options{Dialect: sqlstore.SQLite})
	l, err := s.ListContext(context.Background())
	if err != nil || len(l) != 1 || l[0].Status != string(engine.StatusCompleted) || l[0].Title != "pick a language" {
		t.Errorf("sessions: got %+v (%v), want one, completed, titled by the prompt", l, err)
	}
}

// TestHelperProcess is one step of TestResumeInAnotherProcess when that
// test starts this binary again; otherwise it does nothing.
func TestHelperProcess(t *testing.T) {
	name := os.Getenv("LLMRT_SQLSTORE_STEP")
	if name == "" {
		return
	}
	o, err := runStep(name, os.Getenv("LLMRT_SQLSTORE_DB"), os.Getenv("LLMRT_SQLSTORE_TOKEN"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	o.PID = os.Getpid()
	b, _ := json.Marshal(o)
	fmt.Printf("OUTCOME %s\n", b)
	os.Exit(0)
}

func runStep(name, path, token string) (outcome, error) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return outcome{}, err
	}
	defer db.Close()
	store, err := sqlstore.New(db, sqlstore.Options{Dialect: sqlstore.SQLite})
	if err != nil {
		return outcome{}, err
	}
	if err := store.Init(ctx); err != nil {
		return outcome{}, err
	}
	sp := scripted.New()
	sp.Register("demo", &scripted.Script{Turns: []scripted.Turn{
		{ToolCalls: []scripted.Call{{Name: engine.AskUserTool, Arguments: json.RawMessage(langAsk)}}},
		{ToolCalls: []scripted.Call{{Name: engine.FinalAnswerTool, Arguments: json.RawMessage(`{"answer":"Go it is"}`)}}},
	}})
	cps := session.NewCheckpoints(store)
	rt, err := engine.New(engine.Config{
		Adapters:    []engine.Provider{sp},
		Defaults:    engine.Defaults{Model: "demo"},
		Checkpoints: cps,
	})
	if err != nil {
		return outcome{}, err
	}
	defer rt.Close()
	var res engine.Result
	switch name {
	case "pause":
		res, err = rt.Complete(ctx, engine.Request{
			BuiltIns: []string{engine.AskUserTool},
			Messages: []engine.Message{engine.UserMessage("pick a language")},
		})
	case "resume":
		res, err = resume(ctx, rt, cps, token)
	default:
		return outcome{}, fmt.Errorf("unknown step %q", name)
	}
	o := outcome{Status: res.Status, Token: res.Token, PauseKind: res.PauseKind, Output: res.Output, Diagnostics: res.Diagnostics}
	if res.Error != nil {
		o.Code = res.Error.Code
	}
	if errors.Is(err, engine.ErrInvalidToken) {
		o.Invalid, err = true, nil
	}
	return o, err
}

// resume answers the pause's question as a host would: it looks the
// pause up by its token, picks Go, and resumes.
func resume(ctx context.Context, rt *engine.Runtime, cps *session.Checkpoints, token string) (engine.Result, error) {
	var answers []engine.Message
	if cp, err := cps.Lookup(ctx, token); err == nil {
		for _, call := range cp.Pending {
			m, err := engine.AnswerMessage(call, tools.Answer{Selected: map[string][]string{"lang": {"go"}}})
			if err != nil {
				return engine.Result{}, err
			}
			answers = append(answers, m)
		}
	}
	return rt.Resume(ctx, token, engine.ResumeInput{Answers: answers})
}
