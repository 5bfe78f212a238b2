package ui

import (
	"strings"
)

// Syntax highlighting of code blocks. A small scanner of our own colours
// comments, strings, numbers and keywords for the languages models write
// most, chosen by the fence's info string; other code shows plain. It
// looks at each byte a bounded number of times (a comment's or a
// string's end is searched for once, from where it starts), so a block
// costs what its length costs whatever it holds, and it never fails.

// codeClass is what a stretch of code is, for its colour.
type codeClass uint8

const (
	codePlain codeClass = iota
	codeComment
	codeKeyword
	codeString
	codeNumber
	codeAdded   // a diff's added line
	codeRemoved // a diff's removed line
	codeClasses
)

// langKind says how a language is scanned beyond its comments, strings
// and keywords.
type langKind uint8

const (
	langCode   langKind = iota
	langDiff            // by line: +, -, @@
	langMarkup          // tags, attributes, comments
)

// codeLang describes one language to the scanner.
type codeLang struct {
	kind    langKind
	comment []string    // line comment starts
	block   [][2]string // block comment start and end
	quotes  string      // string delimiters
	triple  bool        // """ and ''' strings (python)
	// multiline says which quotes may span lines (a backtick's template).
	multiline string
	// hashWord says a line comment starts only at a word's start (sh:
	// "a#b" is a word).
	hashWord bool
	// keys colours a name or string before a colon as a keyword (yaml,
	// json's keys).
	keys     bool
	fold     bool // keywords in any case (sql)
	keywords map[string]bool
}

// words makes a keyword set of a space-separated list.
func words(s string) map[string]bool {
	f := strings.Fields(s)
	m := make(map[string]bool, len(f))
	for _, w := range f {
		m[w] = true
	}
	return m
}

// langFor returns the language a fence's info string names, nil for one
// the scanner does not know. Languages are built on first use and kept
// in langs.
func langFor(langs map[string]*codeLang, info string) *codeLang {
	name := strings.ToLower(strings.TrimSpace(info))
	if i := strings.IndexAny(name, " \t{,"); i >= 0 {
		name = name[:i]
	}
	name = canonicalLang(name)
	if name == "" {
		return nil
	}
	if l, ok := langs[name]; ok {
		return l
	}
	l := newLang(name)
	langs[name] = l
	return l
}

// canonicalLang maps the names models give a language to one name.
func canonicalLang(name string) string {
	switch name {
	case "go", "golang":
		return "go"
	case "py", "python", "python3", "py3":
		return "python"
	case "js", "javascript", "jsx", "mjs", "cjs", "ts", "typescript", "tsx", "node":
		return "js"
	case "sh", "bash", "shell", "zsh", "console", "shellsession", "ksh", "fish":
		return "sh"
	case "json", "jsonc", "json5", "jsonl", "ndjson":
		return "json"
	case "yaml", "yml", "toml", "ini", "conf", "dockerfile", "makefile", "make":
		return "yaml"
	case "rust", "rs":
		return "rust"
	case "c", "h", "cpp", "c++", "cc", "cxx", "hpp", "objc", "cs", "csharp", "c#":
		return "c"
	case "java", "kotlin", "kt", "scala", "swift", "groovy":
		return "java"
	case "sql", "postgres", "postgresql", "mysql", "sqlite", "psql":
		return "sql"
	case "html", "xml", "svg", "xhtml", "vue", "svelte", "htm", "plist":
		return "html"
	case "diff", "patch", "udiff":
		return "diff"
	}
	return ""
}

