package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// compileSchema prepares a tool's argument schema for validation. Schemas
// come from hosts and MCP servers written against every JSON Schema
// draft; the validator speaks draft-07 and 2020-12, which is what tool
// schemas use in practice. A schema naming an older or unknown draft is
// read as the current one, with draft-04's boolean exclusiveMinimum and
// exclusiveMaximum turned into their numeric form.
func compileSchema(raw json.RawMessage) compiled {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return compiled{err: fmt.Errorf("schema is not valid JSON: %w", err)}
	}
	if m, ok := doc.(map[string]any); ok {
		if v, _ := m["$schema"].(string); v != "" && !knownDraft(v) {
			delete(m, "$schema")
		}
	}
	upgradeDraft4(doc)
	norm, err := json.Marshal(doc)
	if err != nil {
		return compiled{err: fmt.Errorf("schema: %w", err)}
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(norm, &s); err != nil {
		return compiled{err: fmt.Errorf("schema does not compile: %w", err)}
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return compiled{err: fmt.Errorf("schema does not compile: %w", err)}
	}
	return compiled{sch: rs}
}

// knownDraft reports a $schema the validator speaks: draft-07 or 2020-12.
func knownDraft(uri string) bool {
	u := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(uri, "https://"), "http://"), "#")
	return u == "json-schema.org/draft-07/schema" || u == "json-schema.org/draft/2020-12/schema"
}

// upgradeDraft4 rewrites draft-04's boolean exclusive bounds, anywhere in
// the schema, as the numbers later drafts use.
func upgradeDraft4(v any) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
			excl, ok := v[k[0]].(bool)
			if !ok {
				continue
			}
			delete(v, k[0])
			if bound, ok := v[k[1]]; ok && excl {
				v[k[0]] = bound
				delete(v, k[1])
			}
		}
		for _, c := range v {
			upgradeDraft4(c)
		}
	case []any:
		for _, c := range v {
			upgradeDraft4(c)
		}
	}
}

// describeValidation turns the validator's error, a chain of schema
// locations ending in what failed, into "at LOCATION: WHAT", naming the
// innermost location only.
func describeValidation(err error) string {
	s := strings.TrimPrefix(err.Error(), "validating root: ")
	if i := strings.LastIndex(s, "validating "); i >= 0 {
		s = s[i:]
	}
	return strings.Replace(s, "validating ", "at ", 1)
}
