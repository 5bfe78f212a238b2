package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

const goodAsk = `{"type":"single-select","allowSkip":true,"questions":[
 {"header":"Database","id":"db","question":"Which database?","options":[{"id":"pg","label":"PostgreSQL"},{"id":"my","label":"MySQL","description":"older"}],"allowOther":true},
 {"header":"Tests","id":"tests","question":"Write tests?","options":[{"id":"yes","label":"Yes"},{"id":"no","label":"No"}]}]}`

func TestAskUserValidate(t *testing.T) {
	cases := []struct {
		name string
		args string
		want string // "" means valid
	}{
		{"good payload", goodAsk, ""},
		{"multiple-select", `{"type":"multiple-select","questions":[{"header":"h","id":"q","question":"Q?","options":[{"id":"a","label":"A"},{"id":"b","label":"B"}]}]}`, ""},
		{"duplicate question ids", `{"questions":[{"header":"h","id":"q","question":"Q?","options":[{"id":"a","label":"A"},{"id":"b","label":"B"}]},{"header":"h","id":"q","question":"Again?","options":[{"id":"a","label":"A"},{"id":"b","label":"B"}]}]}`,
			`question id "q" is used by questions[0] and questions[1]`},
		{"duplicate option ids", `{"questions":[{"header":"h","id":"q","question":"Q?","options":[{"id":"a","label":"A"},{"id":"a","label":"B"}]}]}`,
			`question "q": option id "a" appears more than once`},
		{"one option", `{"questions":[{"header":"h","id":"q","question":"Q?","options":[{"id":"a","label":"A"}]}]}`,
			`question "q" has 1 option(s); give at least 2`},
		{"empty label", `{"questions":[{"header":"h","id":"q","question":"Q?","options":[{"id":"a","label":" "},{"id":"b","label":"B"}]}]}`,
			`question "q": option "a" has an empty label`},
		{"empty option id", `{"questions":[{"header":"h","id":"q","question":"Q?","options":[{"id":"","label":"A"},{"id":"b","label":"B"}]}]}`,
			`options[0] has an empty id`},
		{"empty question id", `{"questions":[{"header":"h","id":"","question":"Q?","options":[{"id":"a","label":"A"},{"id":"b","label":"B"}]}]}`,
			`questions[0] has an empty id`},
		{"empty question text", `{"questions":[{"header":"h","id":"q","question":"","options":[{"id":"a","label":"A"},{"id":"b","label":"B"}]}]}`,
			`question "q" has empty question text`},
		{"no questions", `{"questions":[]}`, "questions is empty"},
		{"bad type", `{"type":"pick-one","questions":[{"header":"h","id":"q","question":"Q?","options":[{"id":"a","label":"A"},{"id":"b","label":"B"}]}]}`, `type "pick-one"`},
		{"unknown field", `{"questions":[],"extra":1}`, "unknown field"},
	}
	tl := builtin(t, nil, Options{}, AskUserName)
	for _, c := range cases {
		err := tl.Validate(json.RawMessage(c.args))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: Validate = %v, want valid", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: Validate(%s) = %v, want an error containing %q", c.name, c.args, err, c.want)
		}
	}
}

func TestAskUserResolve(t *testing.T) {
	single, err := ParseAskInput(json.RawMessage(goodAsk))
	if err != nil {
		t.Fatal(err)
	}
	multi := single
	multi.Type, multi.AllowSkip = MultipleSelect, false
	cases := []struct {
		name string
		in   AskInput
		a    Answer
		want string // result JSON, or the error text when err is set
		err  bool
	}{
		{"single answers", single, Answer{Selected: map[string][]string{"db": {"pg"}, "tests": {"no"}}},
			`{"answers":{"db":"pg","tests":"no"},"skipped":false,"other":{}}`, false},
		{"other text", single, Answer{Selected: map[string][]string{"tests": {"yes"}}, Other: map[string]string{"db": " SQLite "}},
			`{"answers":{"tests":"yes"},"skipped":false,"other":{"db":"SQLite"}}`, false},
		{"skipped", single, Answer{Skipped: true}, `{"answers":{},"skipped":true,"other":{}}`, false},
		{"multi answers", multi, Answer{Selected: map[string][]string{"db": {"my", "pg"}, "tests": {"yes"}}, Other: map[string]string{"db": "and redis"}},
			`{"answers":{"db":["my","pg"],"tests":["yes"]},"skipped":false,"other":{"db":"and redis"}}`, false},
		{"unknown question", single, Answer{Selected: map[string][]string{"db": {"pg"}, "tests": {"no"}, "lang": {"go"}}},
			`unknown question id "lang"; valid question ids: "db", "tests"`, true},
		{"unknown option", single, Answer{Selected: map[string][]string{"db": {"oracle"}, "tests": {"no"}}},
			`question "db" has no option id "oracle"; valid option ids: "pg", "my"`, true},
		{"two in single-select", single, Answer{Selected: map[string][]string{"db": {"pg", "my"}, "tests": {"no"}}},
			`question "db" is single-select; choose exactly one option, got 2`, true},
		{"choice and other in single-select", single, Answer{Selected: map[string][]string{"db": {"pg"}, "tests": {"no"}}, Other: map[string]string{"db": "x"}},
			`either option "pg" or other text`, true},
		{"unanswered", single, Answer{Selected: map[string][]string{"db": {"pg"}}},
			`question "tests" is not answered; choose from option ids "yes", "no"`, true},
		{"other not allowed", single, Answer{Selected: map[string][]string{"db": {"pg"}}, Other: map[string]string{"tests": "maybe"}},
			`question "tests" does not allow a free-text (other) answer`, true},
		{"skip not allowed", multi, Answer{Skipped: true}, `cannot be skipped`, true},
		{"skip with choices", single, Answer{Skipped: true, Selected: map[string][]string{"db": {"pg"}}}, `skipped answer cannot also choose`, true},
		{"duplicate choice", multi, Answer{Selected: map[string][]string{"db": {"pg", "pg"}, "tests": {"no"}}}, `chosen twice`, true},
	}
	for _, c := range cases {
		res, err := c.in.Resolve(c.a)
		switch {
		case c.err && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: Resolve(%+v) error = %v, want one containing %q", c.name, c.a, err, c.want)
		case !c.err && err != nil:
			t.Errorf("%s: Resolve(%+v) error = %v, want %s", c.name, c.a, err, c.want)
		case !c.err && res.Content() != c.want:
			t.Errorf("%s: Resolve(%+v) = %s, want %s", c.name, c.a, res.Content(), c.want)
		}
	}
}
