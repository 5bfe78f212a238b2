package adapter

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestReadString: plain, escaped and non-ASCII strings read as
// encoding/json reads them; invalid strings and the cases left to it are
// declined.
func TestReadString(t *testing.T) {
	taken := []string{
		`""`, `"hi"`, `"Olá 😀"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\u003c\u0000\uFFFF"`,
		`"` + strings.Repeat("x", 1<<16) + `"`, `"end\\"`,
	}
	var scratch Scratch
	for _, in := range taken {
		got, rest, ok := ReadString([]byte(in+`,"next"`), &scratch)
		var want string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("%s: encoding/json fails: %v", in, err)
		}
		if !ok || got != want || string(rest) != `,"next"` {
			t.Errorf("ReadString(%.40q): got %q, %q, %v; want %q", in, got, rest, ok, want)
		}
	}
	declined := []string{
		``, `x`, `"open`, `"bad \x"`, `"\u12"`, `"\ud83d\ude00"`, `"\udc00"`, "\"ctl \x01\"", "\"bad \xff\"", `"end\"`,
	}
	for _, in := range declined {
		if got, _, ok := ReadString([]byte(in), &scratch); ok {
			t.Errorf("ReadString(%q): got %q, want it declined", in, got)
		}
	}
}

// TestSkipValue: valid values are skipped to what follows them; invalid
// ones and very deep nesting are declined.
func TestSkipValue(t *testing.T) {
	valid := []string{
		`0`, `-1.5e+10`, `12E3`, `true`, `false`, `null`, `"s\u0041"`, `[]`, `{}`,
		`[1, "a", {"k": [null]}]`, `{ "a" : 1 , "b":{"c":"\n"} }`, "\"bad utf8 \xff\"",
	}
	for _, in := range valid {
		rest, ok := SkipValue([]byte(in + ` ,`))
		if !ok || string(rest) != ` ,` {
			t.Errorf("SkipValue(%q): got %q, %v; want the value skipped", in, rest, ok)
		}
	}
	invalid := []string{
		``, `01`, `-`, `1.`, `1e`, `.5`, `+1`, `tru`, `nul`, `[1,]`, `{"a"}`, `{"a":}`, `{a:1}`, `[1 2]`, `"x`,
		strings.Repeat("[", 40) + strings.Repeat("]", 40),
	}
	for _, in := range invalid {
		if rest, ok := SkipValue([]byte(in)); ok && OnlySpace(rest) {
			t.Errorf("SkipValue(%q): skipped, want it declined", in)
		}
	}
}

// TestMembers walks an object's members in order and declines names it
// cannot compare byte for byte.
func TestMembers(t *testing.T) {
	var names []string
	rest, ok := Members([]byte(` { "a" : 1, "b":"x" } tail`), func(name, v []byte) ([]byte, bool) {
		names = append(names, string(name))
		return SkipValue(v)
	})
	if !ok || string(rest) != " tail" || strings.Join(names, ",") != "a,b" {
		t.Errorf("got %q, %v, names %q; want \" tail\", a,b", rest, ok, names)
	}
	for _, in := range []string{`{"\u0061":1}`, `{"ſ":1}`, `{"a":1,}`, `{"a":1`, `{"a" 1}`, `[1]`} {
		if _, ok := Members([]byte(in), func(_, v []byte) ([]byte, bool) { return SkipValue(v) }); ok {
			t.Errorf("Members(%q): walked, want it declined", in)
		}
	}
	if f := NewFields("usage", "choices"); !f.Fold([]byte("Choices")) || f.Fold([]byte("choice")) || f.Fold([]byte("a_very_long_name")) {
		t.Errorf("Fields.Fold: wrong match")
	}
}

// FuzzReadString: whatever ReadString reads, encoding/json reads the same.
func FuzzReadString(f *testing.F) {
	for _, s := range []string{`"a"`, `"\u00e9\n"`, `"\\\"x"`, "\"\xe2\x82\xac\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var scratch Scratch
		got, rest, ok := ReadString(data, &scratch)
		if !ok {
			return
		}
		var want string
		n := len(data) - len(rest)
		if err := json.Unmarshal(data[:n], &want); err != nil {
			t.Fatalf("%q: read, but encoding/json fails: %v", data[:n], err)
		}
		if got != want {
			t.Fatalf("%q: got %q, want %q", data[:n], got, want)
		}
	})
}

// FuzzSkipValue: what SkipValue skips is valid JSON to encoding/json.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e3,"x"]}`, `[true,false,null]`, `-0.0`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rest, ok := SkipValue(data)
		if !ok {
			return
		}
		if v := data[:len(data)-len(rest)]; !json.Valid(v) {
			t.Fatalf("%q: skipped, but not valid JSON", v)
		}
	})
}

// TestFirstSpecial: the eight-byte test finds the first quote, backslash
// or control character at any position, next to any other byte, and
// nothing else.
func TestFirstSpecial(t *testing.T) {
	isSpecial := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }
	for pos := range 8 {
		for c := range 256 {
			for _, fill := range []byte{'a', 0xff, 0x80, ' ', '!', '#', '[', ']', 0x7f, '"', 0x1f} {
				for _, after := range []byte{'a', '"', 0x00, 0x80} {
					var w [8]byte
					for i := range w {
						w[i] = fill
					}
					w[pos] = byte(c)
					if pos < 7 {
						w[pos+1] = after
					}
					want := 8
					for i := len(w) - 1; i >= 0; i-- {
						if isSpecial(w[i]) {
							want = i
						}
					}
					if got := firstSpecial(binary.LittleEndian.Uint64(w[:])); got != want {
						t.Fatalf("firstSpecial(% x): got %d, want %d", w, got, want)
					}
				}
			}
		}
	}
}

// TestReadKnownString: a known value comes back as the known string, any
// other as ReadString reads it.
func TestReadKnownString(t *testing.T) {
	known := []string{"response.output_text.delta", "a"}
	var scratch Scratch
	for _, tt := range []struct{ in, want string }{
		{`"a",`, "a"}, {`"response.output_text.delta"}`, "response.output_text.delta"}, {`"b\n"]`, "b\n"}, {`"\u0061" `, "a"},
	} {
		got, rest, ok := ReadKnownString([]byte(tt.in), known, &scratch)
		if !ok || got != tt.want || len(rest) != 1 {
			t.Errorf("ReadKnownString(%q): got %q, %q, %v; want %q", tt.in, got, rest, ok, tt.want)
		}
	}
	if _, _, ok := ReadKnownString([]byte(`"a`), known, &scratch); ok {
		t.Errorf(`ReadKnownString("a): read, want it declined`)
	}
}

// TestReadTextKeepsEveryString: the strings ReadText hands out share
// blocks, and each stays what it was read as while later ones are read,
// across blocks, escaped or not, and longer than a block's share.
func TestReadTextKeepsEveryString(t *testing.T) {
	var scratch Scratch
	var got, want []string
	for i := range 20000 {
		v := fmt.Sprintf("w%d ", i)
		switch {
		case i%7 == 0:
			v += "\n\"quoted\""
		case i%1000 == 0:
			v = strings.Repeat("long ", textBlock/4)
		}
		in, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		s, rest, ok := ReadText(append(in, ','), &scratch)
		if !ok || string(rest) != "," {
			t.Fatalf("ReadText(%.40s): got %q, %v", in, rest, ok)
		}
		got, want = append(got, s), append(want, v)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d: got %.40q, want %.40q", i, got[i], want[i])
		}
	}
}
