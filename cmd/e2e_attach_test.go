package cmd_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// A 1x1 PNG and a minimal PDF.
var (
	pngBytes, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
	pdfBytes    = []byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")
)

// TestAttachments: an attached PNG reaches each API's request as an image
// block and a PDF as a document where the API takes one; a provider that
// cannot take a part fails before any request.
func TestAttachments(t *testing.T) {
	t.Parallel()
	b64png := base64.StdEncoding.EncodeToString(pngBytes)
	b64pdf := base64.StdEncoding.EncodeToString(pdfBytes)
	cases := []struct {
		n        native
		image    []string // substrings of the request body proving an image block
		document []string // ... and a document block; nil when the API takes none
	}{
		{native{"openai", fakellm.OpenAI, func(u string) map[string]string {
			return map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": u + "/v1"}
		}}, []string{`"type":"input_image"`, "data:image/png;base64," + b64png}, []string{`"type":"input_file"`, "data:application/pdf;base64," + b64pdf}},
		{natives[0], []string{`"type":"image"`, `"media_type":"image/png"`, b64png}, []string{`"type":"document"`, `"media_type":"application/pdf"`, b64pdf}},
		{natives[1], []string{`"inlineData"`, `"mimeType":"image/png"`, b64png}, []string{`"mimeType":"application/pdf"`, b64pdf}},
		{natives[2], []string{`"images":["` + b64png}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.n.provider, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			img := sb.write("pixel.png", string(pngBytes))
			doc := sb.write("doc.pdf", string(pdfBytes))
			srv := fake(t, tc.n.protocol, finalAnswer("seen"))
			o := tc.n.run(sb, srv, "--attach", img, "-p", "describe the image")
			o.want(t, 0)
			body := string(srv.Requests()[0].Body)
			for _, want := range tc.image {
				if !strings.Contains(body, want) {
					t.Errorf("image request lacks %q", want)
				}
			}
			srv = fake(t, tc.n.protocol, finalAnswer("read"))
			o = tc.n.run(sb, srv, "--attach", doc, "-p", "summarise the document")
			if tc.document == nil {
				o.want(t, 1)
				if len(srv.Requests()) != 0 || !contains(o.stderr, "PDF") && !contains(o.stderr, "pdf") {
					t.Errorf("a provider without documents must fail before any request, naming the problem: %d requests, stderr %s", len(srv.Requests()), o.stderr)
				}
				return
			}
			o.want(t, 0)
			body = string(srv.Requests()[0].Body)
			for _, want := range tc.document {
				if !strings.Contains(body, want) {
					t.Errorf("document request lacks %q", want)
				}
			}
		})
	}
	t.Run("an unsupported file is a usage error", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		bin := sb.write("blob.bin", "\x00\x01\x02\x03 not text")
		o := sb.run(cli{args: []string{"run", "--provider", "scripted", "--model", "x.json", "--attach", bin, "-p", "x"}})
		o.want(t, 2)
		if !contains(o.stderr, "unsupported file type") {
			t.Errorf("stderr: %s", o.stderr)
		}
	})
}
