package ui

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// longCommand is 200 characters.
const longCommand = "find . -name '*.go' -newer go.mod -not -path './vendor/*' | xargs grep -l TODO | sort | uniq | head -5000 && echo scanned && rm -rf ./build/cache/tmp-artifacts-that-should-never-be-deleted-by-surprise"

func shellRequest(command string) engine.PermissionRequest {
	args, _ := json.Marshal(map[string]string{"command": command, "directory": "tools"})
	return engine.PermissionRequest{Tool: "shell_cmd", Kind: tools.KindExternalAction, Arguments: string(args), Suggested: "shell_cmd(command=find *)"}
}

const mainDiff = `--- a/main.go
+++ b/main.go
@@ -1,7 +1,11 @@
 package main

-import "fmt"
+import (
+	"fmt"
+	"os"
+)

 func main() {
-	fmt.Println("hi")
+	fmt.Println("hello, and a line long enough to wrap at eighty columns so the continuation shows")
+	os.Exit(0)
 }
`

func diffRequest(diff string) engine.PermissionRequest {
	return engine.PermissionRequest{Tool: "write_file", Kind: tools.KindWrite, Arguments: `{"path":"main.go","content":"..."}`,
		Suggested: "write_file(path=main.go)", Preview: diff}
}

// TestPermitGolden: a prompt with a diff and one for a 200-character
// command, at 80×24 and 120×40.
func TestPermitGolden(t *testing.T) {
	if len(longCommand) != 200 {
		t.Fatalf("the command has %d characters, want 200", len(longCommand))
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		name := fmt.Sprintf("%dx%d", size[0], size[1])
		golden(t, "permit_diff_"+name, NewPermitForm(diffRequest(mainDiff), mono).View(size[0], size[1]))
		golden(t, "permit_command_"+name, NewPermitForm(shellRequest(longCommand), mono).View(size[0], size[1]))
	}
}

// TestPermitShowsTheWholeCommand: the command is on screen whole,
// wrapped at spaces (a word wider than the screen is broken), and no
// line is wider than the screen.
func TestPermitShowsTheWholeCommand(t *testing.T) {
	for _, width := range []int{40, 80, 120} {
		scr := plain(NewPermitForm(shellRequest(longCommand), mono).View(width, 40))
		lines := strings.Split(scr, "\n")
		for _, l := range lines {
			if w := len([]rune(l)); w > width {
				t.Errorf("width %d: line of %d cells: %q", width, w, l)
			}
		}
		var cmd []string
		for _, l := range lines[2:] {
			if strings.Contains(l, "(in tools)") {
				break
			}
			cmd = append(cmd, strings.TrimSpace(l))
		}
		got, want := strings.Join(cmd, " "), "$ "+longCommand
		if width < 80 {
			got, want = strings.ReplaceAll(got, " ", ""), strings.ReplaceAll(want, " ", "")
		}
		if got != want {
			t.Errorf("width %d: got command\n%s\nwant\n%s\nscreen:\n%s", width, got, want, scr)
		}
	}
}

