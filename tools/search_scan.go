package tools

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"
)

const (
	// scanChunk is the read size; files up to it are searched in one pass.
	scanChunk = 256 << 10
	// maxScanLine bounds the line a scan will grow its buffer for; a file
	// with a longer line is treated like a binary (minified data, dumps).
	maxScanLine = 16 << 20
	maxHitChars = 300
)

// matcher finds the lines of a file that match a regular expression. When
// every match must contain a literal, it looks for the literal with
// bytes.Index (SIMD-accelerated) and runs the regexp only on lines that
// contain it; a regexp that is just a literal never runs at all. For
// case-insensitive expressions it looks for a rare byte of a required
// literal in both cases instead (see foldFinder).
type matcher struct {
	re       *regexp.Regexp
	lit      []byte
	complete bool // re matches exactly the occurrences of lit
	fold     *foldFinder
}

func newMatcher(expr string) (*matcher, error) {
	// (?m) makes ^ and $ match at line boundaries, since a whole chunk of
	// lines is searched at once.
	re, err := regexp.Compile("(?m)" + expr)
	if err != nil {
		return nil, err
	}
	m := &matcher{re: re}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return m, nil
	}
	tree = tree.Simplify()
	lit, complete := requiredLiteral(tree)
	fold := requiredFold(tree)
	if len(lit) >= 3 || len(fold) <= len(lit) {
		m.lit, m.complete = []byte(lit), complete
		return m, nil
	}
	m.fold = newFoldFinder(fold)
	return m, nil
}

// requiredLiteral returns a literal that every match of re contains, the
// longest it can find cheaply, and whether re matches exactly that literal.
func requiredLiteral(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return "", false
		}
		return string(re.Rune), true
	case syntax.OpCapture:
		return requiredLiteral(re.Sub[0])
	case syntax.OpPlus, syntax.OpRepeat:
		if re.Op == syntax.OpRepeat && re.Min < 1 {
			return "", false
		}
		lit, _ := requiredLiteral(re.Sub[0])
		return lit, false
	case syntax.OpConcat:
		best := ""
		for _, s := range re.Sub {
			if lit, _ := requiredLiteral(s); len(lit) > len(best) {
				best = lit
			}
		}
		return best, false
	}
	return "", false
}

// requiredFold is requiredLiteral for case-insensitive literals: the
// longest run of a literal that every match contains up to ASCII case,
// lower-cased. Runs stop at non-ASCII runes and at k and s, whose case
// variants include non-ASCII runes (K, ſ) that a byte search would miss.
func requiredFold(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpLiteral:
		best, run := "", []byte{}
		for _, r := range append(re.Rune, 0x80) {
			lr := unicode.ToLower(r)
			if r >= utf8.RuneSelf || lr == 'k' || lr == 's' {
				if len(run) > len(best) {
					best = string(run)
				}
				run = run[:0]
				continue
			}
			run = append(run, byte(lr))
		}
		return best
	case syntax.OpCapture, syntax.OpPlus:
		return requiredFold(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return ""
		}
		return requiredFold(re.Sub[0])
	case syntax.OpConcat:
		best := ""
		for _, s := range re.Sub {
			if f := requiredFold(s); len(f) > len(best) {
				best = f
			}
		}
		return best
	}
	return ""
}

// hit is one matching line.
type hit struct {
	line int
	text string
}

// scanner searches files with a reusable buffer; one per worker.
type scanner struct {
	m   *matcher
	buf []byte
	b   *beneath // opens the files; nil opens by name
}

