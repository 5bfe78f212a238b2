package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word as rules see it.
type word struct {
	// text is the word's value with quotes and escapes removed when it is
	// fixed, its source text otherwise.
	text string
	// fixed reports a word without expansions: text is what the command
	// receives.
	fixed bool
	// pattern reports unquoted glob, brace or tilde characters, which the
	// shell may turn into other words.
	pattern bool
}

func wordOf(src string, w *syntax.Word) word {
	out := word{fixed: true}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := unescape(p.Value, false)
			out.pattern = out.pattern || isPattern(p.Value)
			b.WriteString(v)
		case *syntax.SglQuoted:
			if p.Dollar {
				out.fixed = false
				b.WriteString(slice(src, p))
				continue
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if lit, ok := q.(*syntax.Lit); ok && !p.Dollar {
					b.WriteString(unescape(lit.Value, true))
					continue
				}
				out.fixed = false
				b.WriteString(slice(src, q))
			}
		default:
			out.fixed = false
			b.WriteString(slice(src, p))
		}
	}
	out.text = b.String()
	return out
}

// unescape removes the backslashes the shell removes: any escape outside
// quotes, and \\ \" \$ \` and line continuations inside double quotes.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++
		case !quoted || strings.IndexByte("\\\"$`", next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func joinWords(env []string, words []word) string {
	parts := append([]string(nil), env...)
	for _, w := range words {
		parts = append(parts, w.text)
	}
	return strings.Join(parts, " ")
}

// joinFixed joins words the way eval does, when all of them are fixed.
func joinFixed(words []word) (string, bool) {
	var parts []string
	for _, w := range words {
		if !w.fixed {
			return "", false
		}
		parts = append(parts, w.text)
	}
	return strings.Join(parts, " "), true
}

// slice is the source text of a node.
func slice(src string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	return src[start:end]
}

// isPattern reports unquoted text the shell may expand into other words:
// a glob (*, ?, [...]), a brace list ({a,b}, {1..3}) or a leading tilde.
// A lone [ or [[ is the test command, not a pattern.
func isPattern(s string) bool {
	if strings.ContainsAny(s, "*?") || strings.HasPrefix(s, "~") {
		return true
	}
	if i := strings.IndexByte(s, '['); i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0 {
		return true
	}
	if i := strings.IndexByte(s, '{'); i >= 0 {
		rest := s[i+1:]
		if j := strings.IndexByte(rest, '}'); j >= 0 && (strings.Contains(rest[:j], ",") || strings.Contains(rest[:j], "..")) {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
