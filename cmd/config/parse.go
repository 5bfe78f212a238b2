package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/catalog"
)

// readFile parses one config file, reporting errors with line and key.
func readFile(path string) (Layer, []string, error) {
	var f Layer
	data, err := ReadRegular(path)
	if err != nil {
		return f, nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return f, nil, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return f, nil, jsonError(path, data, err)
	}
	lines := keyLines(data)
	var diags []string
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !configKeys()[k] {
			diags = append(diags, fmt.Sprintf("config %s:%d: unknown key %q (ignored)", path, lines[k], k))
			continue
		}
		one, _ := json.Marshal(map[string]json.RawMessage{k: raw[k]})
		if err := json.Unmarshal(one, &f); err != nil {
			return f, nil, &FileError{Path: path, Line: lines[k], Key: k, Msg: typeMessage(err)}
		}
	}
	if err := validate(f); err != nil {
		err.Path, err.Line = path, lines[err.Key]
		return f, nil, err
	}
	return f, diags, nil
}

// validate checks the values that have a fixed set of choices.
func validate(f Layer) *FileError {
	// The values are checked by the parsers the flags use, so a file
	// accepts exactly what the command line does.
	check := func(key string, v *string, parse func(string) error) *FileError {
		if v == nil {
			return nil
		}
		if err := parse(*v); err != nil {
			return &FileError{Key: key, Msg: err.Error()}
		}
		return nil
	}
	for _, e := range []*FileError{
		check("permission", f.Permission, func(s string) error { _, err := engine.ParseMode(s); return err }),
		check("finish", f.Finish, func(s string) error { _, err := engine.ParseFinish(s); return err }),
		check("reasoning_effort", f.ReasoningEffort, func(s string) error { _, err := providers.ParseEffort(s); return err }),
		check("web_search", f.WebSearch, func(s string) error { _, err := providers.ParseWebSearch(s); return err }),
		check("api", f.API, catalog.ParseAPI),
	} {
		if e != nil {
			return e
		}
	}
	return nil
}

func typeMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("want %s, got a JSON %s", goTypeName(te.Type.String()), te.Value)
	}
	return err.Error()
}

func goTypeName(t string) string {
	switch t {
	case "string", "*string":
		return "a string"
	case "int", "*int":
		return "a whole number"
	case "float64", "*float64":
		return "a number"
	case "bool", "*bool":
		return "true or false"
	case "[]string":
		return "a list of strings"
	}
	return t
}

// jsonError turns a decoding error into a FileError with a line number.
func jsonError(path string, data []byte, err error) *FileError {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &FileError{Path: path, Line: lineAt(data, se.Offset), Msg: "invalid JSON: " + se.Error()}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &FileError{Path: path, Line: lineAt(data, te.Offset), Msg: "the file must hold a JSON object"}
	}
	return &FileError{Path: path, Msg: "invalid JSON: " + err.Error()}
}

func lineAt(data []byte, offset int64) int {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	return bytes.Count(data[:offset], []byte("\n")) + 1
}

// keyLines maps each top-level key to the line it is on.
func keyLines(data []byte) map[string]int {
	lines := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return lines
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return lines
		}
		key, _ := tok.(string)
		lines[key] = lineAt(data, dec.InputOffset())
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return lines
		}
	}
	return lines
}
