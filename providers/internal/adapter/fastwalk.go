package adapter

// The walkers below let a direct reader go through an event's objects and
// arrays, reading the members it knows and skipping the others, with the
// same syntax checks as encoding/json (see fastjson.go).

// maxSkipDepth bounds the nesting SkipValue follows; deeper values are
// declined rather than walked.
const maxSkipDepth = 32

// Members walks the object b opens with, white space allowed between
// tokens, calling member with each member's name and the bytes from its
// value on; member returns what follows the value, or false to decline.
// Names must be plain ASCII without escapes (declined otherwise), so a
// caller can match them against its field names byte for byte and tell a
// case-insensitive match with EqualFoldAny. Members returns what follows
// the object.
func Members(b []byte, member func(name, value []byte) ([]byte, bool)) ([]byte, bool) {
	b, ok := CutPrefix(SkipSpace(b), "{")
	if !ok {
		return nil, false
	}
	b = SkipSpace(b)
	if len(b) > 0 && b[0] == '}' {
		return b[1:], true
	}
	for {
		end, ok := scanName(b)
		if !ok {
			return nil, false
		}
		name := b[1 : end-1]
		if b, ok = CutPrefix(SkipSpace(b[end:]), ":"); !ok {
			return nil, false
		}
		if b, ok = member(name, SkipSpace(b)); !ok {
			return nil, false
		}
		var done bool
		if b, done, ok = separator(b, '}'); !ok || done {
			return b, ok
		}
	}
}

// Elements walks the array b opens with, calling element with the bytes
// from each element on; element returns what follows it, or false to
// decline. Elements returns what follows the array.
func Elements(b []byte, element func(value []byte) ([]byte, bool)) ([]byte, bool) {
	b, ok := CutPrefix(SkipSpace(b), "[")
	if !ok {
		return nil, false
	}
	b = SkipSpace(b)
	if len(b) > 0 && b[0] == ']' {
		return b[1:], true
	}
	for {
		if b, ok = element(b); !ok {
			return nil, false
		}
		var done bool
		if b, done, ok = separator(b, ']'); !ok || done {
			return b, ok
		}
	}
}

// separator reads what follows a member or an element: a comma, after
// which the next one starts (returned), or close, which ends the object
// or array (done, with what follows it returned).
func separator(b []byte, close byte) (rest []byte, done, ok bool) {
	b = SkipSpace(b)
	switch {
	case len(b) > 0 && b[0] == ',':
		return SkipSpace(b[1:]), false, true
	case len(b) > 0 && b[0] == close:
		return b[1:], true, true
	}
	return nil, false, false
}

// Fields is the set of member names a direct reader reads into a field.
// A member it does not read may be skipped only when its name matches
// none of them ignoring case: encoding/json would decode it into that
// field.
type Fields struct {
	byLen [][]string // the names by length
}

// NewFields returns the set of names.
func NewFields(names ...string) *Fields {
	f := &Fields{}
	for _, n := range names {
		for len(f.byLen) <= len(n) {
			f.byLen = append(f.byLen, nil)
		}
		f.byLen[len(n)] = append(f.byLen[len(n)], n)
	}
	return f
}

// Fold reports whether the ASCII name equals one of the names ignoring
// case, as encoding/json matches member names to fields.
func (f *Fields) Fold(name []byte) bool {
	if len(name) >= len(f.byLen) {
		return false
	}
	for _, n := range f.byLen[len(name)] {
		same := true
		for i := 0; i < len(n) && same; i++ {
			same = lower(n[i]) == lower(name[i])
		}
		if same {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Once marks bit in seen and reports whether it was clear. A direct reader
// declines a member it already read: encoding/json's rules for repeated
// names (the last wins, merged into what the first set) are left to it.
func Once(seen *uint, bit uint) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// SkipUnread skips the value v of a member the caller does not read, and
// declines one whose name matches one of the caller's fields ignoring
// case: encoding/json would decode it into that field.
func SkipUnread(name, v []byte, fields *Fields) ([]byte, bool) {
	if fields.Fold(name) {
		return nil, false
	}
	return SkipValue(v)
}

// SkipValue removes one JSON value from the start of b, checking its
// syntax as encoding/json does; it declines values nested deeper than
// maxSkipDepth. Strings are not checked for UTF-8, which encoding/json
// does not reject either.
func SkipValue(b []byte) ([]byte, bool) { return skipValue(b, 0) }

func skipValue(b []byte, depth int) ([]byte, bool) {
	if len(b) == 0 {
		return nil, false
	}
	switch c := b[0]; {
	case c == '"':
		end, ok := skipString(b)
		if !ok {
			return nil, false
		}
		return b[end:], true
	case c == '{' || c == '[':
		if depth >= maxSkipDepth {
			return nil, false
		}
		return skipContainer(b, depth)
	case c == 't':
		return CutPrefix(b, "true")
	case c == 'f':
		return CutPrefix(b, "false")
	case c == 'n':
		return CutPrefix(b, "null")
	}
	return skipNumber(b)
}

// skipContainer skips the object or array b opens with.
func skipContainer(b []byte, depth int) ([]byte, bool) {
	object := b[0] == '{'
	closer := byte(']')
	if object {
		closer = '}'
	}
	b = SkipSpace(b[1:])
	if len(b) > 0 && b[0] == closer {
		return b[1:], true
	}
	for {
		var ok bool
		if object {
			end, ok := skipString(b)
			if !ok {
				return nil, false
			}
			if b, ok = CutPrefix(SkipSpace(b[end:]), ":"); !ok {
				return nil, false
			}
			b = SkipSpace(b)
		}
		if b, ok = skipValue(b, depth+1); !ok {
			return nil, false
		}
		b = SkipSpace(b)
		if len(b) == 0 {
			return nil, false
		}
		switch b[0] {
		case ',':
			b = SkipSpace(b[1:])
		case closer:
			return b[1:], true
		default:
			return nil, false
		}
	}
}

// skipNumber skips -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func skipNumber(b []byte) ([]byte, bool) {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return nil, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return nil, false
		}
		i = j
	}
	return b[i:], true
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
