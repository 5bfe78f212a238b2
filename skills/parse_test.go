package skills

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDocument(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    document
		wantErr string
	}{
		{
			name: "minimal",
			in:   "---\nname: pdf\ndescription: Work with PDF files.\n---\n# PDF\n\nUse pdftotext.\n",
			want: document{name: "pdf", description: "Work with PDF files.", body: "# PDF\n\nUse pdftotext."},
		},
		{
			name: "metadata, CRLF, BOM, folded description and unknown keys",
			in: "\uFEFF---\r\nname: deploy\r\ndescription: >\r\n  Deploy the service\r\n  to staging.\r\nlicense: MIT\r\nallowed-tools: [shell_cmd]\r\n" +
				"metadata:\r\n  version: \"1.2\"\r\n  owner: ops\r\n---\r\nSteps.\r\n",
			want: document{name: "deploy", description: "Deploy the service to staging.", body: "Steps.",
				metadata: map[string]string{"version": "1.2", "owner": "ops"}, allowedTools: []string{"shell_cmd"}, rules: []string{"shell_cmd"}},
		},
		{
			name: "quoted values with colons",
			in:   "---\nname: \"a-b\"\ndescription: 'Use when: the user asks for X'\n---\n",
			want: document{name: "a-b", description: "Use when: the user asks for X"},
		},
		{
			name: "metadata of the wrong shape is a warning, not a failure",
			in:   "---\nname: m\ndescription: d\nmetadata: [1, 2]\n---\nbody",
			want: document{name: "m", description: "d", body: "body", warning: "metadata ignored"},
		},
		{
			name: "Claude Code's allowed-tools, as a string: what maps is kept, the rest is a warning",
			in:   "---\nname: g\ndescription: d\nallowed-tools: Read, Bash(git status:*), NotebookEdit\n---\n",
			want: document{name: "g", description: "d", allowedTools: []string{"Read", "Bash(git status:*)", "NotebookEdit"},
				rules: []string{"read_file", "shell_cmd(command=git status *)"}, warning: `allowed-tools entry "NotebookEdit" skipped`},
		},
		{
			name: "allowed-tools as a list",
			in:   "---\nname: g\ndescription: d\nallowed-tools:\n  - Grep\n  - Bash(go test:*)\n---\n",
			want: document{name: "g", description: "d", allowedTools: []string{"Grep", "Bash(go test:*)"},
				rules: []string{"search_files", "shell_cmd(command=go test *)"}},
		},
		{
			name: "allowed-tools of the wrong shape is a warning",
			in:   "---\nname: g\ndescription: d\nallowed-tools: {a: b}\n---\n",
			want: document{name: "g", description: "d", warning: "allowed-tools ignored"},
		},
		{name: "no front matter", in: "# Just Markdown\n", wantErr: "no front matter"},
		{name: "empty file", in: "", wantErr: "no front matter"},
		{name: "unterminated", in: "---\nname: x\ndescription: y\n# body\n", wantErr: "not terminated"},
		{name: "bad YAML", in: "---\nname: [unclosed\ndescription: y\n---\n", wantErr: "front matter"},
		{name: "front matter is a list", in: "---\n- a\n- b\n---\n", wantErr: "front matter"},
		{name: "missing name", in: "---\ndescription: y\n---\n", wantErr: "no name"},
		{name: "missing description", in: "---\nname: x\n---\n", wantErr: "no description"},
		{name: "name with spaces", in: "---\nname: two words\ndescription: y\n---\n", wantErr: "may hold only"},
		{name: "name too long", in: "---\nname: " + strings.Repeat("a", 65) + "\ndescription: y\n---\n", wantErr: "longer than"},
		{name: "name is a map", in: "---\nname: {a: b}\ndescription: y\n---\n", wantErr: "front matter"},
		{name: "not UTF-8", in: "---\nname: x\ndescription: caf\xe9\n---\n", wantErr: "UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseDocument([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parse %q: got error %v, want one containing %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parse %q: %v", tt.in, err)
			}
			if tt.want.warning != "" {
				if !strings.Contains(got.warning, tt.want.warning) {
					t.Errorf("warning: got %q, want one containing %q", got.warning, tt.want.warning)
				}
				got.warning, tt.want.warning = "", ""
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parse %q:\ngot  %+v\nwant %+v", tt.in, got, tt.want)
			}
		})
	}
}
