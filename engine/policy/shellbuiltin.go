package policy

import (
	"path"
	"strings"
)

// addBuiltin records the shell builtins that run text given as an
// argument later (trap), or change what a later command name runs (alias,
// hash), and reports whether name was one.
func (l *shellLine) addBuiltin(name string, part shellPart, words []word, depth int) bool {
	switch {
	case name == "trap" && len(words) > 2 && words[1].text != "-" && !strings.HasPrefix(words[1].text, "-"):
		// trap 'line' SIGNAL runs the line later, as eval would now.
		if !words[1].fixed {
			l.addUnknown(part, words)
			return true
		}
		l.parts = append(l.parts, part)
		l.addSource(words[1].text, depth+1)
		return true
	case name == "alias":
		// alias r=rm makes a later `r x` run rm: deny rules see each
		// alias's text as a command line of its own.
		l.parts = append(l.parts, part)
		for _, w := range words[1:] {
			_, value, ok := strings.Cut(w.text, "=")
			switch {
			case !ok:
			case !w.fixed:
				l.addUnknown(part, words)
			default:
				l.addSource(value, depth+1)
			}
		}
		return true
	case name == "hash":
		// hash -p /bin/rm ls makes a later `ls x` run rm.
		l.parts = append(l.parts, part)
		for i := 1; i+1 < len(words); i++ {
			if words[i].text == "-p" {
				l.denyForms = append(l.denyForms, path.Base(words[i+1].text))
			}
		}
		return true
	}
	return false
}
