package rpc

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkCall is one request and its answer over a stream, against a
// peer that answers at once, with a result of the given size: the
// client's own cost per call (encode, match, decode) and its allocations.
func BenchmarkCall(b *testing.B) {
	for _, size := range []int{100, 100 << 10} {
		b.Run(fmt.Sprintf("result=%dB", size), func(b *testing.B) {
			cr, pw := io.Pipe()
			pr, cw := io.Pipe()
			text, _ := json.Marshal(strings.Repeat("a", size))
			go func() {
				sc := bufio.NewScanner(pr)
				var m struct{ ID int64 }
				for sc.Scan() {
					_ = json.Unmarshal(sc.Bytes(), &m)
					fmt.Fprintf(pw, `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%s}]}}`+"\n", m.ID, text)
				}
			}()
			c := NewClient(NewStream(cr, cw, func() error { return pw.Close() }), Options{})
			if err := c.Start(context.Background()); err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			ctx := context.Background()
			params := map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				var out json.RawMessage
				if err := c.Call(ctx, "tools/call", params, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