// TestPermitKeys: each way of answering gives its decision and summary.
func TestPermitKeys(t *testing.T) {
	once := engine.Decision{Action: engine.AllowOnce}
	always := engine.Decision{Action: engine.AllowAlways, Rule: "shell_cmd(command=find *)"}
	deny := engine.Decision{Action: engine.Deny}
	cancel := engine.Decision{Action: engine.Cancel}
	for _, tc := range []struct {
		name    string
		keys    []string
		want    PermitResult
		summary string
	}{
		{"enter allows once", []string{"enter"}, PermitResult{Decision: once}, "✔ shell_cmd: allowed once"},
		{"1 allows once", []string{"1"}, PermitResult{Decision: once}, "✔ shell_cmd: allowed once"},
		{"allow for the session", []string{"down", "enter"}, PermitResult{Decision: always},
			"✔ shell_cmd: allowed always in this session: shell_cmd(command=find *)"},
		{"j and k", []string{"j", "j", "k", "enter"}, PermitResult{Decision: always}, ""},
		{"allow for the project", []string{"3"}, PermitResult{Decision: always, Project: true},
			"✔ shell_cmd: allowed always in this project: shell_cmd(command=find *)"},
		{"deny with a reason", []string{"down", "down", "down", "enter", "type:use  the Makefile ", "enter"},
			PermitResult{Decision: engine.Decision{Action: engine.Deny, Reason: "use  the Makefile"}}, `✗ shell_cmd: denied ("use  the Makefile")`},
		{"deny with a pasted reason", []string{"4", "paste:not now", "enter"},
			PermitResult{Decision: engine.Decision{Action: engine.Deny, Reason: "not now"}}, `✗ shell_cmd: denied ("not now")`},
		{"deny with no reason", []string{"4", "enter"}, PermitResult{Decision: deny}, "✗ shell_cmd: denied"},
		{"esc in the reason goes back", []string{"4", "type:x", "esc", "1"}, PermitResult{Decision: once}, ""},
		{"esc denies", []string{"esc"}, PermitResult{Decision: deny}, "✗ shell_cmd: denied"},
		{"cancel the run", []string{"end", "enter"}, PermitResult{Decision: cancel}, "✗ shell_cmd: run cancelled"},
		{"5 cancels", []string{"5"}, PermitResult{Decision: cancel}, "✗ shell_cmd: run cancelled"},
		{"ctrl+c cancels", []string{"ctrl+c"}, PermitResult{Decision: cancel}, "✗ shell_cmd: run cancelled"},
		{"ctrl+c cancels in the reason", []string{"4", "type:why", "ctrl+c"}, PermitResult{Decision: cancel}, ""},
		{"keys after the end do nothing", []string{"1", "5"}, PermitResult{Decision: once}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewPermitForm(shellRequest("find . -name x"), mono)
			press(t, f, tc.keys...)
			if !f.Done() {
				t.Fatalf("keys %v: the prompt is still open:\n%s", tc.keys, plain(f.View(80, 24)))
			}
			if got := f.Result(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("keys %v: got %+v, want %+v", tc.keys, got, tc.want)
			}
			if tc.summary != "" {
				if f.Summary() != tc.summary {
					t.Errorf("keys %v: got summary %q, want %q", tc.keys, f.Summary(), tc.summary)
				}
				if got := plain(f.View(80, 24)); got != tc.summary {
					t.Errorf("keys %v: the finished view should be the summary alone, got\n%s", tc.keys, got)
				}
			}
		})
	}
}

// TestPermitReasonEditor: Deny opens the reason editor under the choices;
// the typed text is shown whole, wrapped.
func TestPermitReasonEditor(t *testing.T) {
	f := NewPermitForm(shellRequest("make clean"), mono)
	reason := strings.Repeat("the build directory holds release artefacts ", 3)
	press(t, f, "4", "type:"+reason)
	scr := plain(f.View(80, 24))
	for _, s := range []string{"› 4. Deny…", "Why? (optional; the model sees this)", "enter deny · esc back to the choices"} {
		if !strings.Contains(scr, s) {
			t.Errorf("want %q on screen:\n%s", s, scr)
		}
	}
	if flat := strings.Join(strings.Fields(scr), " "); !strings.Contains(flat, strings.TrimSpace(reason)) {
		t.Errorf("the whole reason should be on screen:\n%s", scr)
	}
	if f.Done() {
		t.Errorf("typing a reason should not decide")
	}
}

