package tools

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// textKind is what a file's first bytes say about its content.
type textKind int

const (
	// kindUTF8 is UTF-8 text (ASCII included), with or without a BOM.
	kindUTF8 textKind = iota
	// kindUTF16LE and kindUTF16BE are UTF-16 text, with or without a BOM.
	kindUTF16LE
	kindUTF16BE
	// kindLatin1 is 8-bit text that is not UTF-8: read as Windows-1252,
	// the superset of Latin-1 that editors on Windows write.
	kindLatin1
	// kindBinary is anything else.
	kindBinary
)

// String names the encoding as a note to the model says it.
func (k textKind) String() string {
	switch k {
	case kindUTF16LE:
		return "UTF-16LE"
	case kindUTF16BE:
		return "UTF-16BE"
	case kindLatin1:
		return "Latin-1 (Windows-1252)"
	case kindBinary:
		return "binary"
	}
	return "UTF-8"
}

// sniffText classifies a file by its first bytes (a sample that may end
// mid-character). UTF-16 is recognised by its byte-order mark, or without
// one by text whose every other byte is NUL; other text must be valid
// UTF-8, or bytes no control character but tab, newlines, form feed and
// escape falls among (8-bit text, taken as Latin-1).
func sniffText(head []byte) textKind {
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return kindUTF16LE
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return kindUTF16BE
	}
	if k, ok := bomlessUTF16(head); ok {
		return k
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return kindBinary
	}
	if utf8.Valid(cutRune(head)) {
		return kindUTF8
	}
	for _, b := range head {
		if (b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != 0x1b) || b == 0x7f {
			return kindBinary
		}
	}
	return kindLatin1
}

// cutRune returns head without the character its end cuts short, when
// head is a whole sample (sniffSize bytes) and so may end mid-character.
func cutRune(head []byte) []byte {
	if len(head) < sniffSize {
		return head
	}
	for i := 1; i <= utf8.UTFMax && i <= len(head); i++ {
		if utf8.RuneStart(head[len(head)-i]) {
			if !utf8.FullRune(head[len(head)-i:]) {
				return head[:len(head)-i]
			}
			break
		}
	}
	return head
}

// bomlessUTF16 recognises UTF-16 without a byte-order mark: at least
// eight characters, where the high byte of all but a few is NUL (text in
// Latin script) and the low byte never is.
func bomlessUTF16(head []byte) (textKind, bool) {
	n := len(head) / 2
	if n < 8 {
		return 0, false
	}
	var zeroEven, zeroOdd int
	for i := 0; i+1 < len(head); i += 2 {
		if head[i] == 0 {
			zeroEven++
		}
		if head[i+1] == 0 {
			zeroOdd++
		}
	}
	switch {
	case zeroEven == 0 && zeroOdd*10 >= n*9:
		return kindUTF16LE, true
	case zeroOdd == 0 && zeroEven*10 >= n*9:
		return kindUTF16BE, true
	}
	return 0, false
}

// isBinary reports whether a file's first bytes look like binary data,
// neither UTF-8 nor another text encoding sniffText knows.
func isBinary(head []byte) bool { return sniffText(head) == kindBinary }

// decoder returns the decoder from k to UTF-8, nil for UTF-8 itself.
func (k textKind) decoder() *encoding.Decoder {
	switch k {
	case kindUTF16LE:
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()
	case kindUTF16BE:
		return unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewDecoder()
	case kindLatin1:
		return charmap.Windows1252.NewDecoder()
	}
	return nil
}

// decodeReader returns r read as UTF-8, decoded from k (not UTF-8).
func decodeReader(r io.Reader, k textKind) io.Reader {
	return transform.NewReader(r, k.decoder())
}

// decodeBytes returns data as UTF-8 text, decoded from k, and whether it
// began with a byte-order mark.
func decodeBytes(data []byte, k textKind) (text string, bom bool, err error) {
	d := k.decoder()
	if d == nil {
		return string(data), false, nil
	}
	bom = k != kindLatin1 && len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF)
	out, err := d.Bytes(data)
	return string(out), bom, err
}

// encode returns text in k's encoding, after a byte-order mark when bom
// is set; an error names a character k cannot hold.
func (k textKind) encode(text string, bom bool) (string, error) {
	var e *encoding.Encoder
	switch k {
	case kindUTF16LE:
		e = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder()
	case kindUTF16BE:
		e = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder()
	case kindLatin1:
		e = charmap.Windows1252.NewEncoder()
	default:
		return text, nil
	}
	out, err := e.String(text)
	if err != nil {
		for _, r := range text {
			if _, err := e.String(string(r)); err != nil {
				return "", fmt.Errorf("%s cannot hold the character %q (U+%04X)", k, r, r)
			}
		}
		return "", err
	}
	if bom {
		out = bomBytes(k) + out
	}
	return out, nil
}

// bomBytes is k's byte-order mark.
func bomBytes(k textKind) string {
	if k == kindUTF16BE {
		return "\xFE\xFF"
	}
	return "\xFF\xFE"
}
