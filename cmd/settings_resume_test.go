package cmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
)

// TestResumedOptions: a resumed session's options apply unless a flag
// sets them now; its rules are kept beside the rules given now; its
// provider and model hold unless a flag names another provider; and what
// a new session records is what the session and the flags gave, never
// what a config file says (files are read again on resume).
func TestResumedOptions(t *testing.T) {
	script := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(script, []byte(`{"turns":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	meta := session.Meta{ID: "s1", Provider: "scripted", Model: script, WorkDir: t.TempDir(),
		Options: json.RawMessage(`{"finish":"text","permission":"auto","tools":"read-only","allow":["write_file(path=out/**)"],"max_iterations":5,"reasoning_effort":"high","skills_dir":["/old/skills"]}`)}
	str := func(s string) *string { return &s }
	nine := 9
	cases := []struct {
		name     string
		flags    config.Layer
		finish   engine.FinishPolicy
		mode     engine.Mode
		maxIter  int
		rules    int
		recorded string
	}{
		{"no flags", config.Layer{}, engine.FinishText, engine.ModeAuto, 5, 1,
			`{"tools":"read-only","permission":"auto","allow":["write_file(path=out/**)"],"max_iterations":5,"reasoning_effort":"high","finish":"text","sandbox":"SANDBOX","skills_dirs":["/old/skills"]}`},
		{"flags override", config.Layer{Finish: str("evidence"), Permission: str("read"), MaxIterations: &nine, Allow: []string{"read_file"}},
			engine.FinishEvidence, engine.ModeRead, 9, 2,
			`{"tools":"read-only","permission":"read","allow":["write_file(path=out/**)","read_file"],"max_iterations":9,"reasoning_effort":"high","finish":"evidence","sandbox":"SANDBOX","skills_dirs":["/old/skills"]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, _, _ := testFactory(t, false, false)
			// A config file's value is not recorded: the session's wins now,
			// and the file is read again when the session is resumed.
			writeConfig(t, meta.WorkDir, `{"budget": 100, "finish": "evidence"}`)
			s, err := f.resolveSettings(context.Background(), tc.flags, true, &meta)
			if err != nil {
				t.Fatal(err)
			}
			if s.finish != tc.finish || s.permission.Mode != tc.mode || s.maxIter != tc.maxIter || s.effort != "high" || s.budget != 100 {
				t.Errorf("got finish %s, mode %s, max %d, effort %s, budget %d; want %s, %s, %d, high, 100",
					s.finish, s.permission.Mode, s.maxIter, s.effort, s.budget, tc.finish, tc.mode, tc.maxIter)
			}
			if len(s.permission.Rules) != tc.rules || len(s.builtIns) == len(engine.AllBuiltIns()) {
				t.Errorf("got rules %v and tools %v, want %d rules and the read-only tools", s.permission.Rules, s.builtIns, tc.rules)
			}
			if s.provider != "scripted" || s.model != script || s.workDir != meta.WorkDir {
				t.Errorf("got %s/%s in %s, want the session's", s.provider, s.model, s.workDir)
			}
			// The mode commands run under is recorded even by default.
			want := strings.Replace(tc.recorded, "SANDBOX", string(s.sandbox.Mode), 1)
			if got := string(s.sessionOptions()); got != want {
				t.Errorf("a new session records\n%s\nwant\n%s", got, want)
			}
		})
	}
	t.Run("another provider", func(t *testing.T) {
		f, _, _ := testFactory(t, false, false)
		s, err := f.resolveSettings(context.Background(), config.Layer{Provider: str("anthropic")}, true, &meta)
		if err != nil {
			t.Fatal(err)
		}
		// The session's script is not a model for anthropic.
		if s.provider != "anthropic" || s.model == script || s.model == "" {
			t.Errorf("got %s/%s, want anthropic and its default model", s.provider, s.model)
		}
	})
}

func writeConfig(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(config.ProjectPath(dir)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config.ProjectPath(dir), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMaxResultBytes: the option reaches the engine's request from a
// config file or the flag, and a negative value is refused naming where
// it was set.
func TestMaxResultBytes(t *testing.T) {
	f, _, _ := testFactory(t, false, false)
	dir := t.TempDir()
	writeConfig(t, dir, `{"max_result_bytes": 4096}`)
	for _, tc := range []struct {
		flags []string
		want  int
		err   string
	}{
		{nil, 4096, ""},
		{[]string{"--max-result-bytes", "100"}, 100, ""},
		{[]string{"--max-result-bytes", "-1"}, 0, "--max-result-bytes: -1 must not be negative"},
	} {
		var flags config.Layer
		fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
		config.RegisterFlags(fs, &flags)
		if err := fs.Parse(append([]string{"--cwd", dir, "--provider", "scripted", "--model", "m.json"}, tc.flags...)); err != nil {
			t.Fatal(err)
		}
		s, err := f.resolveSettings(context.Background(), flags, true, nil)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: got %v, want %q", tc.flags, err, tc.err)
			}
			continue
		}
		if err != nil || s.request().MaxResultBytes != tc.want {
			t.Errorf("%v: got %v and %d, want %d", tc.flags, err, s.request().MaxResultBytes, tc.want)
		}
	}
}
