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
