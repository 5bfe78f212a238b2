package acpbridge

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
)

// MaxBlockBytes bounds one decoded image or blob of a prompt: a client
// that sends more is told so rather than trusted with memory.
const MaxBlockBytes = 20 << 20

// Prompt turns the blocks of a session/prompt into the person's message:
// text as text, a resource link as a line naming the file (the model
// reads it with its tools), an embedded text resource as text marked with
// its URI, and images (inline or embedded blobs) as image parts. Audio
// and other binary blobs are refused with an error naming the block, as
// llmrt does not announce them in its prompt capabilities.
func Prompt(blocks []acp.ContentBlock) (engine.Message, error) {
	msg := engine.Message{Role: providers.RoleUser}
	for i, b := range blocks {
		switch {
		case b.Text != nil:
			msg.Content = append(msg.Content, providers.TextPart(b.Text.Text))
		case b.ResourceLink != nil:
			l := b.ResourceLink
			msg.Content = append(msg.Content, providers.TextPart(fmt.Sprintf("[Referenced file: %s (%s)]", l.Name, Path(l.Uri))))
		case b.Resource != nil:
			p, err := embedded(b.Resource.Resource)
			if err != nil {
				return engine.Message{}, fmt.Errorf("prompt block %d: %w", i, err)
			}
			msg.Content = append(msg.Content, p)
		case b.Image != nil:
			p, err := image(b.Image.Data, b.Image.MimeType, "")
			if err != nil {
				return engine.Message{}, fmt.Errorf("prompt block %d: %w", i, err)
			}
			msg.Content = append(msg.Content, p)
		case b.Audio != nil:
			return engine.Message{}, fmt.Errorf("prompt block %d: audio is not supported; send it as text or a file", i)
		default:
			return engine.Message{}, fmt.Errorf("prompt block %d: unknown content type", i)
		}
	}
	if len(msg.Content) == 0 {
		return engine.Message{}, fmt.Errorf("the prompt is empty: send at least one text block")
	}
	return msg, nil
}

// embedded turns an embedded resource into a part.
func embedded(r acp.EmbeddedResourceResource) (providers.Part, error) {
	switch {
	case r.TextResourceContents != nil:
		t := r.TextResourceContents
		return providers.TextPart(fmt.Sprintf("<context uri=%q>\n%s\n</context>", Path(t.Uri), t.Text)), nil
	case r.BlobResourceContents != nil:
		b := r.BlobResourceContents
		mt := ""
		if b.MimeType != nil {
			mt = *b.MimeType
		}
		return image(b.Blob, mt, Path(b.Uri))
	}
	return providers.Part{}, fmt.Errorf("an embedded resource without text or blob")
}

// image decodes a base64 image; other media types are refused.
func image(data, mimeType, name string) (providers.Part, error) {
	if !strings.HasPrefix(mimeType, "image/") {
		return providers.Part{}, fmt.Errorf("binary content of type %q is not supported; send images or text", mimeType)
	}
	if base64.StdEncoding.DecodedLen(len(data)) > MaxBlockBytes {
		return providers.Part{}, fmt.Errorf("an image larger than %d MiB; send a smaller one", MaxBlockBytes>>20)
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return providers.Part{}, fmt.Errorf("image data is not base64: %v", err)
	}
	return providers.Part{Type: providers.PartImage, MediaType: mimeType, Data: raw, Name: name}, nil
}

// Path is the file path of a file:// URI, and the URI itself otherwise.
func Path(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	return u.Path
}
