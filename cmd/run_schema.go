package cmd

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/llmrt/llmrt/engine"
)

// maxSchemaBytes bounds a --json-schema file: a schema is a few KiB.
const maxSchemaBytes = 1 << 20

// answerSchema reads --json-schema: inline JSON when the value starts
// with '{', else the path of a file holding the schema. A schema that is
// missing, too large, not JSON or not a JSON Schema is a usage error
// naming the problem, before any model call.
func answerSchema(value string) (json.RawMessage, error) {
	if value == "" {
		return nil, nil
	}
	raw := []byte(value)
	from := "--json-schema"
	if !strings.HasPrefix(strings.TrimSpace(value), "{") {
		from = "--json-schema " + value
		f, err := os.Open(value)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, withHint(usageErrorf("%s: no such file", from), `give a schema file, or the schema inline: --json-schema '{"type":"object",...}'`)
		}
		if err != nil {
			return nil, usageErrorf("%s: %v", from, err)
		}
		defer f.Close()
		raw, err = io.ReadAll(io.LimitReader(f, maxSchemaBytes+1))
		if err != nil {
			return nil, usageErrorf("%s: %v", from, err)
		}
		if len(raw) > maxSchemaBytes {
			return nil, usageErrorf("%s: the schema is over %d bytes", from, maxSchemaBytes)
		}
	}
	if err := engine.CheckAnswerSchema(raw); err != nil {
		return nil, withHint(usageErrorf("%s: %v", from, err), "give a JSON Schema (draft 2020-12 or draft-07) for the answer, such as {\"type\":\"object\",\"properties\":{...},\"required\":[...]}")
	}
	return raw, nil
}
