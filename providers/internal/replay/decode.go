package replay

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// SameDecode checks that the one-pass decoder (adapter.DecodeFast) takes
// data, a recorded event of file rel, and reads it into a T exactly as
// encoding/json does, as the stream parsers decoded before it.
func SameDecode[T any](t testing.TB, rel string, data []byte) {
	t.Helper()
	var got, want T
	if !adapter.DecodeFast(data, &got) {
		t.Errorf("%s: the one-pass decoder refused %s", rel, data)
		return
	}
	// A field of an unexpected type is skipped, as the parsers skip it.
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(data, &want); err != nil && (!errors.As(err, &te) || te.Field == "") {
		t.Errorf("%s: encoding/json refused %s: %v", rel, data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %s\ngot  %+v\nwant %+v", rel, data, got, want)
	}
}

// SameDirect checks a direct reader of one protocol's hot events against
// encoding/json: when decode takes data into got (which may hold what an
// earlier event left, which must not show through), got must be what
// encoding/json reads from data into a fresh T. It reports whether decode
// took data. lenient says the parser skips a field of an unexpected type,
// as encoding/json reports it after decoding the rest; otherwise any
// error of encoding/json's on data taken is a failure.
func SameDirect[T any](t testing.TB, data []byte, got *T, decode func([]byte, *T, *adapter.Scratch) bool, lenient bool) bool {
	t.Helper()
	return SameDirectIn(t, new(adapter.Scratch), data, got, decode, lenient)
}

// SameDirectIn is SameDirect with the reader's scratch given: one scratch
// for the events of one stream checks what a reader carries from one event
// to the next (adapter.Span).
func SameDirectIn[T any](t testing.TB, scratch *adapter.Scratch, data []byte, got *T, decode func([]byte, *T, *adapter.Scratch) bool, lenient bool) bool {
	t.Helper()
	if !decode(data, got, scratch) {
		return false
	}
	var want T
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(data, &want); err != nil && (!lenient || !errors.As(err, &te) || te.Field == "") {
		t.Errorf("%s: taken, but encoding/json fails: %v", data, err)
	} else if !reflect.DeepEqual(*got, want) {
		t.Errorf("%s:\ngot  %+v\nwant %+v", data, *got, want)
	}
	return true
}
