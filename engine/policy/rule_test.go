package policy_test

import (
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine/policy"
)

func TestParseRule(t *testing.T) {
	cases := []struct {
		in      string
		tool    string
		params  map[string]string
		wantErr string
	}{
		{in: "read_file", tool: "read_file"},
		{in: "mcp_github_*", tool: "mcp_github_*"},
		{in: "shell_cmd(command=go test *)", tool: "shell_cmd", params: map[string]string{"command": "go test *"}},
		{in: "write_file(path=src/**)", tool: "write_file", params: map[string]string{"path": "src/**"}},
		{in: "shell_cmd(command=echo a,b, directory=sub/*)", tool: "shell_cmd", params: map[string]string{"command": "echo a,b", "directory": "sub/*"}},
		{in: "", wantErr: "missing tool name"},
		{in: "write_file(path=src/**", wantErr: "closing parenthesis"},
		{in: "write_file(src/**)", wantErr: "name=glob"},
	}
	for _, tc := range cases {
		r, err := policy.ParseRule(policy.Allow, tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseRule(%q): got err %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || r.Tool != tc.tool || len(r.Params) != len(tc.params) {
			t.Errorf("ParseRule(%q): got %+v, %v", tc.in, r, err)
			continue
		}
		for k, v := range tc.params {
			if r.Params[k] != v {
				t.Errorf("ParseRule(%q): param %s = %q, want %q", tc.in, k, r.Params[k], v)
			}
		}
	}
}

func TestRuleMatches(t *testing.T) {
	cases := []struct {
		rule string
		tool string
		args map[string]any
		want bool
	}{
		{"shell_cmd(command=go test *)", "shell_cmd", map[string]any{"command": "go test ./..."}, true},
		{"shell_cmd(command=go test *)", "shell_cmd", map[string]any{"command": "go build ./..."}, false},
		{"shell_cmd(command=go test *)", "shell_cmd", map[string]any{}, false},
		{"write_file(path=src/**)", "write_file", map[string]any{"path": "src/a/b.go"}, true},
		{"write_file(path=src/**)", "write_file", map[string]any{"path": "./src/x.go"}, true},
		{"write_file(path=src/*)", "write_file", map[string]any{"path": "src/a/b.go"}, false},
		{"write_file(path=src/**)", "write_file", map[string]any{"path": "other/x.go"}, false},
		{"shell_cmd(command=go test *)", "shell_cmd", map[string]any{"command": "go", "args": []any{"test", "./..."}}, true},
		{"shell_cmd(command=go test *)", "shell_cmd", map[string]any{"command": "go", "args": []any{"build"}}, false},
		{"mcp_github_*", "mcp_github_create_issue", nil, true},
		{"mcp_github_*", "mcp_gitlab_x", nil, false},
	}
	for _, tc := range cases {
		r, err := policy.ParseRule(policy.Allow, tc.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Matches(tc.tool, tc.args); got != tc.want {
			t.Errorf("%s matches %s%v: got %v, want %v", tc.rule, tc.tool, tc.args, got, tc.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"write_file", map[string]any{"path": "out/x.txt"}, "write_file(path=out/**)"},
		{"write_file", map[string]any{"path": "x.txt"}, "write_file(path=**)"},
		{"shell_cmd", map[string]any{"command": "go test ./..."}, "shell_cmd(command=go test *)"},
		{"shell_cmd", map[string]any{"command": "make"}, "shell_cmd(command=make)"},
		{"shell_cmd", map[string]any{"command": "go", "args": []any{"vet", "./..."}}, "shell_cmd(command=go vet *)"},
		{"web_fetch", map[string]any{"url": "https://example.com/a/b"}, "web_fetch(url=https://example.com/*)"},
		{"mcp_x_y", nil, "mcp_x_y"},
	}
	for _, tc := range cases {
		if got := policy.Suggest(tc.tool, tc.args).String(); got != tc.want {
			t.Errorf("Suggest(%s, %v): got %s, want %s", tc.tool, tc.args, got, tc.want)
		}
	}
}
