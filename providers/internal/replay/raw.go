package replay

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/llmrt/llmrt/internal/stream"
	"github.com/llmrt/llmrt/providers"
)

// CheckRaw streams the reply h serves twice, without and with
// providers.Request.Raw, and checks what Raw adds: at least one ChunkRaw,
// each holding valid JSON, the first before any chunk decoded from the
// wire (warnings the adapter makes itself may come earlier), and nothing
// else changed: without the raw chunks the two streams say the same, and
// without Raw no raw chunk comes at all.
func (tg Target) CheckRaw(t *testing.T, h http.Handler) {
	t.Helper()
	stream := func(raw bool) []providers.Chunk {
		t.Helper()
		srv := Sequence{h}.Serve(t)
		req := tg.Request()
		req.Raw = raw
		_, chunks, err := Run(t.Context(), tg.New(srv, providers.Timeouts{}), req)
		if err != nil {
			t.Fatalf("raw %v: %v", raw, err)
		}
		return chunks
	}
	plain, withRaw := stream(false), stream(true)
	var decoded []providers.Chunk
	raws, early := 0, false
	for _, c := range withRaw {
		if c.Type != providers.ChunkRaw {
			if raws == 0 && c.Type != providers.ChunkWarning && !early {
				early = true
				t.Errorf("chunk %+v came before the first raw chunk", c)
			}
			decoded = append(decoded, c)
			continue
		}
		raws++
		if !json.Valid(c.Raw) {
			t.Errorf("raw chunk %d: got %q, want JSON", raws, c.Raw)
		}
	}
	if raws == 0 {
		t.Errorf("raw chunks: got none, want one per payload")
	}
	for _, c := range plain {
		if c.Type == providers.ChunkRaw {
			t.Fatalf("a request without Raw got a raw chunk: %q", c.Raw)
		}
	}
	// Deltas that arrived in one read are joined, and totals folded, and
	// reads are cut where the network cuts them: the two runs are compared
	// as what they say.
	if decoded, plain = JoinDeltas(decoded), JoinDeltas(plain); !reflect.DeepEqual(decoded, plain) {
		t.Errorf("Raw changed the decoded chunks:\ngot  %+v\nwant %+v", decoded, plain)
	}
}

// JoinDeltas returns what chunks say, however the stream's reads were
// cut: each run of adjacent text deltas, and of adjacent reasoning deltas
// without a signature, made one chunk, and the usage totals folded into
// one chunk at the end.
func JoinDeltas(chunks []providers.Chunk) []providers.Chunk {
	var out []providers.Chunk
	var usage providers.Usage
	seen := false
	for _, c := range chunks {
		if c.Type == providers.ChunkUsage {
			usage, seen = stream.MergeUsage(usage, c.Usage), true
			continue
		}
		if n := len(out); n > 0 && joins(out[n-1], c) {
			out[n-1].Text += c.Text
			continue
		}
		out = append(out, c)
	}
	if seen {
		out = append(out, providers.Chunk{Type: providers.ChunkUsage, Usage: usage})
	}
	return out
}

func joins(a, b providers.Chunk) bool {
	plain := func(c providers.Chunk) bool {
		return (c.Type == providers.ChunkText || c.Type == providers.ChunkReasoning) && c.Signature == "" && c.Redacted == ""
	}
	return a.Type == b.Type && plain(a) && plain(b)
}
