package google

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"google.golang.org/genai"
)

// jsonToSSE re-frames a JSON body as the SSE stream the SDK reads: each
// element of a streamed JSON array (streamGenerateContent without alt=sse),
// or a single response object, becomes one "data:" event. The array is
// decoded element by element, so events still reach the caller as the
// server sends them.
type jsonToSSE struct {
	br     *bufio.Reader
	closer io.Closer
	ex     *exchange

	dec     *json.Decoder
	inArray bool
	out     bytes.Buffer // the next event, not yet read
	done    bool
}

func (c *jsonToSSE) Read(p []byte) (int, error) {
	for c.out.Len() == 0 {
		if c.done {
			return 0, io.EOF
		}
		c.next()
	}
	return c.out.Read(p)
}

func (c *jsonToSSE) Close() error { return c.closer.Close() }

// next writes the next event to out, or sets done. Failures are recorded
// in the exchange and end the body cleanly, like trackedBody does.
func (c *jsonToSSE) next() {
	switch {
	case c.dec == nil:
		c.dec = json.NewDecoder(c.br)
		if b, _ := c.br.Peek(1); len(b) == 1 && b[0] == '[' {
			_, _ = c.dec.Token() // the '['
			c.inArray = true
		}
	case !c.inArray:
		c.done = true // a single object was sent
		return
	}
	if c.inArray && !c.dec.More() {
		// The closing ']' must be there: without it the body was cut.
		if _, err := c.dec.Token(); err != nil {
			c.fail(err)
		}
		c.done = true
		return
	}
	var raw json.RawMessage
	if err := c.dec.Decode(&raw); err != nil {
		c.fail(err)
		return
	}
	event, err := normalize(raw)
	if err != nil {
		c.fail(err)
		return
	}
	c.out.WriteString("data: ")
	c.out.Write(event)
	c.out.WriteString("\n\n")
}

func (c *jsonToSSE) fail(err error) {
	c.done = true
	switch {
	case c.ex.readErr != nil:
		// The connection failed; the decoder only saw the end.
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		c.ex.readErr = io.ErrUnexpectedEOF
	default:
		c.ex.malformed = err
	}
}

// unsetSuffix ends the name of every Gemini enum's zero value
// (FINISH_REASON_…, BLOCK_REASON_…), taken from the SDK's constant.
var unsetSuffix = strings.TrimPrefix(string(genai.FinishReasonUnspecified), "FINISH_REASON")

// finishReasons and blockReasons name the values of the API's enums, for
// servers asked for integer enums ($alt=json;enum-encoding=int).
var (
	finishReasons = []string{string(genai.FinishReasonUnspecified), "STOP", "MAX_TOKENS", "SAFETY", "RECITATION",
		"OTHER", "LANGUAGE", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "MALFORMED_FUNCTION_CALL",
		"IMAGE_SAFETY", "UNEXPECTED_TOOL_CALL"}
	blockReasons = []string{"BLOCK_REASON" + unsetSuffix, "SAFETY", "OTHER", "BLOCKLIST",
		"PROHIBITED_CONTENT", "IMAGE_SAFETY"}
)

// enumKeys are the response fields holding enums that a server asked for
// integer enums sends as numbers.
var enumKeys = [][]byte{[]byte(`"finishReason":`), []byte(`"blockReason":`), []byte(`"modality":`),
	[]byte(`"category":`), []byte(`"probability":`), []byte(`"trafficType":`)}

// normalize compacts one response object onto a single line (an SSE event
// is one line) and rewrites integer-encoded enums, which the SDK cannot
// decode: finish and block reasons become their names, and the
// per-modality and safety details no one reads are dropped. Everything
// else, function call arguments included, is kept byte for byte.
func normalize(raw json.RawMessage) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, err
	}
	if !hasIntEnum(buf.Bytes()) {
		return buf.Bytes(), nil
	}
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, err
	}
	if c, ok := resp["candidates"]; ok {
		var cands []map[string]json.RawMessage
		if json.Unmarshal(c, &cands) == nil {
			for _, cand := range cands {
				enumName(cand, "finishReason", finishReasons)
				delete(cand, "safetyRatings")
			}
			resp["candidates"], _ = json.Marshal(cands)
		}
	}
	if pf, ok := resp["promptFeedback"]; ok {
		var feedback map[string]json.RawMessage
		if json.Unmarshal(pf, &feedback) == nil {
			enumName(feedback, "blockReason", blockReasons)
			delete(feedback, "safetyRatings")
			resp["promptFeedback"], _ = json.Marshal(feedback)
		}
	}
	if u, ok := resp["usageMetadata"]; ok {
		var usage map[string]json.RawMessage
		if json.Unmarshal(u, &usage) == nil {
			for k := range usage {
				if strings.HasSuffix(k, "Details") || k == "trafficType" {
					delete(usage, k)
				}
			}
			resp["usageMetadata"], _ = json.Marshal(usage)
		}
	}
	return json.Marshal(resp)
}

// hasIntEnum reports whether a compact response may hold an integer enum.
// A false positive (an argument named "category") only costs the slow path.
func hasIntEnum(b []byte) bool {
	for _, key := range enumKeys {
		for rest := b; ; {
			i := bytes.Index(rest, key)
			if i < 0 {
				break
			}
			rest = rest[i+len(key):]
			if len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
				return true
			}
		}
	}
	return false
}

// enumName replaces an integer enum value with its name.
func enumName(obj map[string]json.RawMessage, key string, names []string) {
	var n int
	if v, ok := obj[key]; !ok || json.Unmarshal(v, &n) != nil {
		return
	}
	name := "OTHER"
	if n >= 0 && n < len(names) {
		name = names[n]
	}
	obj[key], _ = json.Marshal(name)
}
