package cmd

import (
	"bytes"

	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testFactory builds a Factory over buffers, with sessions in a temp dir.
func testFactory(t *testing.T, outTTY, errTTY bool) (*Factory, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errb bytes.Buffer
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "XDG_CONFIG_HOME": filepath.Join(home, "cfg")}
	io := &IO{In: strings.NewReader(""), Out: &out, ErrOut: &errb, OutTTY: outTTY, ErrTTY: errTTY, Color: outTTY, Width: 80}
	return NewFactory(io, func(k string) string { return env[k] }), &out, &errb
}

const testScript = `{"turns":[
 {"text":"Checking.","tool_calls":[{"name":"list_files","arguments":{}}]},
 {"tool_calls":[{"name":"final_answer","arguments":{"answer":"# Done\n\nAll **good**."}}]}]}`

func scriptFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, []byte(testScript), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunStreams checks where output goes for each kind of terminal.
func TestRunStreams(t *testing.T) {
	cases := []struct {
		name           string
		outTTY, errTTY bool
		flags          []string
		progress       bool
		styled         bool
	}{
		{name: "pipes", progress: false, styled: false},
		{name: "stderr is a terminal", errTTY: true, progress: true},
		{name: "verbose on pipes", flags: []string{"--verbose"}, progress: true},
		{name: "quiet on a terminal", errTTY: true, flags: []string{"--quiet"}, progress: false},
		{name: "stdout is a terminal", outTTY: true, errTTY: true, progress: true, styled: true},
		{name: "no colour on a terminal", outTTY: true, flags: []string{"--no-color"}, styled: false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, out, errb := testFactory(t, tc.outTTY, tc.errTTY)
			args := append([]string{"run", "--provider", "scripted", "--model", scriptFile(t), "--cwd", t.TempDir(), "-p", "check"}, tc.flags...)
			if code := Execute(context.Background(), f, args); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			if got := strings.Contains(errb.String(), "✓ list_files"); got != tc.progress {
				t.Errorf("progress on stderr: got %v, want %v\n%s", got, tc.progress, errb.String())
			}
			styled := strings.Contains(out.String(), "\x1b[")
			if styled != tc.styled {
				t.Errorf("styled output: got %v, want %v: %q", styled, tc.styled, out.String())
			}
			if !tc.styled && out.String() != "# Done\n\nAll **good**.\n" {
				t.Errorf("plain stdout: %q", out.String())
			}
			if strings.Contains(out.String(), "Checking.") {
				t.Errorf("interim text must not reach stdout")
			}
		})
	}
}

// TestRunFlagParsing uses the runF seam: flags are parsed without running.
func TestRunFlagParsing(t *testing.T) {
	f, _, _ := testFactory(t, false, false)
	var got *runOptions
	cmd := newRunCmd(f, func(o *runOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"-p", "hello", "--answer", "q=a", "--answer", "r=b,c", "--output", "json", "--web-search", "--allow", "x(path=a/**)"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.prompt != "hello" || len(got.answers) != 2 || got.output != "json" || deref(got.options.WebSearch) != "medium" || got.options.Allow[0] != "x(path=a/**)" || got.options.Model != nil {
		t.Errorf("parsed: %+v", got)
	}
	a, ok, err := parseAnswerFlags(got.answers, got.answersJSON)
	if err != nil || !ok || strings.Join(a.Selected["r"], ",") != "b,c" || a.Selected["q"][0] != "a" {
		t.Errorf("answers: %+v %v %v", a, ok, err)
	}
}

func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--bogus"}, "unknown flag"},
		{[]string{"run", "--provider", "nope", "-p", "x"}, `unknown provider "nope"`},
		{[]string{"run", "--provider", "scripted", "-p", "x"}, "--model is required"},
		{[]string{"run", "--provider", "scripted", "--model", "m", "--permission", "maybe", "-p", "x"}, "unknown permission mode"},
		{[]string{"run", "--provider", "scripted", "--model", "m", "--allow", "write_file(path=", "-p", "x"}, "--allow"},
		{[]string{"run", "--provider", "scripted", "--model", "m", "--tools", "read_file,teleport", "-p", "x"}, "teleport"},
		{[]string{"run", "--provider", "scripted", "--model", "m", "-o", "yaml", "-p", "x"}, "--output"},
		{[]string{"run", "--provider", "scripted", "--model", "m", "-p", "x", "extra"}, "give the prompt once"},
		{[]string{"run", "--resume", "x", "--continue"}, "cannot be combined"},
		{[]string{"run", "--provider", "scripted", "--model", "m", "--cwd", "/nonexistent", "-p", "x"}, "--cwd"},
	}
	for _, tc := range cases {
		f, _, errb := testFactory(t, false, false)
		if code := Execute(context.Background(), f, tc.args); code != exitUsage || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 mentioning %q", tc.args, code, errb.String(), tc.want)
		}
	}
}
