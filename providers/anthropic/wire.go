package anthropic

import "encoding/json"

// The Messages API's request JSON, as far as this adapter writes it. Field
// order and omission follow what the adapter sent when it was built on
// anthropic-sdk-go (testdata/golden_bodies.txt holds it to those bytes), so
// prompt caching, which keys on the exact prefix, sees the same requests.
// encoding/json writes them: its escaping (<, >, & and U+2028/2029 as
// \u escapes, invalid UTF-8 as U+FFFD) is the SDK's too.

// request is a Messages request body.
type request struct {
	MaxTokens    int64           `json:"max_tokens"`
	Messages     []message       `json:"messages"`
	Model        string          `json:"model,omitempty"`
	OutputConfig *outputConfig   `json:"output_config,omitempty"`
	System       []*textBlock    `json:"system,omitempty"`
	Temperature  *float64        `json:"temperature,omitempty"`
	Thinking     *thinkingConfig `json:"thinking,omitempty"`
	// Tools is sent even when empty.
	Tools  []tool `json:"tools"`
	Stream bool   `json:"stream"`
}

// message is one turn: role "user" or "assistant" and its blocks.
type message struct {
	Content []block `json:"content"`
	Role    string  `json:"role"`
}

const (
	roleUser      = "user"
	roleAssistant = "assistant"
)

// block is a content block: one of the *…Block types below. Each can take
// a prompt-cache breakpoint except thinking blocks, which the API does
// not allow one on.
type block interface {
	setCache()
}

// tool is an entry of the tools list: *customTool or *webSearchTool.
type tool interface {
	setCache()
}

// cacheControl marks a prompt-cache breakpoint.
type cacheControl struct {
	Type string `json:"type"`
}

func ephemeral() *cacheControl { return &cacheControl{Type: "ephemeral"} }

type textBlock struct {
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
	Type         string        `json:"type"`
}

func newText(text string) *textBlock { return &textBlock{Text: text, Type: "text"} }

type imageBlock struct {
	Source       source        `json:"source"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
	Type         string        `json:"type"`
}

// source is the inline data of an image or a document: base64 with its
// media type, or plain text (type "text", media type text/plain).
type source struct {
	Data      string `json:"data"`
	MediaType string `json:"media_type"`
	Type      string `json:"type"`
}

type documentBlock struct {
	Source       source        `json:"source"`
	Title        string        `json:"title,omitempty"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
	Type         string        `json:"type"`
}

type thinkingBlock struct {
	Signature string `json:"signature"`
	Thinking  string `json:"thinking"`
	Type      string `json:"type"`
}

type redactedThinkingBlock struct {
	Data string `json:"data"`
	Type string `json:"type"`
}

// toolUseBlock is a call replayed; Input is a JSON object, written
// compacted (encoding/json compacts raw messages).
type toolUseBlock struct {
	ID           string          `json:"id"`
	Input        json.RawMessage `json:"input"`
	Name         string          `json:"name"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
	Type         string          `json:"type"`
}

// toolResultBlock answers a call; Content holds text, image and document
// blocks.
type toolResultBlock struct {
	ToolUseID    string        `json:"tool_use_id"`
	IsError      bool          `json:"is_error,omitempty"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
	Content      []block       `json:"content,omitempty"`
	Type         string        `json:"type"`
}

func (b *textBlock) setCache()       { b.CacheControl = ephemeral() }
func (b *imageBlock) setCache()      { b.CacheControl = ephemeral() }
func (b *documentBlock) setCache()   { b.CacheControl = ephemeral() }
func (b *toolUseBlock) setCache()    { b.CacheControl = ephemeral() }
func (b *toolResultBlock) setCache() { b.CacheControl = ephemeral() }
func (*thinkingBlock) setCache()     {}

func (*redactedThinkingBlock) setCache() {}

// customTool is a client tool; its schema goes out as given (compacted).
type customTool struct {
	InputSchema  json.RawMessage `json:"input_schema"`
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

// webSearchTool is the web search server tool; its name and type are
// fixed.
type webSearchTool struct {
	MaxUses      int64         `json:"max_uses,omitempty"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
	Name         string        `json:"name"`
	Type         string        `json:"type"`
}

func (t *customTool) setCache()    { t.CacheControl = ephemeral() }
func (t *webSearchTool) setCache() { t.CacheControl = ephemeral() }

// thinkingConfig is {"type":"enabled"} with a budget, or
// {"type":"adaptive"}.
type thinkingConfig struct {
	BudgetTokens int64  `json:"budget_tokens,omitempty"`
	Display      string `json:"display,omitempty"`
	Type         string `json:"type"`
}

type outputConfig struct {
	Effort string `json:"effort,omitempty"`
}
