package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// page is a fetched body turned into text for the model.
type page struct {
	kind  string // "markdown", "json", "text"
	title string
	text  string
}

// errBinary reports a body that is not text; it carries the media type.
type errBinary struct{ mediaType string }

func (e errBinary) Error() string { return "binary content (" + e.mediaType + ")" }

// convertBody turns a response body into text according to its media type:
// HTML becomes Markdown (links made absolute against pageURL), JSON is
// pretty-printed, other text passes through, and binary data is refused.
func convertBody(ctx context.Context, body []byte, contentType, pageURL string) (page, error) {
	mt, params, _ := mime.ParseMediaType(contentType)
	sniffed := http.DetectContentType(body[:min(len(body), 512)])
	if mt == "" || mt == "application/octet-stream" {
		mt, _, _ = mime.ParseMediaType(sniffed)
	}
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		return htmlToMarkdown(ctx, body, contentType, pageURL)
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		var out bytes.Buffer
		if err := json.Indent(&out, bytes.TrimSpace(body), "", "  "); err == nil {
			return page{kind: "json", text: out.String()}, nil
		}
		return page{kind: "text", text: string(body)}, nil
	case binaryMediaType(mt):
		return page{}, errBinary{mediaType: mt}
	}
	text, err := decodeCharset(body, params["charset"], contentType)
	if err != nil {
		return page{}, err
	}
	if isBinary([]byte(text[:min(len(text), sniffSize)])) {
		if mt == "" || strings.HasPrefix(mt, "text/") {
			mt, _, _ = mime.ParseMediaType(sniffed)
		}
		return page{}, errBinary{mediaType: mt}
	}
	return page{kind: "text", text: text}, nil
}

// binaryMediaType reports media types that are never useful as text, even
// when their first bytes happen to look like it.
func binaryMediaType(mt string) bool {
	for _, p := range []string{"image/", "audio/", "video/", "font/"} {
		if strings.HasPrefix(mt, p) && mt != "image/svg+xml" {
			return true
		}
	}
	switch mt {
	case "application/pdf", "application/zip", "application/gzip", "application/x-gzip",
		"application/x-tar", "application/wasm", "application/x-executable", "application/vnd.ms-excel":
		return true
	}
	return false
}

// decodeCharset converts a declared non-UTF-8 text body to UTF-8.
func decodeCharset(body []byte, declared, contentType string) (string, error) {
	if declared == "" || strings.EqualFold(declared, "utf-8") || strings.EqualFold(declared, "us-ascii") {
		return string(body), nil
	}
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		return string(body), nil // unknown charset: show the bytes as they are
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("decode %s text: %w", declared, err)
	}
	return string(b), nil
}

func htmlToMarkdown(ctx context.Context, body []byte, contentType, pageURL string) (page, error) {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		r = bytes.NewReader(body)
	}
	doc, err := html.Parse(r)
	if err != nil {
		return page{}, fmt.Errorf("parse HTML: %w", err)
	}
	title := findTitle(doc)
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
		strikethrough.NewStrikethroughPlugin(),
	))
	md, err := conv.ConvertNode(doc, converter.WithDomain(pageURL), converter.WithContext(ctx))
	if err != nil {
		return page{}, fmt.Errorf("convert HTML to Markdown: %w", err)
	}
	return page{kind: "markdown", title: title, text: string(md)}, nil
}

// findTitle returns the text of the document's first <title>.
func findTitle(n *html.Node) string {
	if n.Type == html.ElementNode && n.Data == "title" {
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				b.WriteString(c.Data)
			}
		}
		return strings.Join(strings.Fields(b.String()), " ")
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := findTitle(c); t != "" {
			return t
		}
	}
	return ""
}
