package confine

import "errors"

// The few string functions this package needs, here rather than from
// strings and strconv, which would let much of a large executable's
// initialization run before the helper's (see doc.go).

// itoa formats n in decimal.
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	u := uint64(n)
	if neg {
		u = uint64(-n)
	}
	for ; u > 0; u /= 10 {
		i--
		b[i] = byte('0' + u%10)
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

var errNumber = errors.New("not a number")

// atoi parses a decimal int, with an optional minus sign.
func atoi(s string) (int, error) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if s == "" || len(s) > 18 {
		return 0, errNumber
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errNumber
		}
		n = n*10 + int(s[i]-'0')
	}
	if neg {
		n = -n
	}
	return n, nil
}

// cut slices s around the first sep.
func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// quote puts s in double quotes, for messages.
func quote(s string) string { return `"` + s + `"` }
