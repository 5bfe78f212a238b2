package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// TestPlainTextEndsInBoundedTime: under the evidence policy a model that
// answers in plain text is nudged toward final_answer, but a text reply
// that repeats the run's previous one, or the third in a row, ends the
// run completed with that text and an unconfirmed_finish warning
// (docs/design.md, "Finishing"). Replies with tool calls break a row; a
// reply cut by the length limit is no answer at all.
func TestPlainTextEndsInBoundedTime(t *testing.T) {
	cases := []struct {
		name   string
		turns  []scripted.Turn
		output string
		calls  int
		warned bool
	}{
		{
			name:   "the same text twice ends the run",
			turns:  []scripted.Turn{say("The answer is 42."), say("  The answer is 42.\n"), answer("never")},
			output: "  The answer is 42.\n", calls: 2, warned: true,
		},
		{
			name:   "the third text reply in a row ends the run",
			turns:  []scripted.Turn{say("It is 42."), say("As I said, 42."), say("42."), answer("never")},
			output: "42.", calls: 3, warned: true,
		},
		{
			name:   "text then final_answer is a normal finish",
			turns:  []scripted.Turn{say("The answer is 42."), answer("The answer is 42.")},
			output: "The answer is 42.", calls: 2,
		},
		{
			name:   "a tool call breaks the row",
			turns:  []scripted.Turn{say("Let me look."), call("peek", `{}`), say("Looking closer."), call("peek", `{"x":"1"}`), say("Almost."), answer("done")},
			output: "done", calls: 6,
		},
		{
			name:   "a repeat after a tool call still ends the run",
			turns:  []scripted.Turn{say("Let me look."), call("peek", `{}`), say("Let me look."), answer("never")},
			output: "Let me look.", calls: 3, warned: true,
		},
		{
			name:   "a cut reply does not count toward the row",
			turns:  []scripted.Turn{say("One."), {Text: "Two, cut", Stop: "length"}, say("Three."), answer("done")},
			output: "done", calls: 4,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.turns...)
			ct := &counterTool{}
			req := h.request("what is 6*7?")
			req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
			res := h.complete(req)
			if res.Status != engine.StatusCompleted || res.Output != tc.output {
				t.Fatalf("got %s %q (error %+v), want completed %q", res.Status, res.Output, res.Error, tc.output)
			}
			if h.rec.calls() != tc.calls {
				t.Errorf("model calls: got %d, want %d", h.rec.calls(), tc.calls)
			}
			warned := false
			for _, w := range res.Warnings {
				warned = warned || w.Code == engine.WarningUnconfirmedFinish
			}
			if warned != tc.warned {
				t.Errorf("unconfirmed_finish warning: got %v, want %v (warnings %+v)", warned, tc.warned, res.Warnings)
			}
			assertReplayable(t, res.Messages, nil)
		})
	}
}

// TestTruncatedToolCallIsNotRun: a reply the output limit cut inside a tool
// call's arguments runs none of its calls; each gets a result saying the
// reply was cut, and the next call carries a note to retry in smaller
// pieces. A model that keeps sending the same cut call meets the repeat
// bound.
func TestTruncatedToolCallIsNotRun(t *testing.T) {
	cutWrite := scripted.Turn{Stop: "length", ToolCalls: []scripted.Call{
		c("poke", `{}`),
		c("write_file", `{"path":"big.txt","content":"line 1\nline 2\nli`),
	}}
	t.Run("cut call is answered, not run", func(t *testing.T) {
		h := newHarness(t, cutWrite, answer("wrote it in parts"))
		ct := &counterTool{}
		req := h.request("write a big file")
		req.Tools = []engine.Tool{ct.tool("poke", tools.KindRead)}
		res := h.complete(req)
		if res.Status != engine.StatusCompleted || res.Output != "wrote it in parts" {
			t.Fatalf("got %s %q (error %+v)", res.Status, res.Output, res.Error)
		}
		if ct.count() != 0 {
			t.Errorf("poke ran %d times from a cut reply, want 0", ct.count())
		}
		if _, err := os.Stat(filepath.Join(h.dir, "big.txt")); err == nil {
			t.Errorf("big.txt was written from cut arguments")
		}
		got := toolResults(res.Messages)
		if len(got) < 2 || !strings.Contains(got[1], "write_file:true:") || !strings.Contains(got[1], "cut off") {
			t.Errorf("results: got %q, want both calls answered as cut off", got)
		}
		if note := lastSystem(h.rec.request(1)); !strings.Contains(note, "cut off") || !strings.Contains(note, "smaller") {
			t.Errorf("note after a cut call: got %q", note)
		}
		assertReplayable(t, res.Messages, nil)
	})
	t.Run("the same cut call again is a repeat", func(t *testing.T) {
		h := newHarness(t, cutWrite, cutWrite, cutWrite, answer("never"))
		ct := &counterTool{}
		req := h.request("write a big file")
		req.Tools = []engine.Tool{ct.tool("poke", tools.KindRead)}
		res := h.complete(req)
		if res.Status != engine.StatusFailed || res.Error.Code != engine.CodeRepeatedToolCalls || h.rec.calls() != 3 {
			t.Fatalf("got %s %+v after %d calls, want failed repeated_tool_calls after 3", res.Status, res.Error, h.rec.calls())
		}
		assertReplayable(t, res.Messages, nil)
	})
	t.Run("complete calls of a reply at the limit run", func(t *testing.T) {
		h := newHarness(t, scripted.Turn{Stop: "length", ToolCalls: []scripted.Call{c("poke", `{}`)}}, answer("poked"))
		ct := &counterTool{}
		req := h.request("poke")
		req.Tools = []engine.Tool{ct.tool("poke", tools.KindRead)}
		res := h.complete(req)
		if res.Status != engine.StatusCompleted || ct.count() != 1 {
			t.Fatalf("got %s and %d runs of poke, want completed and 1", res.Status, ct.count())
		}
	})
}
