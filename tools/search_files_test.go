package tools

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestSearchFilesIgnoreAndBinary(t *testing.T) {
	ws, _ := ignoreTree(t)
	res := call(t, builtin(t, ws, Options{}, "search_files"), map[string]any{"content": "needle"})
	want := "app.go:2: // needle here\n" +
		"deep/a/b/c/d/deep.txt:1: needle deep\n" +
		"other/x.tmp:1: needle tmp elsewhere\n" +
		"sub/keep.log:1: needle kept\n" +
		"sub/secret.txt:1: needle not anchored\n" +
		"[5 matching lines in 5 files for content /needle/; 6 files searched]"
	if res.IsError || res.Content != want {
		t.Fatalf("search_files(content=needle) =\n%s\nwant\n%s", res.Content, want)
	}
	res = call(t, builtin(t, ws, Options{}, "search_files"), map[string]any{"content": "needle", "include_hidden": true, "pattern": "*.go"})
	if !strings.Contains(res.Content, ".hidden/h.go:1:") || strings.Contains(res.Content, ".git/") {
		t.Errorf("search_files(include_hidden) =\n%s\nwant .hidden/h.go and no .git", res.Content)
	}
}

func TestSearchFilesArguments(t *testing.T) {
	ws, root := newTestWorkspace(t)
	writeTestFile(t, root, "src/a.go", "package a\nfunc Alpha() {}\nfunc beta() {}\n")
	writeTestFile(t, root, "src/b_test.go", "package a\nfunc TestAlpha(t *testing.T) {}\n")
	writeTestFile(t, root, "src/deep/c.go", "package deep\nfunc Gamma() {}\n")
	writeTestFile(t, root, "docs/readme.md", "Alpha is the first.\n")
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args    map[string]any
		isError bool
		want    string
	}{
		{map[string]any{"pattern": "*.go"}, false, "src/a.go\nsrc/b_test.go\nsrc/deep/c.go\n[3 files matching pattern \"*.go\"]"},
		{map[string]any{"pattern": "src/*.go"}, false, "src/a.go\nsrc/b_test.go\n[2 files"},
		{map[string]any{"pattern": "**/deep/*.go"}, false, "src/deep/c.go\n[1 file matching"},
		{map[string]any{"pattern": "*.go", "path": "src/deep"}, false, "src/deep/c.go\n[1 file matching"},
		{map[string]any{"pattern": "*.go", "content": `^func [A-Z]\w*\(`}, false, "src/a.go:2: func Alpha() {}\nsrc/b_test.go:2: func TestAlpha(t *testing.T) {}\nsrc/deep/c.go:2: func Gamma() {}\n[3 matching lines in 3 files"},
		{map[string]any{"content": "(?i)alpha", "pattern": "*.md"}, false, "docs/readme.md:1: Alpha is the first.\n"},
		{map[string]any{"content": "Alpha", "path": "src/a.go"}, false, "src/a.go:2: func Alpha() {}\n[1 matching line in 1 file for"},
		{map[string]any{"content": "nothing-like-this"}, false, "[no matches for content /nothing-like-this/]"},
		{map[string]any{"pattern": "*.go", "max_results": 1}, false, "src/a.go\n[showing 1 of 3 files"},
		{map[string]any{"content": "func", "max_results": 2}, false, "src/a.go:2: func Alpha() {}\nsrc/a.go:3: func beta() {}\n[showing the first 2 matching lines"},
		{map[string]any{"content": "func ("}, true, "invalid content regular expression"},
		{map[string]any{"pattern": "[a-"}, true, "invalid glob pattern"},
		{map[string]any{"content": "x", "path": "../"}, true, "outside the workspace"},
		{map[string]any{"content": "x", "path": "out"}, true, "symlink"},
		{map[string]any{"content": "x", "path": "missing"}, true, "no such file"},
	}
	tl := builtin(t, ws, Options{}, "search_files")
	for _, c := range cases {
		res := call(t, tl, c.args)
		if res.IsError != c.isError || !strings.Contains(res.Content, c.want) {
			t.Errorf("search_files(%v) =\n%s\n(IsError %v), want it to contain\n%s\n(IsError %v)", c.args, res.Content, res.IsError, c.want, c.isError)
		}
	}
}

