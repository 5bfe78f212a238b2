package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
)

// pieces cuts s into pieces of n bytes, the way a model streams a key a
// few characters at a time.
func pieces(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

// joined returns the deltas of events of type typ (and call index idx for
// tool_call_delta) joined, as a reader of the stream would join them.
func joined(evs []engine.Event, typ engine.EventType, idx int) string {
	var b strings.Builder
	for _, ev := range evs {
		if ev.Type == typ && (ev.Call == nil || ev.Call.Index == idx) {
			b.WriteString(ev.Delta)
		}
	}
	return b.String()
}

// TestStreamRedaction: a key streamed a few bytes per delta never shows
// whole in the joined deltas of any stream (text, reasoning, each tool
// call's arguments, the answer, a sub-run's text), and text that is no
// secret passes through unchanged, held back no longer than the next
// event of its run.
func TestStreamRedaction(t *testing.T) {
	const key = "sk-proj-SECRETSECRET1234"
	r := &redactor{}
	r.add(key, "another-secret-value")
	text := "the key is " + key + ", not sk-proj-SECRET or sk-, and " + key + key + " twice; ends with sk-pr"
	want := strings.ReplaceAll(text, key, redacted)
	for _, size := range []int{1, 3, 4, 7, 64} {
		s := r.stream()
		var got []engine.Event
		emit := func(ev engine.Event) {
			var out []engine.Event
			s.events(ev, func(e engine.Event) { out = append(out, e) })
			for _, o := range out {
				if strings.Contains(o.Delta, key) {
					t.Errorf("size %d: a delta holds the key: %q", size, o.Delta)
				}
			}
			got = append(got, out...)
		}
		emit(engine.Event{Type: engine.EventRunStart, RunID: "r1"})
		emit(engine.Event{Type: engine.EventRunStart, RunID: "sub", ParentID: "r1"})
		for i, p := range pieces(text, size) {
			emit(engine.Event{Type: engine.EventTextDelta, RunID: "r1", Delta: p})
			emit(engine.Event{Type: engine.EventReasoningDelta, RunID: "r1", Delta: p})
			emit(engine.Event{Type: engine.EventTextDelta, RunID: "sub", ParentID: "r1", Delta: p})
			call := &engine.CallInfo{Index: 1}
			if i == 0 {
				call.ID, call.Name = "c1", "final_answer"
			}
			emit(engine.Event{Type: engine.EventToolCallDelta, RunID: "r1", Call: call, Delta: p})
			emit(engine.Event{Type: engine.EventToolCallDelta, RunID: "r1", Call: &engine.CallInfo{Index: 0}, Delta: p})
			emit(engine.Event{Type: engine.EventAnswerDelta, RunID: "r1", Delta: p})
		}
		emit(engine.Event{Type: engine.EventCompleted, RunID: "sub", ParentID: "r1"})
		n := len(got)
		emit(engine.Event{Type: engine.EventAssistantMessage, RunID: "r1"})
		if got[len(got)-1].Type != engine.EventAssistantMessage {
			t.Fatalf("size %d: the assistant message should come after the held deltas", size)
		}
		for _, ev := range got[n : len(got)-1] {
			if ev.RunID != "r1" || ev.Delta == "" {
				t.Errorf("size %d: before the message, only r1's held deltas should be flushed, got %+v", size, ev)
			}
		}
		emit(engine.Event{Type: engine.EventCompleted, RunID: "r1"})
		for _, c := range []struct {
			typ engine.EventType
			idx int
		}{{engine.EventTextDelta, 0}, {engine.EventReasoningDelta, 0}, {engine.EventAnswerDelta, 0}, {engine.EventToolCallDelta, 0}, {engine.EventToolCallDelta, 1}} {
			var evs []engine.Event
			for _, ev := range got {
				if ev.ParentID == "" {
					evs = append(evs, ev)
				}
			}
			if j := joined(evs, c.typ, c.idx); j != want {
				t.Errorf("size %d: joined %s[%d]:\ngot  %q\nwant %q", size, c.typ, c.idx, j, want)
			}
		}
		var sub []engine.Event
		for _, ev := range got {
			if ev.RunID == "sub" {
				sub = append(sub, ev)
			}
		}
		if j := joined(sub, engine.EventTextDelta, 0); j != want {
			t.Errorf("size %d: the sub-run's text:\ngot  %q\nwant %q", size, j, want)
		}
		for _, ev := range got {
			if ev.Type == engine.EventToolCallDelta && ev.Call.Index == 1 && ev.Call.ID == "c1" {
				goto named
			}
		}
		t.Errorf("size %d: the call's id and name were lost", size)
	named:
		for _, ev := range got {
			if ev.Type != engine.EventToolCallDelta && strings.HasSuffix(string(ev.Type), "_delta") && ev.Delta == "" {
				t.Errorf("size %d: an empty %s was passed on", size, ev.Type)
			}
		}
		if len(s.held) != 0 {
			t.Errorf("size %d: state kept after the runs ended: %v", size, s.held)
		}
	}
}

// TestStreamRedactionPassesTextAtOnce: a delta that cannot be the start
// of a secret goes out whole in the same call.
func TestStreamRedactionPassesTextAtOnce(t *testing.T) {
	r := &redactor{}
	r.add("sk-proj-SECRETSECRET1234")
	s := r.stream()
	for _, d := range []string{"hello ", "world, ", "no keys here.\n"} {
		var out []engine.Event
		s.events(engine.Event{Type: engine.EventTextDelta, RunID: "r", Delta: d}, func(e engine.Event) { out = append(out, e) })
		if len(out) != 1 || out[0].Delta != d {
			t.Errorf("delta %q: got %+v, want it passed on as it is", d, out)
		}
	}
	var none *redactor
	var out []engine.Event
	none.stream().events(engine.Event{Type: engine.EventTextDelta, Delta: "sk-"}, func(e engine.Event) { out = append(out, e) })
	if len(out) != 1 || out[0].Delta != "sk-" {
		t.Errorf("a nil redactor should pass everything: %+v", out)
	}
}

// TestStreamedKeyStaysOutOfTraceAndStreamJSON: the scripted model's
// final_answer streams in 16-byte pieces, so a key in the answer spans
// several tool_call_delta and answer_delta events; neither the
// stream-json output nor the trace may carry it in any form a reader can
// join, while the answer itself (stdout in text mode) is not redacted.
func TestStreamedKeyStaysOutOfTraceAndStreamJSON(t *testing.T) {
	const key = "sk-stream-SECRET-0123456789abcdef"
	answer := "Here it is: " + key + " (keep it safe)"
	args, _ := json.Marshal(map[string]string{"answer": answer})
	script := `{"turns":[{"text":"I will print ` + key + ` now.","tool_calls":[{"name":"final_answer","arguments":` + string(args) + `}]}]}`
	h, _ := testHost(t, script, key)
	h.s.tracePath = filepath.Join(t.TempDir(), "trace.jsonl")
	out, err := newOutput("stream-json", h)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := h.runtime(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	conv, err := h.conversation(nil)
	if err != nil {
		t.Fatal(err)
	}
	turn := h.turn(rt, nil, out.event)
	user := providers.TextMessage(providers.RoleUser, "print the key")
	turn.Prompt = &user
	res, err := conv.Turn(t.Context(), turn)
	conv.Close()
	if err != nil || res.Status != engine.StatusCompleted {
		t.Fatalf("got %s, %v; want completed", res.Status, err)
	}
	if res.Output != answer {
		t.Errorf("the answer itself is not redacted: got %q, want %q", res.Output, answer)
	}
	trace, err := os.ReadFile(h.s.tracePath)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"stream-json": h.io.Out.(*bytes.Buffer).Bytes(), "trace": trace} {
		var evs []engine.Event
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			var l struct {
				engine.Event
				Inner *engine.Event `json:"event"`
			}
			if err := json.Unmarshal(line, &l); err != nil {
				t.Fatalf("%s: %v: %s", name, err, line)
			}
			ev := l.Event
			if l.Inner != nil {
				ev = *l.Inner
			}
			evs = append(evs, ev)
		}
		for _, c := range []struct {
			typ engine.EventType
			idx int
		}{{engine.EventTextDelta, 0}, {engine.EventToolCallDelta, 0}, {engine.EventAnswerDelta, 0}} {
			j := joined(evs, c.typ, c.idx)
			if j == "" {
				t.Errorf("%s: no %s events", name, c.typ)
			}
			if strings.Contains(j, key) || !strings.Contains(j, redacted) {
				t.Errorf("%s: the joined %s should hold the key redacted: %q", name, c.typ, j)
			}
		}
		if bytes.Contains(data, []byte(key)) {
			t.Errorf("%s holds the key:\n%s", name, data)
		}
	}
}

