package google

import (
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// Nearly every event of a stream is a response whose one candidate holds
// one text (or thought) part, with running usage and the model's version.
// decodeResponse reads such a response directly, in any key order and
// spacing, with the adapter package's scanners instead of the reflective
// decoder, which costs several times more than the bytes it reads. It
// reads only the fields response declares, skips members no field
// matches (index, safety ratings, token details, responseId), and declines
// anything else: a function call, prompt feedback, an error, null where
// an object is expected, a name matching a field only by case, a repeated
// member, a string left to encoding/json. A declined event goes to the
// general decoder, so the result is always what encoding/json reads.

// The names of the fields of response, candidate, its content,
// responsePart and usageMetadata.
var (
	responseNames  = adapter.NewFields("candidates", "promptFeedback", "usageMetadata", "error")
	candidateNames = adapter.NewFields("content", "finishReason")
	contentNames   = adapter.NewFields("parts")
	partNames      = adapter.NewFields("text", "thought", "thoughtSignature", "functionCall")
	usageNames     = adapter.NewFields("promptTokenCount", "cachedContentTokenCount", "toolUsePromptTokenCount",
		"candidatesTokenCount", "thoughtsTokenCount")
)

// decodeResponse fills r from data when data is a response it reads
// directly and reports whether it did; when it declines, r may hold part
// of data. The candidate, content, parts and usage objects r holds from
// the event before are reused, zeroed (the streamer keeps none of them
// past an event); scratch is reused for unescaping.
func decodeResponse(data []byte, r *response, scratch *adapter.Scratch) bool {
	if apiResponse(data, r, scratch) {
		return true
	}
	spare := *r
	*r = response{}
	var seen uint
	rest, ok := adapter.Members(data, func(name, v []byte) ([]byte, bool) {
		switch string(name) {
		case "candidates":
			if !adapter.Once(&seen, 1) {
				return nil, false
			}
			r.Candidates = spare.Candidates[:0]
			if r.Candidates == nil {
				r.Candidates = []*candidate{}
			}
			return adapter.Elements(v, func(v []byte) ([]byte, bool) {
				var c *candidate
				if n := len(r.Candidates); n < cap(r.Candidates) {
					c = r.Candidates[:n+1][n]
				}
				if c == nil {
					c = new(candidate)
				}
				r.Candidates = append(r.Candidates, c)
				return readCandidate(v, c, scratch)
			})
		case "usageMetadata":
			if !adapter.Once(&seen, 2) {
				return nil, false
			}
			r.UsageMetadata = spare.UsageMetadata
			if r.UsageMetadata == nil {
				r.UsageMetadata = new(usageMetadata)
			}
			*r.UsageMetadata = usageMetadata{}
			return readUsage(v, r.UsageMetadata)
		}
		return adapter.SkipUnread(name, v, responseNames)
	})
	return ok && adapter.OnlySpace(rest)
}

// readCandidate reads a candidate's content and finish reason into c,
// zeroed first, reusing its content and parts.
func readCandidate(b []byte, c *candidate, scratch *adapter.Scratch) ([]byte, bool) {
	content := c.Content
	*c = candidate{}
	var seen uint
	return adapter.Members(b, func(name, v []byte) ([]byte, bool) {
		switch string(name) {
		case "content":
			if !adapter.Once(&seen, 1) {
				return nil, false
			}
			var parts []responsePart
			if content == nil {
				content = &struct {
					Parts []responsePart `json:"parts"`
				}{}
			} else {
				parts = content.Parts[:0]
				content.Parts = nil
			}
			c.Content = content
			return readContent(v, &c.Content.Parts, parts, scratch)
		case "finishReason":
			if !adapter.Once(&seen, 2) {
				return nil, false
			}
			// The enum's own reader decides, on the value's bytes.
			rest, ok := adapter.SkipValue(v)
			if !ok || c.FinishReason.UnmarshalJSON(v[:len(v)-len(rest)]) != nil {
				return nil, false
			}
			return rest, true
		}
		return adapter.SkipUnread(name, v, candidateNames)
	})
}

// readContent reads a content's parts into *parts, appending to spare,
// each text with its thought flag and signature; the role is skipped.
func readContent(b []byte, parts *[]responsePart, spare []responsePart, scratch *adapter.Scratch) ([]byte, bool) {
	var seen uint
	return adapter.Members(b, func(name, v []byte) ([]byte, bool) {
		if string(name) != "parts" {
			return adapter.SkipUnread(name, v, contentNames)
		}
		if !adapter.Once(&seen, 1) {
			return nil, false
		}
		*parts = spare
		if *parts == nil {
			*parts = []responsePart{}
		}
		return adapter.Elements(v, func(v []byte) ([]byte, bool) {
			*parts = append(*parts, responsePart{})
			return readPart(v, &(*parts)[len(*parts)-1], scratch)
		})
	})
}

// readPart reads a text or thought part.
func readPart(b []byte, p *responsePart, scratch *adapter.Scratch) ([]byte, bool) {
	var seen uint
	return adapter.Members(b, func(name, v []byte) ([]byte, bool) {
		var rest []byte
		ok := false
		switch string(name) {
		case "text":
			if adapter.Once(&seen, 1) {
				p.Text, rest, ok = adapter.ReadText(v, scratch)
			}
		case "thoughtSignature":
			if adapter.Once(&seen, 2) {
				p.ThoughtSignature, rest, ok = adapter.ReadString(v, scratch)
			}
		case "thought":
			if adapter.Once(&seen, 4) {
				p.Thought, rest, ok = adapter.ReadBool(v)
			}
		default:
			return adapter.SkipUnread(name, v, partNames)
		}
		return rest, ok
	})
}

// readUsage reads the token counts.
func readUsage(b []byte, u *usageMetadata) ([]byte, bool) {
	var seen uint
	return adapter.Members(b, func(name, v []byte) ([]byte, bool) {
		var dst *int
		var bit uint
		switch string(name) {
		case "promptTokenCount":
			dst, bit = &u.PromptTokenCount, 1
		case "cachedContentTokenCount":
			dst, bit = &u.CachedContentTokenCount, 2
		case "toolUsePromptTokenCount":
			dst, bit = &u.ToolUsePromptTokenCount, 4
		case "candidatesTokenCount":
			dst, bit = &u.CandidatesTokenCount, 8
		case "thoughtsTokenCount":
			dst, bit = &u.ThoughtsTokenCount, 16
		default:
			return adapter.SkipUnread(name, v, usageNames)
		}
		if !adapter.Once(&seen, bit) {
			return nil, false
		}
		n, rest, ok := adapter.ReadIndex(v)
		*dst = n
		return rest, ok
	})
}

// apiResponse reads a text or thought delta laid out as the API sends it,
// a space after each colon:
//
//	{"candidates": [{"content": {"parts": [{"text": S[,"thought": true]}],"role": "model"},
//	"index": N}],"usageMetadata": {...},"modelVersion": S[,"responseId": S]}
//
// comparing the names in place, which costs a fraction of walking the
// members; the usage is walked (its members vary with the model). Any
// other layout is walked whole.
func apiResponse(data []byte, r *response, scratch *adapter.Scratch) bool {
	b, ok := adapter.CutPrefix(data, `{"candidates": [{"content": {"parts": [{"text": `)
	if !ok {
		return false
	}
	var p responsePart
	if p.Text, b, ok = adapter.ReadText(b, scratch); !ok {
		return false
	}
	if rest, ok := adapter.CutPrefix(b, `,"thought": true`); ok {
		p.Thought, b = true, rest
	}
	if b, ok = adapter.CutPrefix(b, `}],"role": "model"},"index": `); !ok {
		return false
	}
	if b, ok = adapter.SkipValue(b); !ok {
		return false
	}
	if b, ok = adapter.CutPrefix(b, `}],"usageMetadata": `); !ok {
		return false
	}
	u := r.UsageMetadata
	if u == nil {
		u = new(usageMetadata)
	}
	*u = usageMetadata{}
	if rest, ok := apiUsage(b, u, &scratch.Spans[0]); ok {
		b = rest
	} else {
		*u = usageMetadata{}
		if b, ok = readUsage(b, u); !ok {
			return false
		}
	}
	// The model's version and the response's id are the same in every
	// event of a reply (see adapter.Span).
	if b, _, ok = scratch.Spans[1].Step(b, responseIDs); !ok {
		return false
	}
	if b, ok = adapter.CutPrefix(b, `}`); !ok || !adapter.OnlySpace(b) {
		return false
	}
	// The candidate, its content and its parts are reused as
	// decodeResponse reuses them.
	var c *candidate
	if len(r.Candidates) > 0 && r.Candidates[0] != nil {
		c = r.Candidates[0]
	} else {
		c = new(candidate)
	}
	content := c.Content
	if content == nil {
		content = &struct {
			Parts []responsePart `json:"parts"`
		}{}
	}
	content.Parts = append(content.Parts[:0], p)
	*c = candidate{Content: content}
	*r = response{Candidates: append(r.Candidates[:0], c), UsageMetadata: u}
	return true
}

// apiUsage reads the usage laid out as the API sends it:
//
//	{"promptTokenCount": N[,"candidatesTokenCount": N],"totalTokenCount": N,
//	"promptTokensDetails": [...][,"thoughtsTokenCount": N][,"serviceTier": S]}
//
// The token details, the same in every event of a reply, are checked
// once (details). Any other layout is walked (readUsage).
func apiUsage(b []byte, u *usageMetadata, details *adapter.Span) ([]byte, bool) {
	b, ok := adapter.CutPrefix(b, `{"promptTokenCount": `)
	if !ok {
		return nil, false
	}
	if u.PromptTokenCount, b, ok = adapter.ReadIndex(b); !ok {
		return nil, false
	}
	if rest, ok := adapter.CutPrefix(b, `,"candidatesTokenCount": `); ok {
		if u.CandidatesTokenCount, b, ok = adapter.ReadIndex(rest); !ok {
			return nil, false
		}
	}
	if b, ok = adapter.CutPrefix(b, `,"totalTokenCount": `); !ok {
		return nil, false
	}
	if b, ok = adapter.SkipValue(b); !ok {
		return nil, false
	}
	if b, _, ok = details.Step(b, tokenDetails); !ok {
		return nil, false
	}
	if rest, ok := adapter.CutPrefix(b, `,"thoughtsTokenCount": `); ok {
		if u.ThoughtsTokenCount, b, ok = adapter.ReadIndex(rest); !ok {
			return nil, false
		}
	}
	if b, ok = adapter.SkipOptional(b, `,"serviceTier": `); !ok {
		return nil, false
	}
	return adapter.CutPrefix(b, `}`)
}

// tokenDetails reads ,"promptTokensDetails": V; it reads no index.
func tokenDetails(b []byte) ([]byte, int, bool) {
	b, ok := adapter.CutPrefix(b, `,"promptTokensDetails": `)
	if !ok {
		return nil, 0, false
	}
	b, ok = adapter.SkipValue(b)
	return b, 0, ok
}

// responseIDs reads ,"modelVersion": S[,"responseId": S]; it reads no
// index.
func responseIDs(b []byte) ([]byte, int, bool) {
	b, ok := adapter.CutPrefix(b, `,"modelVersion": `)
	if !ok {
		return nil, 0, false
	}
	if b, ok = adapter.SkipValue(b); !ok {
		return nil, 0, false
	}
	b, ok = adapter.SkipOptional(b, `,"responseId": `)
	return b, 0, ok
}