// scanFile returns up to limit matching lines of the file at abs. Binary
// files (a NUL byte in the first chunk) and unreadable files yield nothing.
func (s *scanner) scanFile(abs string, limit int) []hit {
	// Raw system calls: os.Open would also register each file with the
	// runtime poller and set a finalizer, which costs more than reading a
	// small file.
	// Never through a symlink: the walk hands over regular files only, so
	// one found here was swapped in since.
	fd, err := s.b.open(abs, syscall.O_RDONLY|syscall.O_NONBLOCK)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	if s.buf == nil {
		s.buf = make([]byte, scanChunk)
	}
	var hits []hit
	line, carry, first := 1, 0, true
	for {
		n, eof := readFull(fd, s.buf[carry:])
		n += carry
		data := s.buf[:n]
		if first && bytes.IndexByte(data, 0) >= 0 {
			return nil
		}
		first = false
		end := n
		if !eof {
			end = bytes.LastIndexByte(data, '\n') + 1
			if end == 0 {
				// One line fills the buffer: grow it and read on.
				if len(s.buf) >= maxScanLine {
					return hits
				}
				s.buf = append(s.buf, make([]byte, len(s.buf))...)
				carry = n
				continue
			}
		}
		var lines int
		hits, lines = s.m.scan(data[:end], line, limit, hits, !eof)
		line += lines
		if eof || len(hits) >= limit {
			return hits
		}
		carry = copy(s.buf, data[end:])
	}
}

// readFull fills buf from fd and reports whether the file ended (or could
// not be read further) before buf was full.
func readFull(fd int, buf []byte) (int, bool) {
	n := 0
	for n < len(buf) {
		k, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || k <= 0 {
			return n, true
		}
		n += k
	}
	return n, false
}

// scan appends the matching lines of data (whole lines; the last may lack
// its newline) numbered from first. It returns the number of lines in data
// when countAll is set, since the next chunk continues the numbering.
func (m *matcher) scan(data []byte, first, limit int, hits []hit, countAll bool) ([]hit, int) {
	line, counted, pos := first, 0, 0
	cur := newFoldCursor()
	for pos < len(data) && len(hits) < limit {
		var at, matchEnd int
		switch {
		case len(m.lit) > 0:
			i := bytes.Index(data[pos:], m.lit)
			if i < 0 {
				return m.finish(hits, data, line, first, counted, countAll)
			}
			at, matchEnd = pos+i, pos+i+len(m.lit)
		case m.fold != nil:
			at = m.fold.next(data, pos, &cur)
			if at < 0 {
				return m.finish(hits, data, line, first, counted, countAll)
			}
			matchEnd = at + len(m.fold.lit)
		default:
			loc := m.re.FindIndex(data[pos:])
			if loc == nil {
				return m.finish(hits, data, line, first, counted, countAll)
			}
			at, matchEnd = pos+loc[0], pos+loc[1]
		}
		if at == len(data) && at > 0 && data[at-1] == '\n' {
			break // an empty match after the final newline is not a line
		}
		ls := bytes.LastIndexByte(data[:at], '\n') + 1
		le := bytes.IndexByte(data[at:], '\n')
		if le < 0 {
			le = len(data)
		} else {
			le += at
		}
		text := data[ls:le]
		// Verify with the regexp unless the literal is the whole pattern,
		// or the regexp itself found this match within the line.
		ok := m.complete || (len(m.lit) == 0 && m.fold == nil && matchEnd <= le) || m.re.Match(text)
		if ok {
			line += bytes.Count(data[counted:ls], []byte{'\n'})
			counted = ls
			hits = append(hits, hit{line: line, text: hitText(text, at-ls)})
		}
		pos = le + 1
	}
	return m.finish(hits, data, line, first, counted, countAll)
}

// finish returns hits and, when countAll is set, the number of lines in
// data: line-first newlines were counted up to counted, the rest now.
func (m *matcher) finish(hits []hit, data []byte, line, first, counted int, countAll bool) ([]hit, int) {
	if !countAll {
		return hits, 0
	}
	return hits, line - first + bytes.Count(data[counted:], []byte{'\n'})
}

// hitText prepares a matching line for output: without a trailing CR,
// valid UTF-8, and cut to a window around the match when it is long.
func hitText(line []byte, at int) string {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if len(line) <= maxHitChars {
		return strings.ToValidUTF8(string(line), "\uFFFD")
	}
	from := max(0, min(at-maxHitChars/3, len(line)-maxHitChars))
	for from > 0 && !utf8.RuneStart(line[from]) {
		from--
	}
	to := min(len(line), from+maxHitChars)
	for to < len(line) && !utf8.RuneStart(line[to]) {
		to++
	}
	s := strings.ToValidUTF8(string(line[from:to]), "\uFFFD")
	if from > 0 {
		s = "…" + s
	}
	if to < len(line) {
		s += "…"
	}
	return s
}
