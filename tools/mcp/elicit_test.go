package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/llmrt/llmrt/tools"
)

// TestElicitForm: a requested schema becomes questions, required ones
// first, each with the server's default as its first choice, and an answer becomes content of the schema's
// types, or a reason to ask again, or a decline.
func TestElicitForm(t *testing.T) {
	var schema map[string]any // as mcp-go hands it over
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{
		"zone":{"type":"string","oneOf":[{"const":"eu","title":"Europe"},{"const":"us","title":"Americas"}],"default":"us"},
		"count":{"type":"integer","minimum":1},
		"ratio":{"type":"number","default":0.5},
		"tags":{"type":"array","items":{"enum":["a","b"]}},
		"note":{"type":"string"}},"required":["count"]}`), &schema); err != nil {
		t.Fatal(err)
	}
	p := mcp.ElicitationParams{Message: "Set up", RequestedSchema: schema}
	f, err := parseForm("srv", p)
	if err != nil {
		t.Fatal(err)
	}
	in := f.input("")
	var ids []string
	for _, q := range in.Questions {
		ids = append(ids, q.ID)
	}
	if got, want := strings.Join(ids, ","), "count,note,ratio,tags,zone"; got != want {
		t.Fatalf("question order %s, want %s", got, want)
	}
	if o := in.Questions[4].Options; o[0].ID != optDefault || o[0].Label != "Americas" {
		t.Errorf("zone options %+v, want the default (Americas) first", o)
	}
	if !in.AllowSkip || !in.Questions[0].AllowOther || in.Questions[4].AllowOther {
		t.Errorf("skip %v, count other %v, zone other %v; want skip, free text for count, not zone", in.AllowSkip, in.Questions[0].AllowOther, in.Questions[4].AllowOther)
	}
	for _, q := range in.Questions {
		if len(q.Options) < 2 && !(q.AllowOther && len(q.Options) == 1) {
			t.Errorf("question %s has %d options (free text %v), want two, or one and free text", q.ID, len(q.Options), q.AllowOther)
		}
	}
	cases := []struct {
		name     string
		selected map[string][]string
		other    map[string]string
		want     string // content as JSON, "decline", or the error's text
	}{
		{"defaults and text", map[string][]string{"zone": {optDefault}, "ratio": {optDefault}, "tags": {"v1"}, "note": {optEmpty}},
			map[string]string{"count": "3"}, `{"count":3,"ratio":0.5,"tags":["b"],"zone":"us"}`},
		{"a choice and typed text", map[string][]string{"zone": {"v0"}}, map[string]string{"count": "7", "ratio": "2.5", "tags": "a, b"},
			`{"count":7,"ratio":2.5,"tags":["a","b"],"zone":"eu"}`},
		{"not a whole number", nil, map[string]string{"count": "many"}, `count: "many" is not a whole number`},
		{"required left empty", map[string][]string{"count": {optEmpty}}, nil, "count is required"},
		{"decline", map[string][]string{"count": {optDecline}}, nil, "decline"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			content, declined, err := f.content(tools.Answer{Selected: tc.selected, Other: tc.other})
			got := ""
			switch {
			case declined:
				got = "decline"
			case err != nil:
				got = err.Error()
			default:
				b, _ := json.Marshal(content)
				got = string(b)
			}
			if got != tc.want {
				t.Errorf("selected %v other %v: got %s, want %s", tc.selected, tc.other, got, tc.want)
			}
		})
	}
	if q := f.input("count is required").Questions[0].Question; !strings.Contains(q, "count is required") || !strings.Contains(q, "MCP server srv asks: Set up") {
		t.Errorf("asked again as %q, want the reason and the server's message", q)
	}
}
