package tools

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

type weatherArgs struct {
	City  string   `json:"city" jsonschema:"the city, in English"`
	Days  int      `json:"days,omitempty" jsonschema:"how many days ahead, 0 for today"`
	Units string   `json:"units,omitzero"`
	Tags  []string `json:"tags,omitempty"`
	Skip  string   `json:"-"`
}

type periodArgs struct {
	From time.Time `json:"from" jsonschema:"RFC 3339 start"`
	Days uint8     `json:"days"`
}

type nestedArgs struct {
	Where struct {
		Lat float64 `json:"lat"`
		Lon float64 `json:"lon"`
	} `json:"where"`
	Label *string `json:"label,omitempty"`
}

// schemaOf builds a Func tool over In and returns its schema, decoded.
func schemaOf[In any](t *testing.T) map[string]any {
	t.Helper()
	tool, err := Func("t", "d", KindRead, func(context.Context, In) (Result, error) { return Text(""), nil })
	if err != nil {
		t.Fatalf("Func[%T]: %v", *new(In), err)
	}
	var m map[string]any
	if err := json.Unmarshal(tool.Schema, &m); err != nil {
		t.Fatalf("schema of %T is not JSON: %v: %s", *new(In), err, tool.Schema)
	}
	return m
}

func TestFuncInfersSchema(t *testing.T) {
	cases := []struct {
		name string
		got  func(*testing.T) map[string]any
		want string
	}{
		{"required, optional and described fields", schemaOf[weatherArgs], `{
			"type": "object",
			"properties": {
				"city": {"type": "string", "description": "the city, in English"},
				"days": {"type": "integer", "description": "how many days ahead, 0 for today"},
				"units": {"type": "string"},
				"tags": {"type": ["null", "array"], "items": {"type": "string"}}
			},
			"required": ["city"],
			"additionalProperties": false}`},
		{"a pointer to a struct is an object, never null", schemaOf[*weatherArgs], `{
			"type": "object",
			"properties": {
				"city": {"type": "string", "description": "the city, in English"},
				"days": {"type": "integer", "description": "how many days ahead, 0 for today"},
				"units": {"type": "string"},
				"tags": {"type": ["null", "array"], "items": {"type": "string"}}
			},
			"required": ["city"],
			"additionalProperties": false}`},
		{"standard types and bounded integers", schemaOf[periodArgs], `{
			"type": "object",
			"properties": {
				"from": {"type": "string", "description": "RFC 3339 start"},
				"days": {"type": "integer", "minimum": 0, "maximum": 255}
			},
			"required": ["from", "days"],
			"additionalProperties": false}`},
		{"nested structs and optional pointers", schemaOf[nestedArgs], `{
			"type": "object",
			"properties": {
				"where": {"type": "object",
					"properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
					"required": ["lat", "lon"], "additionalProperties": false},
				"label": {"type": ["null", "string"]}
			},
			"required": ["where"],
			"additionalProperties": false}`},
		{"no arguments", schemaOf[struct{}], `{"type": "object", "additionalProperties": false}`},
		{"a map takes any properties", schemaOf[map[string]any], `{"type": "object", "additionalProperties": true}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var want map[string]any
			if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			if got := tc.got(t); !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("schema:\ngot  %s\nwant %s", g, w)
			}
		})
	}
}

func TestFuncRefusesMisuse(t *testing.T) {
	ok := func(context.Context, weatherArgs) (Result, error) { return Text(""), nil }
	cases := []struct {
		name string
		make func() (Tool, error)
		want string
	}{
		{"nil function", func() (Tool, error) {
			return Func[weatherArgs]("w", "", KindRead, nil)
		}, `func tool "w" has a nil function`},
		{"a string is not an object", func() (Tool, error) {
			return Func("s", "", KindRead, func(context.Context, string) (Result, error) { return Text(""), nil })
		}, "string must be a struct"},
		{"a slice is not an object", func() (Tool, error) {
			return Func("s", "", KindRead, func(context.Context, []int) (Result, error) { return Text(""), nil })
		}, "[]int must be a struct"},
		{"a func field has no schema", func() (Tool, error) {
			return Func("f", "", KindRead, func(context.Context, struct{ F func() }) (Result, error) { return Text(""), nil })
		}, "infer the argument schema"},
		{"a well-formed tool", func() (Tool, error) { return Func("w", "", KindRead, ok) }, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.make()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("got error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestFuncDecodesArguments(t *testing.T) {
	var got weatherArgs
	tool, err := Func("weather", "Weather in a city.", KindRead, func(_ context.Context, in weatherArgs) (Result, error) {
		got = in
		if in.City == "Atlantis" {
			return Errorf("no weather under the sea"), nil
		}
		if in.City == "Nowhere" {
			return Result{}, errors.New("weather service down")
		}
		return JSON(map[string]any{"city": in.City, "days": in.Days}), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tool.Name != "weather" || tool.Description != "Weather in a city." || tool.Kind != KindRead {
		t.Fatalf("tool: got %s %q %s, want the name, description and kind given", tool.Name, tool.Description, tool.Kind)
	}
	cases := []struct {
		args    string
		want    weatherArgs
		content string
		isErr   bool
		goErr   string
	}{
		{args: `{"city":"Paris","days":2,"tags":["a","b"]}`, want: weatherArgs{City: "Paris", Days: 2, Tags: []string{"a", "b"}},
			content: `{"city":"Paris","days":2}`},
		{args: `{"city":"Paris","tags":null}`, want: weatherArgs{City: "Paris"}, content: `{"city":"Paris","days":0}`},
		{args: ``, want: weatherArgs{}, content: `{"city":"","days":0}`},
		{args: `{"city":"Atlantis"}`, want: weatherArgs{City: "Atlantis"}, content: "no weather under the sea", isErr: true},
		{args: `{"city":"Nowhere"}`, want: weatherArgs{City: "Nowhere"}, goErr: "weather service down"},
		{args: `{"city":7}`, content: "invalid arguments: json: cannot unmarshal number", isErr: true},
		{args: `[1]`, content: "invalid arguments: json: cannot unmarshal array", isErr: true},
	}
	for _, tc := range cases {
		got = weatherArgs{}
		res, err := tool.Execute(context.Background(), json.RawMessage(tc.args))
		if tc.goErr != "" {
			if err == nil || err.Error() != tc.goErr {
				t.Errorf("Execute(%s): got error %v, want %q", tc.args, err, tc.goErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Execute(%s): got error %v, want a result", tc.args, err)
			continue
		}
		if !strings.HasPrefix(res.Content, tc.content) || res.IsError != tc.isErr {
			t.Errorf("Execute(%s): got %q (error %v), want %q (error %v)", tc.args, res.Content, res.IsError, tc.content, tc.isErr)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Execute(%s): fn got %+v, want %+v", tc.args, got, tc.want)
		}
	}
}

func TestFuncValidateDecodes(t *testing.T) {
	tool, err := Func("period", "", KindRead, func(context.Context, periodArgs) (Result, error) { return Text("ok"), nil })
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args string
		want string // "" for valid
	}{
		{`{"from":"2025-03-01T10:00:00Z","days":3}`, ""},
		{`{"from":"tomorrow","days":3}`, `parsing time "tomorrow"`},
		{`{"from":"2025-03-01T10:00:00Z","days":300}`, "cannot unmarshal number 300"},
	}
	for _, tc := range cases {
		err := tool.Validate(json.RawMessage(tc.args))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Validate(%s): got %v, want no error", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Validate(%s): got %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}
