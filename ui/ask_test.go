package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/tools"
)

var mono = NewPalette(false, true)

func singleInput() tools.AskInput {
	return tools.AskInput{Questions: []tools.Question{{Header: "Language", ID: "lang", Question: "Which language should the greeting use?",
		Options: []tools.Choice{{ID: "en", Label: "English", Description: "the default"}, {ID: "fr", Label: "French"}, {ID: "de", Label: "German"}}}}}
}

func multiInput() tools.AskInput {
	return tools.AskInput{Type: tools.MultipleSelect, AllowSkip: true, Questions: []tools.Question{
		{Header: "Formats", ID: "fmt", Question: "Which formats should the exported configuration be written in? Pick every one your deployment tooling reads.", AllowOther: true,
			Options: []tools.Choice{{ID: "json", Label: "JSON", Description: "read by everything"}, {ID: "yaml", Label: "YAML"}, {ID: "toml", Label: "TOML"}}},
		{Header: "Checks", ID: "checks", Question: "Which checks should run?",
			Options: []tools.Choice{{ID: "vet", Label: "go vet"}, {ID: "test", Label: "go test"}}},
	}}
}

// TestAskGolden: the screens of a single-select and a multiple-select
// question (with skip and other) at 80×24 and 120×40.
func TestAskGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		f := NewAskForm(singleInput(), mono)
		press(t, f, "down")
		golden(t, fmt.Sprintf("ask_single_%dx%d", size[0], size[1]), f.View(size[0], size[1]))

		f = NewAskForm(multiInput(), mono)
		press(t, f, "down", "space", "down")
		golden(t, fmt.Sprintf("ask_multi_%dx%d", size[0], size[1]), f.View(size[0], size[1]))
	}
}