// BenchmarkRedactStream measures redacting a streamed reply with three
// known keys, none of them in it: per delta on its own, as llmrt did
// before (which let split keys through), and through the streaming
// redactor; "prefixes" is text full of "sk-", which the stream must hold
// back and look at again.
func BenchmarkRedactStream(b *testing.B) {
	r := &redactor{}
	r.add("sk-proj-aaaaaaaaaaaaaaaaaaaaaaaa", "sk-ant-bbbbbbbbbbbbbbbbbbbbbbbbbbb", "AIzaccccccccccccccccccccccccccccc")
	for _, tc := range []struct{ name, text string }{
		{"prose", strings.Repeat("The build passed and the tests ran green on every platform. ", 40)},
		{"prefixes", strings.Repeat("keys look like sk-proj-… or sk-ant-… and AIza… ", 40)},
	} {
		deltas := pieces(tc.text, 6)
		evs := make([]engine.Event, len(deltas))
		for i, d := range deltas {
			evs[i] = engine.Event{Type: engine.EventTextDelta, RunID: "r", Delta: d}
		}
		b.Run(tc.name+"/per-delta", func(b *testing.B) {
			b.SetBytes(int64(len(tc.text)))
			for b.Loop() {
				for _, ev := range evs {
					ev.Delta = string(r.bytes([]byte(ev.Delta))) // redactor.string before
				}
			}
		})
		b.Run(tc.name+"/stream", func(b *testing.B) {
			b.SetBytes(int64(len(tc.text)))
			n := 0
			count := func(engine.Event) { n++ }
			for b.Loop() {
				s := r.stream()
				for _, ev := range evs {
					s.events(ev, count)
				}
				s.events(engine.Event{Type: engine.EventCompleted, RunID: "r"}, count)
			}
		})
	}
}
