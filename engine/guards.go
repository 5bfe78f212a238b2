package engine

import (
	"encoding/json"
	"sort"
	"strings"
)

// guards are the loop's bounds on a model that does not make progress
// (docs/design.md, "Bounds"), and the recovery note its next call
// carries. Only the loop goroutine touches them.
type guards struct {
	iter    int    // model calls made, toward Request.MaxIterations
	note    string // recovery note for the next call only
	empties int    // consecutive empty replies
	// recent holds the keys of the last batches of calls (batchKey), and
	// repeats counts the batches that repeated one of them.
	recent  []string
	repeats int
	// refused is what was done about a too-long refusal of this model
	// call.
	refused refusal
	// refusedFinishes counts the finishes the evidence rule of host
	// actions refused, and refusedFinish is the last one, trimmed.
	refusedFinishes int
	refusedFinish   string
	// texts counts the plain text replies in a row (a reply with calls
	// ends a row), and lastText is the run's latest one, trimmed.
	texts    int
	lastText string
}

// maxTextReplies is how many plain text replies in a row a run nudges
// toward final_answer before the last one ends it.
const maxTextReplies = 3

// recentBatches is how many earlier batches a batch is compared with.
const recentBatches = 4

// takeNote returns the recovery note for the call about to be made and
// clears it: a note rides on one call only.
func (g *guards) takeNote() string {
	n := g.note
	g.note = ""
	return n
}

// empty counts an empty reply and returns how many came in a row.
func (g *guards) empty() int {
	g.empties++
	return g.empties
}

// repeated reports whether a batch of calls repeats one of the recent
// batches, and how many repeats the run has had counting this one; a
// batch that is new joins the recent ones.
func (g *guards) repeated(key string) (int, bool) {
	for _, k := range g.recent {
		if k == key {
			g.repeats++
			return g.repeats, true
		}
	}
	g.recent = append(g.recent, key)
	if len(g.recent) > recentBatches {
		g.recent = g.recent[1:]
	}
	return g.repeats, false
}

// plainFinish counts a plain text reply that the finish policy did not
// accept and reports whether it ends the run anyway (docs/design.md,
// "Finishing"): it repeats the run's previous text reply, or it is the
// third in a row. A model that answers in text without final_answer ends
// in bounded time.
func (g *guards) plainFinish(text string) bool {
	t := strings.TrimSpace(text)
	repeat := g.lastText != "" && t == g.lastText
	g.texts++
	g.lastText = t
	return repeat || g.texts >= maxTextReplies
}

// batchKey identifies a batch of calls by name and canonical arguments
// (object keys sorted), independent of call order.
func batchKey(calls []ToolCall) string {
	keys := make([]string, len(calls))
	for i, c := range calls {
		keys[i] = c.Name + "\x00" + canonicalJSON(c.Arguments)
	}
	sort.Strings(keys)
	return strings.Join(keys, "\x01")
}

func canonicalJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return strings.TrimSpace(s)
	}
	b, err := json.Marshal(v) // map keys are emitted sorted
	if err != nil {
		return s
	}
	return string(b)
}