func newLang(name string) *codeLang {
	switch name {
	case "go":
		return &codeLang{comment: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: "\"'`", multiline: "`",
			keywords: words("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false iota append len cap make new panic recover error string int int64 int32 uint uint64 uint8 byte rune bool float64 float32 any")}
	case "python":
		return &codeLang{comment: []string{"#"}, quotes: "\"'", triple: true,
			keywords: words("and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield None True False self print len range")}
	case "js":
		return &codeLang{comment: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: "\"'`", multiline: "`",
			keywords: words("async await break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return static super switch this throw try typeof var void while with yield null undefined true false interface type enum implements readonly as keyof declare namespace public private protected string number boolean any unknown never")}
	case "sh":
		return &codeLang{comment: []string{"#"}, quotes: "\"'", multiline: "\"'", hashWord: true,
			keywords: words("if then else elif fi for while until do done case esac in function return exit export local readonly set unset shift source echo cd test true false break continue eval exec trap")}
	case "json":
		return &codeLang{comment: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: "\"", keys: true,
			keywords: words("true false null")}
	case "yaml":
		return &codeLang{comment: []string{"#"}, quotes: "\"'", keys: true, hashWord: true,
			keywords: words("true false null yes no on off")}
	case "rust":
		return &codeLang{comment: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: "\"",
			keywords: words("as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while Some None Ok Err Box Vec String Option Result i32 i64 u8 u32 u64 usize isize f32 f64 bool str")}
	case "c":
		return &codeLang{comment: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: "\"'",
			keywords: words("auto break case char const continue default do double else enum extern float for goto if inline int long register return short signed sizeof static struct switch typedef union unsigned void volatile while bool true false nullptr NULL class namespace template typename public private protected virtual override new delete this using std include define ifdef ifndef endif pragma auto constexpr noexcept")}
	case "java":
		return &codeLang{comment: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: "\"'",
			keywords: words("abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for if implements import instanceof int interface long native new package private protected public return short static super switch synchronized this throw throws try void volatile while true false null var val fun record String")}
	case "sql":
		return &codeLang{comment: []string{"--"}, block: [][2]string{{"/*", "*/"}}, quotes: "'\"", fold: true,
			keywords: words("select from where and or not insert into values update set delete create table drop alter index primary key foreign references join left right inner outer full on as group by order having limit offset union all distinct null is in like between case when then else end exists default unique constraint view with returning begin commit rollback transaction asc desc count sum avg min max integer int text varchar boolean timestamp")}
	case "html":
		return &codeLang{kind: langMarkup}
	case "diff":
		return &codeLang{kind: langDiff}
	}
	return nil
}

// codeSpan is a stretch of code of one class.
type codeSpan struct {
	end   int
	class codeClass
}

// scanner splits code into spans; spans[k] ends at spans[k].end and
// starts where the span before it ends.
type scanner struct {
	src   string
	spans []codeSpan
}

func (s *scanner) emit(end int, c codeClass) {
	if end > len(s.src) {
		end = len(s.src)
	}
	n := len(s.spans)
	switch {
	case n > 0 && s.spans[n-1].end >= end, n == 0 && end == 0:
		// Nothing new.
	case n > 0 && s.spans[n-1].class == c:
		s.spans[n-1].end = end
	default:
		s.spans = append(s.spans, codeSpan{end: end, class: c})
	}
}

// scanCode returns the spans of src in l; a nil l gives one plain span.
func scanCode(l *codeLang, src string) []codeSpan {
	s := &scanner{src: src}
	switch {
	case l == nil:
		s.emit(len(src), codePlain)
	case l.kind == langDiff:
		s.diff()
	case l.kind == langMarkup:
		s.markup()
	default:
		s.code(l)
	}
	return s.spans
}

func identStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func identByte(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }

// lineEnd returns the index of the newline at or after i, or len(s).
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// code scans a language of comments, strings, numbers and keywords.
func (s *scanner) code(l *codeLang) {
	src := s.src
	i := 0
	for i < len(src) {
		c := src[i]
		if end, ok := s.comment(l, i); ok {
			s.emit(end, codeComment)
			i = end
			continue
		}
		switch {
		case strings.IndexByte(l.quotes, c) >= 0:
			end := quotedEnd(l, src, i)
			class := codeString
			if l.keys && followedByColon(src, end) {
				class = codeKeyword
			}
			s.emit(end, class)
			i = end
		case c >= '0' && c <= '9' || c == '-' && l.keys && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i + 1
			for j < len(src) && (identByte(src[j]) || src[j] == '.') {
				j++
			}
			s.emit(j, codeNumber)
			i = j
		case identStart(c):
			j := i + 1
			for j < len(src) && (identByte(src[j]) || l.keys && (src[j] == '-' || src[j] == '.')) {
				j++
			}
			class := codePlain
			switch {
			case l.keys && followedByColon(src, j):
				class = codeKeyword
			case keyword(l, src[i:j]):
				class = codeKeyword
			}
			s.emit(j, class)
			i = j
		default:
			s.emit(i+1, codePlain)
			i++
		}
	}
}

// comment reports whether a comment starts at i, and where it ends.
func (s *scanner) comment(l *codeLang, i int) (int, bool) {
	src := s.src
	for _, b := range l.block {
		if strings.HasPrefix(src[i:], b[0]) {
			if j := strings.Index(src[i+len(b[0]):], b[1]); j >= 0 {
				return i + len(b[0]) + j + len(b[1]), true
			}
			return len(src), true
		}
	}
	for _, c := range l.comment {
		if strings.HasPrefix(src[i:], c) {
			if l.hashWord && i > 0 && src[i-1] != ' ' && src[i-1] != '\t' && src[i-1] != '\n' {
				return 0, false
			}
			return lineEnd(src, i), true
		}
	}
	return 0, false
}