// TestPermitScrollsALongDiff: a diff taller than the room shows what fits,
// says how much is below and above, pages with PgDn and PgUp, and stops at
// its end.
func TestPermitScrollsALongDiff(t *testing.T) {
	var b strings.Builder
	b.WriteString("--- /dev/null\n+++ b/list.txt\n@@ -0,0 +1,60 @@\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "+item %d\n", i)
	}
	f := NewPermitForm(diffRequest(b.String()), mono)
	view := func() string { return plain(f.View(80, 24)) }
	check := func(step string, want, absent []string) {
		t.Helper()
		scr := view()
		if n := strings.Count(scr, "\n") + 1; n > 24 {
			t.Errorf("%s: %d lines, want at most 24", step, n)
		}
		for _, s := range want {
			if !strings.Contains(scr, s+"\n") {
				t.Errorf("%s: want %q on screen:\n%s", step, s, scr)
			}
		}
		for _, s := range absent {
			if strings.Contains(scr, s+"\n") {
				t.Errorf("%s: %q should not be on screen:\n%s", step, s, scr)
			}
		}
	}
	// 63 lines in 13: a page is 11 lines, with one line of overlap.
	check("first page", []string{"  --- /dev/null", "  +item 1", "  +item 9", "  ↓ 51 more lines (PgDn)"}, []string{"  +item 10", "  ↑"})
	press(t, f, "pgdown")
	check("second page", []string{"  ↑ 11 more lines (PgUp)", "  +item 9", "  +item 19", "  ↓ 41 more lines (PgDn)"}, []string{"  +item 8", "  +item 20"})
	for range 20 {
		press(t, f, "pgdown")
	}
	check("the end", []string{"  ↑ 51 more lines (PgUp)", "  +item 49", "  +item 60"}, []string{"  ↓", "  +item 48"})
	press(t, f, "pgup")
	check("one page up from the end", []string{"  ↑ 40 more lines (PgUp)", "  +item 38", "  +item 48", "  ↓ 12 more lines (PgDn)"}, []string{"  +item 49"})
	for range 20 {
		press(t, f, "pgup")
	}
	check("back at the top", []string{"  --- /dev/null"}, []string{"  ↑"})
}

// TestPermitBodies: a diff keeps its +/- markers and marks wrapped
// continuations; other tools show their arguments as indented JSON; a
// write without a preview falls back to its arguments.
func TestPermitBodies(t *testing.T) {
	scr := plain(NewPermitForm(diffRequest(mainDiff), mono).View(80, 0))
	for _, s := range []string{"Allow write_file? · a write tool", "  -import \"fmt\"", "  +import (", "  +    \"os\"", "  @@ -1,7 +1,11 @@",
		"  ↪", "  -    fmt.Println(\"hi\")"} {
		if !strings.Contains(scr, s) {
			t.Errorf("diff: want %q on screen:\n%s", s, scr)
		}
	}
	req := engine.PermissionRequest{Tool: "mcp_github_create_issue", Kind: tools.KindExternalAction,
		Arguments: `{"repo":"llmrt/llmrt","labels":["bug"]}`, Suggested: "mcp_github_create_issue"}
	scr = plain(NewPermitForm(req, mono).View(120, 0))
	for _, s := range []string{"Allow mcp_github_create_issue? · an external action tool", "  {\n    \"repo\": \"llmrt/llmrt\",\n    \"labels\": [\n      \"bug\"\n    ]\n  }",
		"2. Allow always in this session: mcp_github_create_issue", "3. Allow always in this project: mcp_github_create_issue (saved to .llmrt/config.json)"} {
		if !strings.Contains(scr, s) {
			t.Errorf("json: want %q on screen:\n%s", s, scr)
		}
	}
	scr = plain(NewPermitForm(diffRequest(""), mono).View(80, 0))
	if !strings.Contains(scr, `"path": "main.go"`) {
		t.Errorf("a write without a preview should show its arguments:\n%s", scr)
	}
}

// TestPermitMonochromeCursor: without colour the choice under the cursor
// is still marked.
func TestPermitMonochromeCursor(t *testing.T) {
	f := NewPermitForm(shellRequest("ls"), mono)
	press(t, f, "down")
	if scr := f.View(80, 24); !strings.Contains(plain(scr), "› 2. Allow always") || !strings.Contains(scr, "\x1b[7m") {
		t.Errorf("the cursor should be marked with › and reverse video:\n%q", scr)
	}
}