// TestAskKeys drives the form with keys and checks the answer, the
// summary and what the screen says.
func TestAskKeys(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        tools.AskInput
		keys      []string
		done      bool
		cancelled bool
		answer    tools.Answer // checked when done and not cancelled
		summary   []string     // checked when not nil
		screen    []string     // on the screen after the keys
		notScreen []string
	}{
		{name: "arrows and enter", in: singleInput(), keys: []string{"down", "down", "up", "enter"}, done: true,
			answer: ans(sel("lang", "fr")), summary: []string{"✔ Language: French"}},
		{name: "j and k", in: singleInput(), keys: []string{"j", "j", "k", "k", "k", "j", "enter"}, done: true, answer: ans(sel("lang", "fr"))},
		{name: "down stops at the last entry", in: singleInput(), keys: []string{"down", "down", "down", "down", "enter"}, done: true, answer: ans(sel("lang", "de"))},
		{name: "a number chooses", in: singleInput(), keys: []string{"3"}, done: true, answer: ans(sel("lang", "de")), summary: []string{"✔ Language: German"}},
		{name: "a number past the list does nothing", in: singleInput(), keys: []string{"9"}, screen: []string{"› 1. English"}},
		{name: "space does not choose in single-select", in: singleInput(), keys: []string{"space"}, screen: []string{"Which language"}},
		{name: "numbers toggle in multi-select", in: multiInput(), keys: []string{"1", "3", "enter", "2", "enter"}, done: true,
			answer: ans(sel("fmt", "json", "toml"), sel("checks", "test")), summary: []string{"✔ Formats: JSON, TOML", "✔ Checks: go test"}},
		{name: "space toggles on and off", in: multiInput(), keys: []string{"space", "down", "space", "up", "space"},
			screen: []string{"› 1. [ ] JSON", "2. [x] YAML"}},
		{name: "enter confirms the toggled options", in: multiInput(), keys: []string{"space", "down", "space", "up", "space", "enter"},
			screen: []string{"✔ Formats: YAML", "Checks · 2 of 2", "› 1. [ ] go vet"}},
		{name: "x toggles too", in: multiInput(), keys: []string{"x", "enter"}, screen: []string{"✔ Formats: JSON"}},
		{name: "enter with nothing toggled stays", in: multiInput(), keys: []string{"enter"},
			screen: []string{"choose at least one: space toggles", "Formats · 1 of 2"}},
		{name: "the hint goes with the next key", in: multiInput(), keys: []string{"enter", "down"}, notScreen: []string{"choose at least one"}},
		{name: "skip entry", in: multiInput(), keys: []string{"end", "enter"}, done: true,
			answer: tools.Answer{Skipped: true, Selected: map[string][]string{}, Other: map[string]string{}}, summary: []string{"✔ Skipped"}},
		{name: "skip is not toggled by space", in: multiInput(), keys: []string{"end", "space", "5"}, screen: []string{"› 5. Skip"}},
		{name: "other text in single-select", in: withOther(singleInput()), keys: []string{"4", "type:Rust, or Go", "enter"}, done: true,
			answer: tools.Answer{Selected: map[string][]string{}, Other: map[string]string{"lang": "Rust, or Go"}}, summary: []string{`✔ Language: "Rust, or Go"`}},
		{name: "other text with toggled options", in: multiInput(), keys: []string{"down", "space", "4", "enter", "paste:INI files", "enter"},
			summary: []string{`✔ Formats: YAML, "INI files"`}},
		{name: "other alone in multi-select", in: multiInput(), keys: []string{"down", "down", "down", "enter", "type:INI", "enter", "1", "enter"}, done: true,
			answer: tools.Answer{Selected: map[string][]string{"checks": {"vet"}}, Other: map[string]string{"fmt": "INI"}}},
		{name: "other with empty text stays", in: withOther(singleInput()), keys: []string{"4", "enter"},
			screen: []string{"Your answer:", "type your answer, or Esc to go back to the list"}},
		{name: "esc leaves the editor and keeps the text", in: withOther(singleInput()), keys: []string{"4", "type:Rus", "esc"},
			screen: []string{"› 4. Other (type your own)"}, notScreen: []string{"Your answer:"}},
		{name: "the kept text is edited again", in: withOther(singleInput()), keys: []string{"4", "type:Rus", "esc", "enter", "type:t", "enter"}, done: true,
			answer: tools.Answer{Selected: map[string][]string{}, Other: map[string]string{"lang": "Rust"}}},
		{name: "esc opens the menu", in: multiInput(), keys: []string{"esc"},
			screen: []string{"1. Skip these questions", "› 2. Back to the question", "3. Cancel"}},
		{name: "menu: back", in: multiInput(), keys: []string{"esc", "enter"}, screen: []string{"› 1. [ ] JSON"}},
		{name: "menu: esc is back", in: multiInput(), keys: []string{"esc", "esc"}, screen: []string{"› 1. [ ] JSON"}},
		{name: "menu: skip", in: multiInput(), keys: []string{"esc", "up", "enter"}, done: true,
			answer: tools.Answer{Skipped: true, Selected: map[string][]string{}, Other: map[string]string{}}},
		{name: "menu: cancel", in: multiInput(), keys: []string{"esc", "down", "enter"}, done: true, cancelled: true, summary: []string{"✗ Cancelled"}},
		{name: "menu without skip", in: singleInput(), keys: []string{"esc"}, screen: []string{"› 1. Back to the question", "2. Cancel"},
			notScreen: []string{"Skip"}},
		{name: "menu: number", in: singleInput(), keys: []string{"esc", "2"}, done: true, cancelled: true},
		{name: "ctrl+c cancels", in: multiInput(), keys: []string{"space", "ctrl+c"}, done: true, cancelled: true},
		{name: "ctrl+c cancels in the editor", in: multiInput(), keys: []string{"4", "enter", "type:abc", "ctrl+c"}, done: true, cancelled: true},
		{name: "keys after the end do nothing", in: singleInput(), keys: []string{"1", "2", "ctrl+c"}, done: true, answer: ans(sel("lang", "en"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewAskForm(tc.in, mono)
			press(t, f, tc.keys...)
			scr := plain(f.View(80, 24))
			if f.Done() != tc.done && tc.screen == nil && tc.summary == nil {
				t.Fatalf("keys %v: done %v, want %v\n%s", tc.keys, f.Done(), tc.done, scr)
			}
			if f.Cancelled() != tc.cancelled {
				t.Errorf("keys %v: cancelled %v, want %v", tc.keys, f.Cancelled(), tc.cancelled)
			}
			if tc.done && !tc.cancelled {
				if got := f.Answer(); !reflect.DeepEqual(got, tc.answer) {
					t.Errorf("keys %v: got answer %+v, want %+v", tc.keys, got, tc.answer)
				}
				if _, err := tc.in.Resolve(f.Answer()); err != nil {
					t.Errorf("keys %v: the answer does not resolve: %v", tc.keys, err)
				}
			}
			if tc.summary != nil && !reflect.DeepEqual(f.Summary(), tc.summary) {
				t.Errorf("keys %v: got summary %q, want %q", tc.keys, f.Summary(), tc.summary)
			}
			for _, s := range tc.screen {
				if !strings.Contains(scr, s) {
					t.Errorf("keys %v: want %q on screen:\n%s", tc.keys, s, scr)
				}
			}
			for _, s := range tc.notScreen {
				if strings.Contains(scr, s) {
					t.Errorf("keys %v: %q should not be on screen:\n%s", tc.keys, s, scr)
				}
			}
		})
	}
}

