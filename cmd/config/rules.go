package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// ProjectPath returns the project config file of the working directory
// dir.
func ProjectPath(dir string) string { return filepath.Join(dir, ".llmrt", "config.json") }

// ControlFiles are the files of a project, relative to its directory,
// that configure llmrt itself: the project config, the MCP servers it
// starts and the .env it reads keys and base URLs from. Commands confined
// to the workspace may not change them (tools.ShellOptions.Protected).
func ControlFiles() []string {
	return []string{filepath.Join(".llmrt", "config.json"), ".mcp.json", ".env",
		filepath.Join(".claude", "settings.json"), filepath.Join(".claude", "settings.local.json")}
}

// AddProjectAllow adds rule to the "allow" list of the project config of
// dir, creating the file (and .llmrt) when missing. The other keys keep
// their values and their order; a rule already in the list is not added
// twice. A file that is not a JSON object, or whose "allow" is not a list
// of strings, is left alone and reported as a *FileError.
func AddProjectAllow(dir, rule string) error {
	path := ProjectPath(dir)
	data, err := ReadRegular(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	keys, vals, err := objectFields(data)
	if err != nil {
		return &FileError{Path: path, Msg: err.Error()}
	}
	at := slices.Index(keys, "allow")
	var allow []string
	if at >= 0 {
		if err := json.Unmarshal(vals[at], &allow); err != nil {
			return &FileError{Path: path, Line: keyLines(data)["allow"], Key: "allow", Msg: typeMessage(err)}
		}
		if slices.Contains(allow, rule) {
			return nil
		}
	}
	list, err := marshalPlain(append(allow, rule))
	if err != nil {
		return err
	}
	if at < 0 {
		keys, vals = append(keys, "allow"), append(vals, list)
	} else {
		vals[at] = list
	}
	return writeAtomic(path, encodeObject(keys, vals))
}

// marshalPlain encodes v as JSON with <, > and & as themselves: a rule
// such as "shell_cmd(command=make && make test)" reads as typed.
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// objectFields returns the top-level keys of a JSON object in the order
// they appear, with their values. Empty data is an empty object.
func objectFields(data []byte) ([]string, []json.RawMessage, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, nil, fmt.Errorf("not a JSON object (%v); fix it before saving a rule", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if i := slices.Index(keys, key); i >= 0 { // a repeated key: the last wins, as in Unmarshal
			vals[i] = v
			continue
		}
		keys, vals = append(keys, key), append(vals, v)
	}
	return keys, vals, nil
}

// encodeObject writes keys and values as an object indented by two
// spaces, one key per line.
func encodeObject(keys []string, vals []json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		name, _ := marshalPlain(k)
		b.WriteString("\n  ")
		b.Write(name)
		b.WriteString(": ")
		if err := json.Indent(&b, vals[i], "  ", "  "); err != nil {
			b.Write(vals[i]) // cannot happen: the decoder checked it
		}
	}
	if len(keys) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// writeAtomic replaces path with data through a temporary file in the
// same directory, so a crash leaves the old file or the new one.
func writeAtomic(path string, data []byte) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // replace the file a link points to, not the link
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".config-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