// quotedEnd returns where the string starting at i ends: after its
// closing quote, or at the line's end for one left open (a quote that
// may not span lines).
func quotedEnd(l *codeLang, src string, i int) int {
	q := src[i]
	if l.triple && strings.HasPrefix(src[i:], strings.Repeat(string(q), 3)) {
		if j := strings.Index(src[i+3:], src[i:i+3]); j >= 0 {
			return i + 3 + j + 3
		}
		return len(src)
	}
	multi := strings.IndexByte(l.multiline, q) >= 0
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			if q != '\'' || !l.hashWord { // sh's '…' has no escapes
				j++
			}
		case '\n':
			if !multi {
				return j
			}
		case q:
			return j + 1
		}
	}
	return len(src)
}

// followedByColon reports whether the next character on the line after
// i, spaces aside, is a colon (a key in yaml or json).
func followedByColon(src string, i int) bool {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i < len(src) && src[i] == ':'
}

// keyword reports whether w is one of l's keywords.
func keyword(l *codeLang, w string) bool {
	if !l.fold {
		return l.keywords[w]
	}
	if len(w) > 16 {
		return false
	}
	var b [16]byte
	for k := 0; k < len(w); k++ {
		c := w[k]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[k] = c
	}
	return l.keywords[string(b[:len(w)])]
}

// diff colours whole lines: added, removed, and the hunk headers.
func (s *scanner) diff() {
	src := s.src
	for i := 0; i < len(src); {
		end := lineEnd(src, i)
		line := src[i:end]
		class := codePlain
		switch {
		case strings.HasPrefix(line, "+++") || strings.HasPrefix(line, "---") || strings.HasPrefix(line, "@@") ||
			strings.HasPrefix(line, "diff ") || strings.HasPrefix(line, "index "):
			class = codeKeyword
		case strings.HasPrefix(line, "+"):
			class = codeAdded
		case strings.HasPrefix(line, "-"):
			class = codeRemoved
		}
		s.emit(end, class)
		if end < len(src) {
			s.emit(end+1, codePlain)
		}
		i = end + 1
	}
}

// markup colours HTML and XML: comments, tags with their names, and
// attribute values.
func (s *scanner) markup() {
	src := s.src
	i := 0
	for i < len(src) {
		switch {
		case strings.HasPrefix(src[i:], "<!--"):
			end := len(src)
			if j := strings.Index(src[i+4:], "-->"); j >= 0 {
				end = i + 4 + j + 3
			}
			s.emit(end, codeComment)
			i = end
		case src[i] == '<' && i+1 < len(src) && (identStart(src[i+1]) || src[i+1] == '/' || src[i+1] == '!' || src[i+1] == '?'):
			i = s.tag(i)
		case src[i] == '&':
			j := i + 1
			for j < len(src) && j-i < 12 && (identByte(src[j]) || src[j] == '#') {
				j++
			}
			if j < len(src) && src[j] == ';' {
				s.emit(j+1, codeNumber)
				i = j + 1
				continue
			}
			s.emit(i+1, codePlain)
			i++
		default:
			s.emit(i+1, codePlain)
			i++
		}
	}
}

// tag scans a tag from its "<" to its ">" and returns where it ends.
func (s *scanner) tag(i int) int {
	src := s.src
	j := i + 1
	for j < len(src) && (identByte(src[j]) || strings.IndexByte("/!?:-.", src[j]) >= 0) {
		j++
	}
	s.emit(j, codeKeyword)
	for j < len(src) {
		switch c := src[j]; {
		case c == '>':
			s.emit(j+1, codeKeyword)
			return j + 1
		case c == '"' || c == '\'':
			end := len(src)
			if k := strings.IndexByte(src[j+1:], c); k >= 0 {
				end = j + 1 + k + 1
			}
			s.emit(end, codeString)
			j = end
		case c == '<':
			return j // a tag left open: the next one starts here
		default:
			s.emit(j+1, codePlain)
			j++
		}
	}
	return j
}

// highlight returns the lines of code coloured with sgr, the SGR
// parameters of each class. Each line opens and closes its own colours,
// so it can be wrapped and shown alone.
func highlight(l *codeLang, code string, sgr *[codeClasses]string) []string {
	spans := scanCode(l, code)
	var lines []string
	var b strings.Builder
	b.Grow(len(code) + len(code)/4)
	start := 0
	for _, sp := range spans {
		seg := code[start:sp.end]
		start = sp.end
		for {
			nl := strings.IndexByte(seg, '\n')
			piece := seg
			if nl >= 0 {
				piece = seg[:nl]
			}
			if piece != "" {
				b.WriteString("\x1b[")
				b.WriteString(sgr[sp.class])
				b.WriteString("m")
				b.WriteString(piece)
				b.WriteString("\x1b[m")
			}
			if nl < 0 {
				break
			}
			lines = append(lines, b.String())
			b.Reset()
			seg = seg[nl+1:]
		}
	}
	return append(lines, b.String())
}