// TestSearchFilesDeterministic checks that early stopping with many
// workers still returns the first matches in path order, every time.
func TestSearchFilesDeterministic(t *testing.T) {
	ws, root := newTestWorkspace(t)
	for i := range 300 {
		body := strings.Repeat("filler line\n", i%7)
		if i%3 == 0 {
			body += fmt.Sprintf("match %d\n", i)
		}
		writeTestFile(t, root, fmt.Sprintf("d%02d/f%03d.txt", i%11, i), body)
	}
	tl := builtin(t, ws, Options{Search: SearchOptions{Workers: 8}}, "search_files")
	first := call(t, tl, map[string]any{"content": `match \d+`, "max_results": 25})
	lines := strings.Split(first.Content, "\n")
	if len(lines) != 26 || !strings.HasPrefix(lines[0], "d00/f000.txt:1: match 0") {
		t.Fatalf("got %d lines starting %q, want 25 matches from d00/f000.txt:\n%s", len(lines), lines[0], first.Content)
	}
	for range 20 {
		if again := call(t, tl, map[string]any{"content": `match \d+`, "max_results": 25}); again.Content != first.Content {
			t.Fatalf("second search differs:\n%s\nfirst:\n%s", again.Content, first.Content)
		}
	}
}

// TestMatcherAgainstReference compares the chunked scanner with a plain
// line-by-line regexp loop, on a file spanning several read chunks.
func TestMatcherAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"func", "Foo", "bar", "  ", "\t", "return", "err", "nil", "x := 1", "TODO:", "ünïcödé", "a.b", "(", ")", "{", "}",
		"ſession", "SESSION", "\u212Aey", "Key", "todo:"}
	var b strings.Builder
	for b.Len() < 2*scanChunk+scanChunk/4 {
		n := rng.IntN(12)
		for range n {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		if rng.IntN(50) == 0 {
			b.WriteString(strings.Repeat("z", rng.IntN(3000)))
		}
		if rng.IntN(10) == 0 {
			b.WriteByte('\r')
		}
		b.WriteByte('\n')
	}
	b.WriteString("func last line without newline")
	ws, root := newTestWorkspace(t)
	_ = ws
	p := writeTestFile(t, root, "big.txt", b.String())
	exprs := []string{`func`, `Foo bar`, `^func`, `err $`, `(?i)FOO`, `return\s+err`, `\bnil\b`, `x := \d`, `TODO:.*bar`,
		`ünïcödé`, `a\.b`, `(Foo|bar) nil`, `z{100,}`, `^$`, `\s+$`, `func\s+Foo\s+bar`, `[{}] [()]`, `newline$`, `bar\sfunc`,
		`(?i)session`, `(?i)key`, `(?i)todo:`, `(?i)foo bar`, `(?i)return\s+ERR`, `(?i)ÜNÏ`, `(?i)x := \d`, `(?i)a\.b`}
	lines := strings.Split(b.String(), "\n")
	for _, expr := range exprs {
		m, err := newMatcher(expr)
		if err != nil {
			t.Fatalf("newMatcher(%q): %v", expr, err)
		}
		ref := regexp.MustCompile(expr)
		var want []int
		for i, l := range lines {
			if ref.MatchString(l) { // like ripgrep, $ does not match before \r
				want = append(want, i+1)
			}
		}
		sc := &scanner{m: m}
		hits := sc.scanFile(p, 1<<30)
		got := make([]int, len(hits))
		for i, h := range hits {
			got[i] = h.line
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("content %q: matched %d lines, want %d\n got %v\nwant %v", expr, len(got), len(want), head(got), head(want))
		}
	}
}

func head(xs []int) []int { return xs[:min(len(xs), 20)] }

func TestHitTextCutsLongLines(t *testing.T) {
	line := []byte(strings.Repeat("a", 5000) + "NEEDLE" + strings.Repeat("é", 3000))
	got := hitText(line, 5000)
	if !strings.Contains(got, "NEEDLE") || len(got) > maxHitChars+10 || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") {
		t.Errorf("hitText cut = %q (%d bytes), want a window around NEEDLE of at most %d bytes with … on both ends", got, len(got), maxHitChars)
	}
}

// TestMatcherPlan checks which prefilter each kind of expression gets, so
// a regression to running the regexp over whole files shows up here.
func TestMatcherPlan(t *testing.T) {
	cases := []struct {
		expr     string
		lit      string
		complete bool
		fold     string
	}{
		{"ErrNotFound", "ErrNotFound", true, ""},
		{`func \w+Handler\(`, "Handler(", false, ""},
		{`^import`, "import", false, ""},
		{`(?i)sessionhandler\(`, "", false, "ionhandler("},
		{`(?i)kiss`, "", false, "i"},
		{`[a-z]+Error`, "Error", false, ""},
		{`\d+`, "", false, ""},
	}
	for _, c := range cases {
		m, err := newMatcher(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		fold := ""
		if m.fold != nil {
			fold = string(m.fold.lit)
		}
		if string(m.lit) != c.lit || m.complete != c.complete || fold != c.fold {
			t.Errorf("newMatcher(%q): lit %q complete %v fold %q, want %q %v %q", c.expr, m.lit, m.complete, fold, c.lit, c.complete, c.fold)
		}
	}
}
