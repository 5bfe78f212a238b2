package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddProjectAllow: the rule lands in "allow" of .llmrt/config.json,
// which is created when missing; other keys keep their values and order;
// a rule already there is not repeated; a broken file is left alone.
func TestAddProjectAllow(t *testing.T) {
	const rule = "shell_cmd(command=go test *)"
	for _, tc := range []struct {
		name    string
		before  string // "" with missing: no file
		missing bool
		want    string
		wantErr string
	}{
		{name: "no file", missing: true, want: "{\n  \"allow\": [\n    \"shell_cmd(command=go test *)\"\n  ]\n}\n"},
		{name: "empty file", before: "  \n", want: "{\n  \"allow\": [\n    \"shell_cmd(command=go test *)\"\n  ]\n}\n"},
		{name: "other keys keep their order", before: `{"model":"m","permission":"ask","providers":{"openai":{"base_url":"http://x"}}}`,
			want: "{\n  \"model\": \"m\",\n  \"permission\": \"ask\",\n  \"providers\": {\n    \"openai\": {\n      \"base_url\": \"http://x\"\n    }\n  },\n" +
				"  \"allow\": [\n    \"shell_cmd(command=go test *)\"\n  ]\n}\n"},
		{name: "appended to the list where it is", before: "{\n  \"allow\": [\"read_file\"],\n  \"model\": \"m\"\n}\n",
			want: "{\n  \"allow\": [\n    \"read_file\",\n    \"shell_cmd(command=go test *)\"\n  ],\n  \"model\": \"m\"\n}\n"},
		{name: "no duplicate", before: `{"allow":["shell_cmd(command=go test *)"]}`, want: `{"allow":["shell_cmd(command=go test *)"]}`},
		{name: "not an object", before: `["x"]`, want: `["x"]`, wantErr: "not a JSON object"},
		{name: "allow not a list", before: "{\n  \"allow\": \"read_file\"\n}", want: "{\n  \"allow\": \"read_file\"\n}", wantErr: `:2: key "allow": want a list of strings`},
		{name: "invalid JSON", before: `{"allow": [`, want: `{"allow": [`, wantErr: "not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ".llmrt", "config.json")
			if !tc.missing {
				writeFile(t, path, tc.before)
			}
			err := AddProjectAllow(dir, rule)
			var fe *FileError
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("%s: got error %v, want none", tc.before, err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.As(err, &fe)):
				t.Fatalf("%s: got error %v, want a *FileError with %q", tc.before, err, tc.wantErr)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("%s: got file\n%s\nwant\n%s", tc.before, got, tc.want)
			}
		})
	}
}

// TestAddProjectAllowWritesRulesAsTyped: a rule with &, < and > is saved
// as it reads, not as \u0026-style escapes, and read back the same.
func TestAddProjectAllowWritesRulesAsTyped(t *testing.T) {
	dir := t.TempDir()
	const rule = "shell_cmd(command=make && ./run <in >out)"
	if err := AddProjectAllow(dir, rule); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, ".llmrt", "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `"`+rule+`"`) {
		t.Errorf("the file holds\n%s\nwant the rule as typed", got)
	}
	var back struct{ Allow []string }
	if err := json.Unmarshal(got, &back); err != nil || len(back.Allow) != 1 || back.Allow[0] != rule {
		t.Errorf("read back %q, %v", back.Allow, err)
	}
}

// TestAddProjectAllowIsRead: a saved rule is read back by Load as an allow
// rule of the project layer, after the user's.
func TestAddProjectAllowIsRead(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "llmrt", "config.json"), `{"allow":["read_file"]}`)
	for range 2 {
		if err := AddProjectAllow(dir, "write_file(path=out/**)"); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Load(Options{Dir: dir, Getenv: env(map[string]string{"XDG_CONFIG_HOME": home}), Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Allow, "|"); got != "read_file|write_file(path=out/**)" {
		t.Errorf("got allow %q, want the user's rule and the saved one once", got)
	}
	if len(c.Diagnostics) != 0 {
		t.Errorf("the saved file should raise no diagnostics, got %v", c.Diagnostics)
	}
}
