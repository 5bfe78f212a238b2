package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

func TestBuiltinNamesWithoutWorkspace(t *testing.T) {
	got := BuiltinNames()
	want := []string{"read_file", "write_file", "edit_file", "list_files", "search_files",
		"path_exists", "create_directory", "shell_cmd", "web_fetch", "ask_user_input"}
	if !slices.Equal(got, want) {
		t.Fatalf("BuiltinNames() = %v, want %v", got, want)
	}
}

func TestBuiltinKinds(t *testing.T) {
	want := map[string]Kind{
		"read_file": KindRead, "list_files": KindRead, "search_files": KindRead,
		"path_exists": KindRead, "web_fetch": KindRead,
		"write_file": KindWrite, "edit_file": KindWrite, "create_directory": KindWrite,
		"shell_cmd": KindExternalAction, "ask_user_input": KindInteraction,
	}
	for _, tl := range Builtins(nil, Options{}) {
		if tl.Kind != want[tl.Name] {
			t.Errorf("%s: kind %q, want %q", tl.Name, tl.Kind, want[tl.Name])
		}
		if tl.Source != SourceBuiltin {
			t.Errorf("%s: source %q, want %q", tl.Name, tl.Source, SourceBuiltin)
		}
		hostOwned := tl.Name == AskUserName
		if (tl.Execute == nil) != hostOwned {
			t.Errorf("%s: Execute nil = %v, want %v", tl.Name, tl.Execute == nil, hostOwned)
		}
		if len(tl.Description) < 40 {
			t.Errorf("%s: description %q is too thin for a model", tl.Name, tl.Description)
		}
	}
}

// TestBuiltinSchemasStrict compiles every schema and checks that each
// object in it forbids unknown properties and that every property has a
// description.
func TestBuiltinSchemasStrict(t *testing.T) {
	for _, tl := range Builtins(nil, Options{}) {
		var doc jsonschema.Schema
		if err := json.Unmarshal(tl.Schema, &doc); err != nil {
			t.Fatalf("%s: schema is not a JSON Schema: %v", tl.Name, err)
		}
		if _, err := doc.Resolve(nil); err != nil {
			t.Fatalf("%s: schema does not compile: %v", tl.Name, err)
		}
		var m map[string]any
		if err := json.Unmarshal(tl.Schema, &m); err != nil {
			t.Fatal(err)
		}
		checkStrict(t, tl.Name, "", m)
	}
}

func checkStrict(t *testing.T, tool, at string, m map[string]any) {
	t.Helper()
	if m["type"] == "object" {
		if m["additionalProperties"] != false {
			t.Errorf("%s%s: additionalProperties is %v, want false", tool, at, m["additionalProperties"])
		}
		props, _ := m["properties"].(map[string]any)
		for name, p := range props {
			pm := p.(map[string]any)
			if d, _ := pm["description"].(string); strings.TrimSpace(d) == "" && at == "" {
				t.Errorf("%s: property %q has no description", tool, name)
			}
			checkStrict(t, tool, at+"/"+name, pm)
		}
	}
	if items, ok := m["items"].(map[string]any); ok {
		checkStrict(t, tool, at+"[]", items)
	}
}

func TestSchemaRejectsBadArguments(t *testing.T) {
	cases := []struct {
		tool, args string
	}{
		{"write_file", `{"path":"a","content":"x","mode":"replace"}`},
		{"write_file", `{"path":"a"}`},
		{"edit_file", `{"path":"a","old_string":"","new_string":"x"}`},
		{"shell_cmd", `{"command":"ls","timeout_ms":600001}`},
		{"shell_cmd", `{"command":"ls","shell":true}`},
		{"web_fetch", `{"url":"https://x","max_chars":0}`},
		{"search_files", `{"content":"x","max_results":5000}`},
		{"ask_user_input", `{"questions":[{"header":"h","id":"q","question":"?","options":[{"id":"a","label":"A"}]}]}`},
	}
	for _, c := range cases {
		tl := builtin(t, nil, Options{}, c.tool)
		var doc jsonschema.Schema
		if err := json.Unmarshal(tl.Schema, &doc); err != nil {
			t.Fatal(err)
		}
		sch, err := doc.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		var inst any
		if err := json.Unmarshal([]byte(c.args), &inst); err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err == nil {
			t.Errorf("%s schema accepted %s, want a validation error", c.tool, c.args)
		}
	}
}
