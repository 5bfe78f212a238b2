package engine_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers/scripted"
)

const seatQuestion = `{"questions":[{"id":"seat","header":"Seat","question":"Window or aisle?","options":[{"id":"window","label":"Window"},{"id":"aisle","label":"Aisle"}]}]}`

// bookingRuntime is the runtime of one process of a booking service: the
// scripted model "demo", paused runs kept in store, and interrupt mode.
func bookingRuntime(store session.Backend, interrupt engine.InterruptMode, turns ...scripted.Turn) *engine.Runtime {
	sp := scripted.New()
	sp.Register("demo", &scripted.Script{Turns: turns})
	rt, err := engine.New(engine.Config{
		Adapters:    []engine.Provider{sp},
		Defaults:    engine.Defaults{Model: "demo"},
		Checkpoints: session.NewCheckpoints(store),
		Interrupt:   interrupt,
	})
	if err != nil {
		log.Fatal(err)
	}
	return rt
}

func ExampleRuntime_Resume() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "sessions")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	// Session files on this machine; sqlstore.New(db, ...) instead keeps
	// paused runs in a database that several machines share.
	store := &session.Store{Dir: dir}
	script := []scripted.Turn{
		toolCall("ask_user_input", seatQuestion),
		toolCall("final_answer", `{"answer":"Booked a window seat."}`),
	}

	// One process: the run pauses on a question and gets a token.
	first := bookingRuntime(store, "", script...)
	res, err := first.Complete(ctx, engine.Request{
		BuiltIns: []string{engine.AskUserTool},
		Messages: []engine.Message{engine.UserMessage("Book me a seat.")},
	})
	if err != nil {
		log.Fatal(err)
	}
	first.Close()
	fmt.Println(res.Status, res.PauseKind)

	// Another process, later: the same store, the token and the answer.
	second := bookingRuntime(store, "", script...)
	defer second.Close()
	answer, err := engine.AnswerMessage(res.PendingCalls[0], engine.Answer{Selected: map[string][]string{"seat": {"window"}}})
	if err != nil {
		log.Fatal(err)
	}
	out, err := second.Resume(ctx, res.Token, engine.ResumeInput{Answers: []engine.Message{answer}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Status, out.Output)

	// A token resumes its pause once.
	_, err = second.Resume(ctx, res.Token, engine.ResumeInput{Answers: []engine.Message{answer}})
	fmt.Println(errors.Is(err, engine.ErrInvalidToken))
	// Output:
	// tool_calls question
	// completed Booked a window seat.
	// true
}

func ExampleRegisterRollback() {
	type seat struct {
		Row int `json:"row"`
	}
	reserve, err := engine.FuncTool("reserve_row", "Hold seats in a row.", engine.KindExternalAction,
		func(ctx context.Context, in seat) (engine.ToolResult, error) {
			fmt.Println("held row", in.Row)
			engine.RegisterRollback(ctx, "release the row", func(context.Context) error {
				fmt.Println("released row", in.Row)
				return nil
			})
			engine.RegisterRollback(ctx, "cancel the hold notice", func(context.Context) error {
				return errors.New("mail server down")
			})
			return engine.TextResult("row held"), nil
		})
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "sessions")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	// Under InterruptRestart a pause undoes the run's work first: the
	// seats are not held while the question waits for an answer.
	rt := bookingRuntime(&session.Store{Dir: dir}, engine.InterruptRestart,
		toolCall("reserve_row", `{"row":12}`), toolCall("ask_user_input", seatQuestion))
	defer rt.Close()
	res, err := rt.Complete(context.Background(), engine.Request{
		BuiltIns: []string{engine.AskUserTool},
		Tools:    []engine.Tool{reserve},
		Messages: []engine.Message{engine.UserMessage("Book me a seat.")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, res.PauseKind, res.Token != "")
	for _, d := range res.Diagnostics {
		fmt.Printf("%s: %s\n", d.Source, d.Message)
	}
	// Output:
	// held row 12
	// released row 12
	// tool_calls question true
	// rollback cancel the hold notice: failed: mail server down
}
