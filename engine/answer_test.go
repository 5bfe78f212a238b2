package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// feedAll splits args into pieces of size n and returns what the scanner
// decoded.
func feedAll(args string, n int) string {
	var sc answerScanner
	var out strings.Builder
	for i := 0; i < len(args); i += n {
		out.WriteString(sc.Feed(args[i:min(i+n, len(args))]))
	}
	return out.String()
}

func TestAnswerScanner(t *testing.T) {
	cases := []string{
		`{"answer":"plain"}`,
		`{ "answer" : "spaced" , "evidenceRefs": ["a"] }`,
		`{"evidenceRefs":["x\"answer\":\"decoy"],"answer":"after refs"}`,
		`{"answer":"escapes \" \\ \/ \n \t \r \b \f done"}`,
		`{"answer":"unicode \u00e9 \u4e2d and a pair \ud83d\ude00!"}`,
		`{"answer":"raw utf-8 é 中 😀"}`,
		`{"nested":{"answer":"not this"},"answer":"this"}`,
		`{"answer":""}`,
	}
	for _, args := range cases {
		var want struct {
			Answer string `json:"answer"`
		}
		if err := json.Unmarshal([]byte(args), &want); err != nil {
			t.Fatalf("bad case %s: %v", args, err)
		}
		for n := 1; n <= len(args); n++ {
			if got := feedAll(args, n); got != want.Answer {
				t.Errorf("pieces of %d of %s: got %q, want %q", n, args, got, want.Answer)
				break
			}
		}
	}
}

// FuzzAnswerScanner checks that for any JSON object with a string answer,
// the streamed deltas equal the decoded answer whatever the split.
func FuzzAnswerScanner(f *testing.F) {
	f.Add("hello \"world\"\n", 3)
	f.Add("\u00e9\U0001F600", 1)
	f.Fuzz(func(t *testing.T, answer string, n int) {
		if n <= 0 || n > 64 {
			return
		}
		answer = strings.ToValidUTF8(answer, "")
		b, _ := json.Marshal(map[string]any{"evidenceRefs": []string{answer}, "answer": answer})
		if got := feedAll(string(b), n); got != answer {
			t.Errorf("split %d of %s: got %q, want %q", n, b, got, answer)
		}
	})
}
