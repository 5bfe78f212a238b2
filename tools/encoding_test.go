package tools

import (
	"strings"
	"testing"
)

// utf16 encodes s (ASCII and Latin-1 letters) as UTF-16, little-endian
// unless be, after a byte-order mark when bom.
func utf16(s string, be, bom bool) string {
	var b strings.Builder
	put := func(r rune) {
		if be {
			b.WriteByte(byte(r >> 8))
			b.WriteByte(byte(r))
		} else {
			b.WriteByte(byte(r))
			b.WriteByte(byte(r >> 8))
		}
	}
	if bom {
		put(0xFEFF)
	}
	for _, r := range s {
		put(r)
	}
	return b.String()
}

// TestReadFileDecodesText: files in Latin-1 and UTF-16 (with and without
// a byte-order mark) are text, read decoded with a note naming the
// encoding; a UTF-8 byte-order mark is not shown; binary data is still
// refused.
func TestReadFileDecodesText(t *testing.T) {
	ws, root := newTestWorkspace(t)
	read := builtin(t, ws, Options{}, "read_file")
	for _, c := range []struct {
		name, content, want, note string
	}{
		{"latin1.txt", "caf\xe9 na\xefve\nr\xe9sum\xe9 \x80 5\n", "café naïve\n", "Latin-1 (Windows-1252)"},
		{"le-bom.txt", utf16("héllo wörld\nline two\n", false, true), "héllo wörld\n", "UTF-16LE"},
		{"be-bom.txt", utf16("héllo wörld\nline two\n", true, true), "héllo wörld\n", "UTF-16BE"},
		{"le.txt", utf16("plain words here\nline two\n", false, false), "plain words here\n", "UTF-16LE"},
		{"bom8.txt", "\xef\xbb\xbfhello\n", "     1\thello\n", ""},
	} {
		writeTestFile(t, root, c.name, c.content)
		r := call(t, read, map[string]any{"path": c.name})
		if r.IsError || !strings.Contains(r.Content, c.want) {
			t.Errorf("%s: got %q, want it to hold %q", c.name, r.Content, c.want)
		}
		if c.note != "" && !strings.Contains(r.Content, c.note+" text, shown decoded") {
			t.Errorf("%s: the result does not name %s: %q", c.name, c.note, r.Content)
		}
		if c.note == "" && strings.Contains(r.Content, "decoded") {
			t.Errorf("%s: UTF-8 noted as decoded: %q", c.name, r.Content)
		}
	}
	// A sample that ends inside a character is still UTF-8.
	writeTestFile(t, root, "cut.txt", strings.Repeat("abcdefg\n", sniffSize/8-1)+"abcdefgé\n")
	if r := call(t, read, map[string]any{"path": "cut.txt"}); r.IsError || strings.Contains(r.Content, "decoded") || !strings.Contains(r.Content, "abcdefgé\n") {
		t.Errorf("a UTF-8 file whose sample cuts a character: %.80q", r.Content[max(len(r.Content)-80, 0):])
	}
	if !strings.Contains(call(t, read, map[string]any{"path": "latin1.txt"}).Content, "résumé € 5") {
		t.Errorf("0x80 is the euro sign in Windows-1252")
	}
	writeTestFile(t, root, "blob.bin", "\x7fELF\x02\x01\x01\x00\x00\x00\x03\x00>\x00\x01\x00")
	writeTestFile(t, root, "ctl.bin", "\xff\xd8\xff\xe0\x01\x02\x03JFIF")
	for _, bin := range []string{"blob.bin", "ctl.bin"} {
		if r := call(t, read, map[string]any{"path": bin}); !r.IsError || !strings.Contains(r.Content, "binary") {
			t.Errorf("%s: got %q, want a binary refusal", bin, r.Content)
		}
	}
}

// TestEditFileKeepsTheEncoding: an edit of a Latin-1 or UTF-16 file
// matches the decoded text and writes the file back in its encoding,
// byte-order mark included; a character the encoding cannot hold is
// refused and the file left as it was.
func TestEditFileKeepsTheEncoding(t *testing.T) {
	ws, root := newTestWorkspace(t)
	read, edit := builtin(t, ws, Options{}, "read_file"), builtin(t, ws, Options{}, "edit_file")
	for _, c := range []struct {
		name, content, want string
	}{
		{"latin1.txt", "caf\xe9 ouvert\n", "caf\xe9 ferm\xe9\n"},
		{"le-bom.txt", utf16("café ouvert\n", false, true), utf16("café fermé\n", false, true)},
		{"be.txt", utf16("cafe ouvert here\n", true, false), utf16("cafe fermé here\n", true, false)},
	} {
		p := writeTestFile(t, root, c.name, c.content)
		call(t, read, map[string]any{"path": c.name})
		if r := call(t, edit, map[string]any{"path": c.name, "old_string": "ouvert", "new_string": "fermé"}); r.IsError {
			t.Fatalf("%s: %s", c.name, r.Content)
		}
		if got := readTestFile(t, p); got != c.want {
			t.Errorf("%s: the file holds %q, want %q", c.name, got, c.want)
		}
	}
	p := writeTestFile(t, root, "l1.txt", "caf\xe9\n")
	call(t, read, map[string]any{"path": "l1.txt"})
	r := call(t, edit, map[string]any{"path": "l1.txt", "old_string": "café", "new_string": "café ☕"})
	if !r.IsError || !strings.Contains(r.Content, "cannot hold the character '☕'") {
		t.Errorf("an emoji into Latin-1: got %q", r.Content)
	}
	if got := readTestFile(t, p); got != "caf\xe9\n" {
		t.Errorf("the refused edit changed the file: %q", got)
	}
}
