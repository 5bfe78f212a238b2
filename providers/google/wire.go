package google

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The Gemini REST API's JSON, as far as this adapter writes and reads it.
// Only the fields it uses are declared: the decoder skips the rest
// (safety ratings, citations, per-modality token counts, grounding
// metadata), which is most of what makes a response large.

// request is a generateContent request body.
type request struct {
	SystemInstruction *content          `json:"systemInstruction,omitempty"`
	Contents          []content         `json:"contents"`
	Tools             []tool            `json:"tools,omitempty"`
	GenerationConfig  *generationConfig `json:"generationConfig,omitempty"`
}

// content is one turn: role "user" or "model" and its parts.
type content struct {
	Role  string `json:"role,omitempty"`
	Parts []part `json:"parts"`
}

// part is one part of a content; exactly one of Text, InlineData,
// FunctionCall and FunctionResponse is set, except that Text may be empty
// on a part that only carries a thought signature. ThoughtSignature is
// base64, as on the wire.
type part struct {
	Text             string            `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	ThoughtSignature string            `json:"thoughtSignature,omitempty"`
	InlineData       *blob             `json:"inlineData,omitempty"`
	FunctionCall     *functionCall     `json:"functionCall,omitempty"`
	FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
}

// blob is inline media; Data is encoded as base64 by encoding/json.
type blob struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"`
}

// functionCall is a call the model made. Args is a JSON object kept as the
// bytes the model sent; it is left out when empty.
type functionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

// functionResponse answers a call: the result text under "result", or
// under "error" for a failed call.
type functionResponse struct {
	ID       string            `json:"id,omitempty"`
	Name     string            `json:"name"`
	Response map[string]string `json:"response"`
}

// tool is one entry of the tools list: function declarations, or Google
// Search grounding.
type tool struct {
	FunctionDeclarations []functionDeclaration `json:"functionDeclarations,omitempty"`
	GoogleSearch         *struct{}             `json:"googleSearch,omitempty"`
}

type functionDeclaration struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description,omitempty"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
}

type generationConfig struct {
	Temperature     *float64        `json:"temperature,omitempty"`
	MaxOutputTokens int             `json:"maxOutputTokens,omitempty"`
	ThinkingConfig  *thinkingConfig `json:"thinkingConfig,omitempty"`
}

// thinkingConfig's budget is a pointer because 0 (no thinking) differs
// from no budget (the model's own).
type thinkingConfig struct {
	IncludeThoughts bool `json:"includeThoughts,omitempty"`
	ThinkingBudget  *int `json:"thinkingBudget,omitempty"`
}

// response is one streamed GenerateContentResponse, or an error the server
// sent in its place.
type response struct {
	Candidates     []*candidate    `json:"candidates"`
	PromptFeedback *promptFeedback `json:"promptFeedback"`
	UsageMetadata  *usageMetadata  `json:"usageMetadata"`
	Error          *apiError       `json:"error"`
}

type candidate struct {
	Content *struct {
		Parts []responsePart `json:"parts"`
	} `json:"content"`
	FinishReason finishReason `json:"finishReason"`
}

// responsePart is part as read: the call's args stay raw.
type responsePart struct {
	Text             string `json:"text"`
	Thought          bool   `json:"thought"`
	ThoughtSignature string `json:"thoughtSignature"`
	FunctionCall     *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
}

type promptFeedback struct {
	BlockReason        blockReason `json:"blockReason"`
	BlockReasonMessage string      `json:"blockReasonMessage"`
}

// usageMetadata holds running totals.
type usageMetadata struct {
	PromptTokenCount        int `json:"promptTokenCount"`
	CachedContentTokenCount int `json:"cachedContentTokenCount"`
	ToolUsePromptTokenCount int `json:"toolUsePromptTokenCount"`
	CandidatesTokenCount    int `json:"candidatesTokenCount"`
	ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
}

// apiError is google.rpc.Status as the API sends it: in an error body, or
// as an event of a 200 stream.
type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Status  string `json:"status"`
}

// finishReason and blockReason are enum names ("STOP", "SAFETY"). A server
// asked for integer enums ($alt=json;enum-encoding=int) sends numbers,
// which are read as the names they stand for.
type (
	finishReason string
	blockReason  string
)

// finishReasons and blockReasons name the values of the API's enums by
// number; the zero value, unset, has no name here.
var (
	finishReasons = []string{"", "STOP", "MAX_TOKENS", "SAFETY", "RECITATION",
		"OTHER", "LANGUAGE", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "MALFORMED_FUNCTION_CALL",
		"IMAGE_SAFETY", "UNEXPECTED_TOOL_CALL"}
	blockReasons = []string{"", "SAFETY", "OTHER", "BLOCKLIST",
		"PROHIBITED_CONTENT", "IMAGE_SAFETY"}
)

// unsetSuffix ends the name of every enum's zero value
// (FINISH_REASON_…, BLOCK_REASON_…), upper-cased on the wire.
const unsetSuffix = "_unspecified"

// UnmarshalJSON reads a finish reason's name or number.
func (r *finishReason) UnmarshalJSON(b []byte) error {
	s, err := enumName(b, finishReasons)
	*r = finishReason(s)
	return err
}

// UnmarshalJSON reads a block reason's name or number.
func (r *blockReason) UnmarshalJSON(b []byte) error {
	s, err := enumName(b, blockReasons)
	*r = blockReason(s)
	return err
}

// enumName reads an enum given as its name or its number. A number past
// the end of names is a value newer than this table: "OTHER". The zero
// value, by name or number, and null read as "".
func enumName(b []byte, names []string) (string, error) {
	var name string
	switch {
	case len(b) > 0 && b[0] == '"':
		if err := json.Unmarshal(b, &name); err != nil {
			return "", err
		}
	case string(b) == "null":
	default:
		n, err := strconv.Atoi(string(b))
		if err != nil {
			return "", fmt.Errorf("enum value %s is neither a name nor a number", b)
		}
		name = "OTHER"
		if n >= 0 && n < len(names) {
			name = names[n]
		}
	}
	if cut := len(name) - len(unsetSuffix); cut >= 0 && strings.EqualFold(name[cut:], unsetSuffix) {
		name = ""
	}
	return name, nil
}