// TestAskDoneShowsOnlyTheSummary: once answered, the view is exactly the
// summary lines: the unchosen options are gone, typed text is kept.
func TestAskDoneShowsOnlyTheSummary(t *testing.T) {
	f := NewAskForm(multiInput(), mono)
	press(t, f, "down", "space", "4", "enter", "type:INI files", "enter", "2", "enter")
	want := "✔ Formats: YAML, \"INI files\"\n✔ Checks: go test"
	if got := plain(f.View(80, 24)); got != want {
		t.Errorf("got view\n%s\nwant\n%s", got, want)
	}
}

// TestAskScrolls: a list taller than the room scrolls with the cursor,
// which stays near the middle away from the ends, and says how many
// entries are above and below.
func TestAskScrolls(t *testing.T) {
	in := tools.AskInput{AllowSkip: true, Questions: []tools.Question{{Header: "Region", ID: "region", Question: "Where should it run?"}}}
	for i := 1; i <= 15; i++ {
		in.Questions[0].Options = append(in.Questions[0].Options, tools.Choice{ID: fmt.Sprint(i), Label: fmt.Sprintf("region %d", i)})
	}
	for _, tc := range []struct {
		keys   []string
		screen []string
		absent []string
	}{
		{nil, []string{"›  1. region 1", "   6. region 6", "  ↓ 10 more"}, []string{"  ↑ ", "region 7"}},
		{[]string{"down", "down"}, []string{"›  3. region 3", "   6. region 6", "  ↓ 10 more"}, []string{"  ↑ "}},
		{[]string{"down", "down", "down", "down", "down", "down", "down"}, []string{"  ↑ 5 more", "   6. region 6", "›  8. region 8", "  10. region 10", "  ↓ 6 more"}, []string{"region 5\n"}},
		{[]string{"end"}, []string{"  ↑ 10 more", "  11. region 11", "› 16. Skip"}, []string{"  ↓ "}},
		{[]string{"end", "up", "up", "up", "up", "up", "up"}, []string{"  ↑ 7 more", "› 10. region 10", "  12. region 12", "  ↓ 4 more"}, nil},
	} {
		f := NewAskForm(in, mono)
		press(t, f, tc.keys...)
		scr := plain(f.View(80, 12))
		if n := strings.Count(scr, "\n") + 1; n > 12 {
			t.Errorf("keys %v: %d lines, want at most 12:\n%s", tc.keys, n, scr)
		}
		for _, s := range tc.screen {
			if !strings.Contains(scr, s) {
				t.Errorf("keys %v: want %q on screen:\n%s", tc.keys, s, scr)
			}
		}
		for _, s := range tc.absent {
			if strings.Contains(scr, s) {
				t.Errorf("keys %v: %q should not be on screen:\n%s", tc.keys, s, scr)
			}
		}
	}
}

// TestAskWrapsTheQuestion: a long question wraps to the width; nothing is
// wider than the screen.
func TestAskWrapsTheQuestion(t *testing.T) {
	in := multiInput()
	in.Questions[0].Question = strings.Repeat("very long question text ", 12)
	f := NewAskForm(in, NewPalette(true, true))
	for _, l := range strings.Split(plain(f.View(40, 24)), "\n") {
		if w := len([]rune(l)); w > 40 {
			t.Errorf("line wider than 40 (%d): %q", w, l)
		}
	}
}

func withOther(in tools.AskInput) tools.AskInput {
	in.Questions[0].AllowOther = true
	return in
}

type selection struct {
	q   string
	ids []string
}

func sel(q string, ids ...string) selection { return selection{q, ids} }

func ans(s ...selection) tools.Answer {
	a := tools.Answer{Selected: map[string][]string{}, Other: map[string]string{}}
	for _, x := range s {
		a.Selected[x.q] = x.ids
	}
	return a
}
