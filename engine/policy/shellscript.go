package policy

import "strings"

// How a shell invocation gets its script.
const (
	scriptFile    = iota // a script file operand: the shell is a program like any other
	scriptText           // -c with fixed text: the text is parsed as a line
	scriptUnknown        // -c with an expansion, or commands read from stdin (-s, a pipe, a here-document)
)

// shellScript finds the script of a shell invocation (its arguments after
// the program name).
func shellScript(args []word) (script string, mode int) {
	c, stdin := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.fixed {
			if c {
				return "", scriptUnknown
			}
			return "", scriptFile
		}
		t := a.text
		switch {
		case t == "--" || t == "-":
			continue
		case strings.HasPrefix(t, "--"):
			if t == "--rcfile" || t == "--init-file" {
				i++
			}
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			if t[0] == '-' {
				c = c || strings.ContainsRune(t[1:], 'c')
				stdin = stdin || strings.ContainsRune(t[1:], 's')
			}
			if last := t[len(t)-1]; last == 'o' || last == 'O' {
				i++
			}
		case c:
			return t, scriptText
		case stdin:
			return "", scriptUnknown
		default:
			return "", scriptFile
		}
	}
	return "", scriptUnknown
}

// findExecs returns the commands of find's -exec, -execdir, -ok and
// -okdir actions.
func findExecs(args []word) [][]word {
	var out [][]word
	for i := 0; i < len(args); i++ {
		switch args[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		for j < len(args) && args[j].text != ";" && args[j].text != "+" {
			j++
		}
		if j > i+1 {
			out = append(out, args[i+1:j])
		}
		i = j
	}
	return out
}

// scriptOf finds the shell command line a wrapper runs, if it runs one:
// the value of a script option (su -c 'line'), or its command words
// joined (watch make test). found is false when the wrapper runs a
// command as words, or none; line is nil when the line is decided only
// when it runs.
func (w wrapper) scriptOf(args []word) (line *word, found bool) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if !args[i].fixed || t == "--" || len(t) < 2 || t[0] != '-' {
			continue
		}
		if name, value, hasValue := strings.Cut(strings.TrimPrefix(t, "--"), "="); strings.HasPrefix(t, "--") {
			for _, l := range w.scriptLong {
				switch {
				case l == name && hasValue:
					return &word{text: value, fixed: true}, true
				case l == name && i+1 < len(args):
					return wordOrNil(args[i+1]), true
				case l == name:
					return nil, true
				}
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte(w.valued, t[j]) >= 0 {
				break // the rest of the cluster, or the next word, is its value
			}
			if strings.IndexByte(w.script, t[j]) < 0 {
				continue
			}
			if j+1 < len(t) {
				return &word{text: t[j+1:], fixed: true}, true
			}
			if i+1 < len(args) {
				return wordOrNil(args[i+1]), true
			}
			return nil, true
		}
	}
	if !w.joined {
		return nil, false
	}
	for _, a := range args {
		if a.fixed && len(a.text) > 1 && a.text[0] == '-' && a.text[1] != '-' && strings.ContainsAny(a.text[1:], w.noJoin) && w.noJoin != "" {
			return nil, false
		}
		if a.fixed && a.text == "--exec" {
			return nil, false
		}
	}
	inner, _, ok := w.unwrap(args)
	if !ok || inner == nil {
		return nil, ok
	}
	text, known := joinFixed(inner)
	if !known {
		return nil, true
	}
	return &word{text: text, fixed: true}, true
}

func wordOrNil(w word) *word {
	if !w.fixed {
		return nil
	}
	return &w
}
