package google

import "github.com/llmrt/llmrt/providers/internal/adapter"

// nameRule is what Gemini accepts in function names: up to 64 characters,
// starting with a letter or an underscore. ('.' is allowed too, but the
// common [A-Za-z0-9_-] set keeps names portable across providers.)
var nameRule = adapter.NameRule{
	Byte:   adapter.FunctionNameByte,
	First:  func(b byte) bool { return b == '_' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') },
	MaxLen: 64,
}
