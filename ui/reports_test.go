package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/llmrt/llmrt/engine"
	llmtools "github.com/llmrt/llmrt/tools"
)

// sampleReports are a reply of each kind, filled as a host fills them.
func sampleReports() map[string]Report {
	tools := ToolList{
		Servers: []ServerStatus{
			{Name: "calc", State: "ready", Tools: 4},
			{Name: "ghost", State: "failed", Err: "start /nonexistent/ghost-mcp: fork/exec /nonexistent/ghost-mcp: no such file or directory"},
		},
		Commands: "sandbox workspace-write: writes only in /home/person/src/a-rather-long-project-name, /tmp; no network",
	}
	for _, t := range []struct{ name, kind, source, desc string }{
		{"read_file", "read", "builtin", "Read a text file from the workspace. Long files are read in pages."},
		{"write_file", "write", "builtin", "Create or replace a file in the workspace with the given content."},
		{"shell_cmd", "external_action", "builtin", "Run a shell command in the workspace. It runs in the sandbox."},
		{"mcp__calc__get-sum", "external_action", "mcp:calc", "Add two numbers."},
		{"ask_user_input", "interaction", "builtin", "Ask the person one or more questions with options."},
		{"final_answer", "none", "control", "Finish the run with the answer."},
	} {
		tools.Tools = append(tools.Tools, engine.ToolInfo{Name: t.name, Kind: llmtools.Kind(t.kind), Source: t.source, Description: t.desc})
	}
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.Local)
	sessions := SessionList{Now: at.Add(90 * time.Minute)}
	for i := range 17 {
		status := []string{"completed", "cancelled", "", "tool_calls"}[i%4]
		sessions.Sessions = append(sessions.Sessions, SessionInfo{
			ID: fmt.Sprintf("20261124-12%02d00-abc%03d", 59-i, i), Updated: at.Add(-time.Duration(i) * time.Hour),
			Status: status, Model: "openai/gpt-5", Bytes: int64(900 + i*3000), Title: fmt.Sprintf("session %d: find out why the build fails on the release branch", i),
		})
	}
	return map[string]Report{
		"tools":    tools,
		"sessions": sessions,
		"usage":    UsageReport{Usage: engine.Usage{InputTokens: 45120, OutputTokens: 2370, CacheReadTokens: 31000, ReasoningTokens: 640}},
		"context": ContextReport{Model: "gpt-5", CompactAt: 0.85,
			Parts: engine.ContextReport{Window: 32000, System: 1340, Instructions: 1200, Tools: 3686, Conversation: 8420, Total: 14646},
			Files: []InstructionFile{{Path: "AGENTS.md", Bytes: 4800}}},
		"skills": SkillList{Skills: []SkillInfo{{Name: "pdf", Scope: "project", Description: "Read and fill PDF forms with pdftotext and friends."}}},
		"agents": AgentList{Agents: []AgentInfo{
			{Name: "tester", Scope: "project", Description: "Runs the test suite and reports what failed.", Tools: []string{"read_file", "shell_cmd"}},
			{Name: "planner", Scope: "user", Description: "Plans a change.", Provider: "anthropic", Model: "claude-opus-4-5"},
		}},
	}
}

// TestReportsOnScreen: each command's report, drawn at 80x24 and
// 120x40 as the person sees it after typing the command.
func TestReportsOnScreen(t *testing.T) {
	reports := sampleReports()
	for _, name := range []string{"tools", "sessions", "usage", "context", "skills"} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			h := &fakeHost{replies: map[string]Reply{name: {Report: reports[name]}}}
			d := newDriver(t, h, size[0], size[1])
			d.typeText("/" + name)
			d.key("enter")
			d.idle()
			golden(t, "chat_report_"+name+"_"+itoa(size[0])+"x"+itoa(size[1]), d.m.render())
		}
	}
}

// TestReportsFitTheWidth: no report line is wider than the screen, down
// to a narrow one, and what must be read is there.
func TestReportsFitTheWidth(t *testing.T) {
	want := map[string][]string{
		"tools":    {"read_file", "external_action", "ready, 4 tools", "ghost", "failed: start", "Commands:"},
		"sessions": {"20261124-125900-abc000", "completed", "2 more", "/resume ID"},
		"usage":    {"45,120", "31,000 read from cache", "2,370", "640 reasoning", "47,490"},
		"context":  {"32,000 tokens", "14,646", "45.8%", "tool definitions", "3,686", "free", "AGENTS.md", "At 85%"},
		"skills":   {"pdf", "project"},
		"agents":   {"tester", "read_file,shell_cmd", "planner", "all", "Plans a change."},
	}
	for name, r := range sampleReports() {
		for _, width := range []int{40, 80, 120, 200} {
			l := &look{pal: NewPalette(false, true)}
			lines := r.draw(l, width)
			for _, s := range lines {
				if w := ansi.StringWidth(s); w > width {
					t.Errorf("%s at %d columns: a line of %d: %q", name, width, w, s)
				}
			}
			if width < 80 {
				continue
			}
			text := plain(strings.Join(lines, "\n"))
			for _, w := range want[name] {
				if !strings.Contains(text, w) {
					t.Errorf("%s at %d columns lacks %q:\n%s", name, width, w, text)
				}
			}
		}
	}
}

