package replay

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmrt/llmrt/internal/recordings"
)

// Recording is one recorded HTTP interaction in the normalized format the
// recordings' README describes. A Recording is an http.Handler that replays
// its response.
type Recording struct {
	ID           string `json:"id"`
	Provider     string `json:"provider"`
	Host         string `json:"host"`
	API          string `json:"api"`
	Model        string `json:"model"`
	Streaming    bool   `json:"streaming"`
	StreamFormat string `json:"stream_format"` // sse | sse-with-comments | ndjson | json-array | ""
	// InteractionIndex is this exchange's position among the
	// InteractionCount exchanges of its source cassette.
	InteractionIndex int              `json:"interaction_index"`
	InteractionCount int              `json:"interaction_count"`
	Request          RecordedRequest  `json:"request"`
	Response         RecordedResponse `json:"response"`
	// Path is the file the recording was loaded from.
	Path string `json:"-"`
}

// RecordedRequest is the request the recording's source client sent.
type RecordedRequest struct {
	Method  string      `json:"method"`
	URL     string      `json:"url"`
	Headers http.Header `json:"headers"`
	// Body is the request body; empty when the source stored none.
	Body string `json:"body"`
}

// RecordedResponse is the response the API gave.
type RecordedResponse struct {
	Status  int         `json:"status"`
	Headers http.Header `json:"headers"`
	BodyRaw string      `json:"body_raw"`
	// BodyEncoding is "utf-8", or "base64" when BodyRaw encodes raw bytes.
	BodyEncoding string `json:"body_encoding"`
}

// Body returns the response body bytes exactly as the API sent them.
func (r *Recording) Body() []byte {
	if r.Response.BodyEncoding == "base64" {
		b, err := base64.StdEncoding.DecodeString(r.Response.BodyRaw)
		if err == nil {
			return b
		}
	}
	return []byte(r.Response.BodyRaw)
}

// RequestJSON decodes the recorded request body, failing t when it is not a
// JSON object.
func (r *Recording) RequestJSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Request.Body), &m); err != nil {
		t.Fatalf("recording %s: request body is not a JSON object: %v", r.Path, err)
	}
	return m
}

// Dir returns the recordings folder, ../shared/testdata/provider-recordings
// beside the module's root directory. It skips t when the folder is absent,
// or fails t when LLMRT_REQUIRE_RECORDINGS is set (see package recordings).
func Dir(t testing.TB) string {
	t.Helper()
	return recordings.Dir(t)
}

// Main runs a provider package's tests (call it from TestMain) and, when
// the recordings are absent, says once on stderr that the replay tests
// were skipped and why, instead of a skip per test that only -v shows.
func Main(m *testing.M) int { return recordings.Main(m) }

// Load reads the recording at rel (such as "openai/fantasy__...json") inside
// the recordings folder. Header names are canonicalized so Get works.
func Load(t testing.TB, rel string) *Recording {
	t.Helper()
	path := filepath.Join(Dir(t), filepath.FromSlash(rel))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	var rec Recording
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("replay: decode %s: %v", rel, err)
	}
	rec.Path = rel
	rec.Request.Headers = canonical(rec.Request.Headers)
	rec.Response.Headers = canonical(rec.Response.Headers)
	return &rec
}

// Glob returns the recordings matching pattern (filepath.Match syntax,
// relative to the recordings folder, such as "xai/*streaming*.json"), as
// slash-separated relative paths in lexical order. It fails t when nothing
// matches, so a renamed file cannot silently empty a table test.
func Glob(t testing.TB, pattern string) []string {
	t.Helper()
	dir := Dir(t)
	matches, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pattern)))
	if err != nil {
		t.Fatalf("replay: bad pattern %q: %v", pattern, err)
	}
	if len(matches) == 0 {
		t.Fatalf("replay: no recordings match %q in %s", pattern, dir)
	}
	rels := make([]string, len(matches))
	for i, m := range matches {
		rel, err := filepath.Rel(dir, m)
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		rels[i] = filepath.ToSlash(rel)
	}
	return rels
}

// Pieces splits a response body the way the API delivered it, so a replay
// can flush after each piece: SSE after each blank line that ends an event,
// NDJSON after each line, a streamed JSON array in four slices. Any other
// format is one piece.
func Pieces(body []byte, format string) [][]byte {
	var pieces [][]byte
	switch format {
	case "sse", "sse-with-comments":
		start := 0
		for i := 0; i < len(body); i++ {
			if body[i] != '\n' {
				continue
			}
			// A line just ended; a blank line right after it ends the event.
			end := -1
			switch {
			case i+1 < len(body) && body[i+1] == '\n':
				end = i + 2
			case i+2 < len(body) && body[i+1] == '\r' && body[i+2] == '\n':
				end = i + 3
			}
			if end > 0 {
				pieces = append(pieces, body[start:end])
				start, i = end, end-1
			}
		}
		if start < len(body) {
			pieces = append(pieces, body[start:])
		}
	case "ndjson":
		for len(body) > 0 {
			i := bytes.IndexByte(body, '\n')
			if i < 0 {
				i = len(body) - 1
			}
			pieces = append(pieces, body[:i+1])
			body = body[i+1:]
		}
	case "json-array":
		n := (len(body) + 3) / 4
		for len(body) > 0 {
			k := min(n, len(body))
			pieces = append(pieces, body[:k])
			body = body[k:]
		}
	default:
		pieces = append(pieces, body)
	}
	return pieces
}

// Grow builds a large body for a parsing benchmark from the pieces of a
// recording: head, then middle repeated until the body reaches size, then
// tail. An empty middle is not repeated.
func Grow(head, middle, tail [][]byte, size int) []byte {
	var buf bytes.Buffer
	for _, p := range head {
		buf.Write(p)
	}
	n := 0
	for _, p := range middle {
		n += len(p)
	}
	for n > 0 && buf.Len() < size {
		for _, p := range middle {
			buf.Write(p)
		}
	}
	for _, p := range tail {
		buf.Write(p)
	}
	return buf.Bytes()
}

func canonical(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for k, vs := range h {
		for _, v := range vs {
			out.Add(k, v)
		}
	}
	return out
}
