package ui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// classAt returns the class of the span holding byte i of src.
func classAt(spans []codeSpan, i int) codeClass {
	for _, s := range spans {
		if i < s.end {
			return s.class
		}
	}
	return codeClasses
}

// TestHighlightClasses: the scanner tells comments, strings, numbers and
// keywords apart in each language it knows, by the fence's info string.
func TestHighlightClasses(t *testing.T) {
	tests := []struct {
		info, src string
		want      map[string]codeClass // a token of src and its class
	}{
		{"go", "func f() { // note\n\ts := `a\nb` + \"q\\\"x\"; return 42 }",
			map[string]codeClass{"func": codeKeyword, "// note": codeComment, "`a\nb`": codeString, `"q\"x"`: codeString, "42": codeNumber, "f()": codePlain, "return": codeKeyword}},
		{"Golang", "/* a\nb */ var x", map[string]codeClass{"/* a\nb */": codeComment, "var": codeKeyword, " x": codePlain}},
		{"python", "def f():\n    \"\"\"doc\n    more\"\"\"\n    # hash\n    return None",
			map[string]codeClass{"def": codeKeyword, "\"\"\"doc\n    more\"\"\"": codeString, "# hash": codeComment, "None": codeKeyword}},
		{"ts", "const a: string = 'x' // c", map[string]codeClass{"const": codeKeyword, "'x'": codeString, "// c": codeComment}},
		{"bash", "echo a#b # done\nexport X=\"$Y\"", map[string]codeClass{"echo": codeKeyword, "a#b": codePlain, "# done": codeComment, "export": codeKeyword, "\"$Y\"": codeString}},
		{"json", `{"key": "value", "n": -1.5, "ok": true}`, map[string]codeClass{`"key"`: codeKeyword, `"value"`: codeString, "-1.5": codeNumber, "true": codeKeyword}},
		{"yaml", "name: app # the name\nports:\n  - 8080", map[string]codeClass{"name": codeKeyword, "# the name": codeComment, " app": codePlain, "8080": codeNumber}},
		{"rust", "fn main() { let v: Vec<u8> = Vec::new(); }", map[string]codeClass{"fn": codeKeyword, "let": codeKeyword, "u8": codeKeyword}},
		{"c++", "#include <x>\nint main() { return 0; } /* end */", map[string]codeClass{"int": codeKeyword, "0": codeNumber, "/* end */": codeComment}},
		{"java", "public class A { String s = \"x\"; }", map[string]codeClass{"public": codeKeyword, "class": codeKeyword, "\"x\"": codeString}},
		{"sql", "SELECT id FROM t WHERE name = 'x' -- why", map[string]codeClass{"SELECT": codeKeyword, "FROM": codeKeyword, "'x'": codeString, "-- why": codeComment, " id": codePlain}},
		{"html", "<!-- c --><a href=\"/x\">t &amp; u</a>", map[string]codeClass{"<!-- c -->": codeComment, "<a": codeKeyword, "\"/x\"": codeString, "&amp;": codeNumber, "</a>": codeKeyword, "t ": codePlain}},
		{"diff", "@@ -1 +1 @@\n-old\n+new\n same", map[string]codeClass{"@@ -1 +1 @@": codeKeyword, "-old": codeRemoved, "+new": codeAdded, " same": codePlain}},
		{"brainfuck", "func // x \"y\" 42", map[string]codeClass{"func // x \"y\" 42": codePlain}},
		{"", "func 42", map[string]codeClass{"func 42": codePlain}},
	}
	langs := map[string]*codeLang{}
	for _, tc := range tests {
		spans := scanCode(langFor(langs, tc.info), tc.src)
		for tok, want := range tc.want {
			i := strings.Index(tc.src, tok)
			if i < 0 {
				t.Fatalf("%s: %q not in %q", tc.info, tok, tc.src)
			}
			for k := i; k < i+len(tok); k++ {
				if got := classAt(spans, k); got != want {
					t.Errorf("%s: %q: byte %d (%q) is class %d, want %d", tc.info, tc.src, k, tc.src[k], got, want)
					break
				}
			}
		}
	}
}

// checkSpans checks that spans cover src in order and that the
// highlighted lines show src as it is.
func checkSpans(t *testing.T, l *codeLang, src string) {
	t.Helper()
	spans := scanCode(l, src)
	prev := 0
	for _, s := range spans {
		if s.end <= prev || s.end > len(src) {
			t.Fatalf("span ends at %d after %d (len %d): %q", s.end, prev, len(src), src)
		}
		prev = s.end
	}
	if len(src) > 0 && prev != len(src) {
		t.Fatalf("spans end at %d, want %d: %q", prev, len(src), src)
	}
	if strings.ContainsRune(src, 0x1b) || !utf8.ValidString(src) {
		return // the renderer gets cleaned text; Strip would not give it back
	}
	th := mdThemeFor(true)
	if got := ansi.Strip(strings.Join(highlight(l, src, &th.syntax), "\n")); got != src {
		t.Fatalf("highlighted text differs:\n got %q\nwant %q", got, src)
	}
}

// FuzzHighlight: on any input, in every language, the scanner covers the
// text exactly and never panics.
func FuzzHighlight(f *testing.F) {
	for _, s := range []string{"func \"a\\", "/* open", "\"\"\"x", "<a href='", "&amp", "`\n`", "-- x\n+y", "a: 'b", "\x1b[31m\"\xff"} {
		f.Add(s)
	}
	names := []string{"go", "python", "js", "sh", "json", "yaml", "rust", "c", "java", "sql", "html", "diff", "none"}
	langs := map[string]*codeLang{}
	f.Fuzz(func(t *testing.T, src string) {
		for _, n := range names {
			checkSpans(t, langFor(langs, n), src)
		}
	})
}

// BenchmarkHighlight scans hostile code: strings and comments left open,
// tags never closed. The cost per byte should not grow with the length.
func BenchmarkHighlight(b *testing.B) {
	for _, size := range []int{10_000, 1_000_000} {
		for _, lang := range []string{"go", "python", "html", "json"} {
			unit := "x := \"open /* `tick <a href=' 42 \"\"\" {\"k\": 1e9, # c\n"
			src := strings.Repeat(unit, size/len(unit)+1)[:size]
			l := langFor(map[string]*codeLang{}, lang)
			th := mdThemeFor(true)
			b.Run(lang+"/"+itoa(size), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					highlight(l, src, &th.syntax)
				}
			})
		}
	}
}