// TestReportsHonourNoColor: without colour a report uses no colour at
// all (bold and faint only); with colour it does.
func TestReportsHonourNoColor(t *testing.T) {
	for name, r := range sampleReports() {
		mono := strings.Join(r.draw(&look{pal: NewPalette(false, true)}, 100), "\n")
		if strings.Contains(mono, "\x1b[38;") || strings.Contains(mono, "\x1b[3") && strings.Contains(mono, ";2;") {
			t.Errorf("%s without colour has colour codes: %q", name, mono)
		}
		if name == "context" || name == "tools" {
			colour := strings.Join(r.draw(&look{pal: NewPalette(true, true)}, 100), "\n")
			if !strings.Contains(colour, "\x1b[") {
				t.Errorf("%s with colour is drawn plain: %q", name, colour)
			}
		}
	}
}

// TestSmallReports: the one-sentence reports say what changed.
func TestSmallReports(t *testing.T) {
	cases := []struct {
		r    Report
		want string
	}{
		{ModelReport{Provider: "openai", Model: "gpt-5", Providers: []string{"anthropic", "openai"}},
			"Model: openai/gpt-5. Switch with /model [provider/]name; providers: anthropic, openai."},
		{ModelReport{Provider: "anthropic", Model: "claude", Switched: true}, "Now using anthropic/claude."},
		{PermissionReport{Mode: "ask"}, "Permission mode: ask. Change it with /permission [auto|ask|read|plan]."},
		{PermissionReport{Mode: "read", Changed: true}, "Permission mode is now read."},
		{Resumed{ID: "S1"}, "Resumed session S1."},
		{Resumed{ID: "S1", RanOn: "openai/gpt-5", Now: "anthropic/claude"},
			"Resumed session S1. It ran on openai/gpt-5; this chat goes on with anthropic/claude (/model switches)."},
		{Resumed{ID: "S1", RanIn: "/src/a", Here: "/src/b"},
			"Resumed session S1. It ran in /src/a; this chat works in /src/b, so its tools act there (llmrt chat --resume S1 --cwd /src/a goes on where it ran)."},
		{Notice("New session: the conversation is cleared."), "New session: the conversation is cleared."},
		{SessionList{All: true}, "No saved sessions."},
		{SessionList{}, "No saved sessions in this directory; /sessions all lists every directory's."},
		{SkillList{}, "No skills found; llmrt skills lists where they are looked for."},
		{AgentList{}, "No agents defined; llmrt agents lists where they are looked for."},
	}
	for _, tc := range cases {
		got := strings.TrimSpace(plain(strings.Join(tc.r.draw(&look{pal: NewPalette(false, true)}, 200), "\n")))
		if got != tc.want {
			t.Errorf("%#v: got %q, want %q", tc.r, got, tc.want)
		}
	}
	// /compact's marker: a rule across the screen, then what it did.
	got := plain(strings.Join(Compacted{Before: 12000, After: 3000}.draw(&look{pal: NewPalette(false, true)}, 60), "\n"))
	if want := "── compacted on request " + strings.Repeat("─", 36) + "\n  The conversation went from about 12,000 to 3,000 tokens:"; !strings.HasPrefix(got, want) {
		t.Errorf("the compaction marker:\n%s", got)
	}
}

// TestReplyWarningsAreShown: what the host found while running a command
// is on the screen with its reply, also when the command failed.
func TestReplyWarningsAreShown(t *testing.T) {
	h := &fakeHost{replies: map[string]Reply{"resume": {Report: Resumed{ID: "S1"}, Warnings: []string{"S1.jsonl:9: skipped a torn last line"}}}}
	d := newDriver(t, h, 80, 24)
	d.typeText("/resume S1")
	d.key("enter")
	d.idle()
	screen := plain(d.m.render())
	if !strings.Contains(screen, "skipped a torn last line") || !strings.Contains(screen, "Resumed session S1.") {
		t.Errorf("the warning and the reply should both show:\n%s", screen)
	}
}
