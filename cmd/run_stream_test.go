package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
)

// TestReadLineBound: a line over the limit is reported and skipped
// whole; the lines around it are read as they are.
func TestReadLineBound(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 300) + "\nafter\r\nlast"
	br := bufio.NewReaderSize(strings.NewReader(in), 16)
	type got struct {
		line    string
		tooLong bool
	}
	var lines []got
	for {
		l, long, err := readLine(br, 100)
		lines = append(lines, got{string(l), long})
		if err != nil {
			break
		}
	}
	want := []got{{"short", false}, {"", true}, {"after", false}, {"last", false}}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines %+v, want %+v", len(lines), lines, want)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d: got %+v, want %+v", i, lines[i], want[i])
		}
	}
}

// TestUserMessage reads user lines in Claude Code's shapes and refuses
// the others with a reason.
func TestUserMessage(t *testing.T) {
	cases := []struct {
		line string
		text string // the message's text; "" when refused
		err  string
	}{
		{`{"type":"user","message":{"role":"user","content":"hi"}}`, "hi", ""},
		{`{"type":"user","message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}`, "ab", ""},
		{`{"type":"user","message":{"content":[{"type":"text","text":"see"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw=="}}]}}`, "see", ""},
		{`{"type":"user"}`, "", "needs a message"},
		{`{"type":"user","message":{"content":"  "}}`, "", "empty"},
		{`{"type":"user","message":{"content":[]}}`, "", "empty"},
		{`{"type":"user","message":{"role":"system","content":"x"}}`, "", "role"},
		{`{"type":"user","message":{"content":42}}`, "", "string or a list"},
		{`{"type":"user","message":{"content":[{"type":"image","source":{"type":"url"}}]}}`, "", "base64"},
		{`{"type":"user","message":{"content":[{"type":"image","source":{"type":"base64","media_type":"image/tiff","data":""}}]}}`, "", "image/tiff"},
		{`{"type":"user","message":{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"%%"}}]}}`, "", "not base64"},
		{`{"type":"user","message":{"content":[{"type":"tool_result"}]}}`, "", "tool_result"},
	}
	for _, tc := range cases {
		var in inputLine
		if err := json.Unmarshal([]byte(tc.line), &in); err != nil {
			t.Fatal(err)
		}
		msg, err := userMessage(in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: got error %v, want one naming %q", tc.line, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%s: got error %v, want the message", tc.line, err)
		case tc.err == "" && (msg.Role != providers.RoleUser || msg.Text() != tc.text):
			t.Errorf("%s: got %s %q, want user %q", tc.line, msg.Role, msg.Text(), tc.text)
		}
	}
}

// TestStreamFlags: --input-format and --json-schema parse apart from
// behaviour, and what they cannot serve is a usage error naming the fix.
func TestStreamFlags(t *testing.T) {
	f, _, _ := testFactory(t, false, false)
	var got *runOptions
	cmd := newRunCmd(f, func(o *runOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--input-format", "stream-json", "-o", "stream-json", "--json-schema", `{"type":"object"}`})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.inputFormat != inputStreamJSON || got.jsonSchema != `{"type":"object"}` || got.checkInputFormat() != nil {
		t.Errorf("parsed: input %q schema %q, check %v", got.inputFormat, got.jsonSchema, got.checkInputFormat())
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--input-format", "yaml"}, "use text or stream-json"},
		{[]string{"run", "--input-format", "stream-json", "-o", "json"}, "needs -o stream-json"},
		{[]string{"run", "--input-format", "stream-json", "-o", "stream-json", "hello"}, "reads the prompts from stdin"},
		{[]string{"run", "--input-format", "stream-json", "-o", "stream-json", "--attach", "a.png"}, "drop --attach"},
		{[]string{"run", "--input-format", "stream-json", "-o", "stream-json", "--answer", "q=a"}, "drop --answer"},
		{[]string{"run", "--json-schema", `{"type":12}`, "-p", "x"}, "--json-schema"},
	}
	for _, tc := range cases {
		f, _, errb := testFactory(t, false, false)
		if code := Execute(context.Background(), f, tc.args); code != exitUsage || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 mentioning %q", tc.args, code, errb.String(), tc.want)
		}
	}
}
