package adapter

import (
	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// DecodeFast decodes one JSON payload into v in a single pass, the way
// encoding/json would, without encoding/json's first pass that only checks
// the syntax. It reports whether that worked. When it did not (the payload
// is not JSON, or has a field of an unexpected type, a duplicate name,
// invalid UTF-8 or anything else the strict decoder refuses), v may hold
// part of the payload: the caller decodes a fresh value with encoding/json,
// whose rules then decide the outcome, so odd input is handled exactly as
// before and only plain input takes the fast path.
//
// The decoder is github.com/go-json-experiment/json, the module that
// mirrors the standard library's encoding/json/v2 (and aliases it once the
// toolchain ships it without an experiment flag).
func DecodeFast(data []byte, v any) bool {
	return jsonv2.Unmarshal(data, v, fastJSON) == nil
}

// fastJSON is a constant in all but name: encoding/json matches member
// names to fields ignoring case (but not underscores or dashes), and so
// does DecodeFast.
var fastJSON = jsonv2.JoinOptions(
	jsonv2.MatchCaseInsensitiveNames(true),
	jsonv1.MatchCaseSensitiveDelimiter(true),
)
