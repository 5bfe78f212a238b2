package acpbridge

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

func TestKindAndTitle(t *testing.T) {
	cases := []struct {
		name      string
		kind      tools.Kind
		args      string
		wantKind  acp.ToolKind
		wantTitle string
	}{
		{"read_file", tools.KindRead, `{"path":"a.go"}`, acp.ToolKindRead, "Read a.go"},
		{"edit_file", tools.KindWrite, `{"path":"a.go","old_string":"x","new_string":"y"}`, acp.ToolKindEdit, "Edit a.go"},
		{"shell_cmd", tools.KindExternalAction, `{"command":"go test ./...\nrm -rf /"}`, acp.ToolKindExecute, "Run go test ./..."},
		{"search_files", tools.KindRead, `{"pattern":"TODO"}`, acp.ToolKindSearch, "Search TODO"},
		{"web_fetch", tools.KindRead, `{"url":"https://example.com"}`, acp.ToolKindFetch, "Fetch https://example.com"},
		{"github_create_issue", tools.KindExternalAction, `{"title":"x"}`, acp.ToolKindExecute, "github_create_issue"},
		{"write_file", tools.KindWrite, `not json`, acp.ToolKindEdit, "write_file"},
		{"mystery", tools.KindNone, `{}`, acp.ToolKindOther, "mystery"},
	}
	for _, c := range cases {
		if got := Kind(c.name, c.kind); got != c.wantKind {
			t.Errorf("Kind(%s, %s): got %s, want %s", c.name, c.kind, got, c.wantKind)
		}
		if got := Title(c.name, c.args); got != c.wantTitle {
			t.Errorf("Title(%s, %s): got %q, want %q", c.name, c.args, got, c.wantTitle)
		}
	}
}

func TestDecision(t *testing.T) {
	sel := func(id string) acp.RequestPermissionOutcome {
		return acp.NewRequestPermissionOutcomeSelected(acp.PermissionOptionId(id))
	}
	cases := []struct {
		name string
		out  acp.RequestPermissionOutcome
		want engine.DecisionAction
	}{
		{"allow once", sel(OptionAllowOnce), engine.AllowOnce},
		{"allow always", sel(OptionAllowAlways), engine.AllowAlways},
		{"deny", sel(OptionDeny), engine.Deny},
		{"an option never offered", sel("allow_everything"), engine.Cancel},
		{"cancelled", acp.NewRequestPermissionOutcomeCancelled(), engine.Cancel},
	}
	for _, c := range cases {
		if got := Decision(c.out).Action; got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func TestChoice(t *testing.T) {
	q := tools.Question{ID: "lang", Question: "Which?", Options: []tools.Choice{{ID: "go", Label: "Go"}, {ID: "rust", Label: "Rust"}}}
	in := tools.AskInput{AllowSkip: true, Questions: []tools.Question{q}}
	opts := QuestionOptions(in, q)
	if len(opts) != 3 || opts[2].Kind != acp.PermissionOptionKindRejectOnce {
		t.Fatalf("options: got %+v, want go, rust and a skip", opts)
	}
	if id, skip, ok := Choice(q, acp.NewRequestPermissionOutcomeSelected("rust")); id != "rust" || skip || !ok {
		t.Errorf("rust: got %q %v %v", id, skip, ok)
	}
	if _, skip, ok := Choice(q, acp.NewRequestPermissionOutcomeSelected(opts[2].OptionId)); !skip || !ok {
		t.Errorf("skip: got skip %v ok %v, want both", skip, ok)
	}
	if _, _, ok := Choice(q, acp.NewRequestPermissionOutcomeSelected("python")); ok {
		t.Errorf("an option never offered was taken")
	}
}

func TestPrompt(t *testing.T) {
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nfake"))
	msg, err := Prompt([]acp.ContentBlock{
		acp.TextBlock("look"),
		acp.ResourceLinkBlock("main.go", "file:///src/main.go"),
		acp.ResourceBlock(acp.EmbeddedResourceResource{TextResourceContents: &acp.TextResourceContents{Uri: "file:///notes.md", Text: "note"}}),
		acp.ImageBlock(png, "image/png"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if msg.Role != providers.RoleUser || len(msg.Content) != 4 {
		t.Fatalf("got %+v, want a user message of 4 parts", msg)
	}
	if !strings.Contains(msg.Content[1].Text, "/src/main.go") || !strings.Contains(msg.Content[2].Text, "note") || msg.Content[3].Type != providers.PartImage {
		t.Errorf("parts: got %+v", msg.Content)
	}
	bad := []struct {
		name   string
		blocks []acp.ContentBlock
		want   string
	}{
		{"empty", nil, "empty"},
		{"audio", []acp.ContentBlock{acp.AudioBlock("AAAA", "audio/wav")}, "audio"},
		{"not base64", []acp.ContentBlock{acp.ImageBlock("%%%", "image/png")}, "base64"},
		{"a pdf blob", []acp.ContentBlock{acp.ResourceBlock(acp.EmbeddedResourceResource{BlobResourceContents: &acp.BlobResourceContents{Uri: "file:///a.pdf", Blob: "AAAA", MimeType: acp.Ptr("application/pdf")}})}, "application/pdf"},
	}
	for _, c := range bad {
		if _, err := Prompt(c.blocks); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error naming %q", c.name, err, c.want)
		}
	}
}

// TestUpdatesEditDiff: an edit call announced by its permission request
// carries the proposed diff, and its result the diff as made, against
// the file as it was when announced.
func TestUpdatesEditDiff(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "a.txt")
	if err := os.WriteFile(p, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u := &Updates{Root: root}
	call := engine.CallInfo{ID: "c1", Name: "edit_file", Kind: tools.KindWrite, Arguments: `{"path":"a.txt","old_string":"two","new_string":"2"}`}
	first := u.Event(engine.Event{Type: engine.EventPermissionRequest, Call: &call})
	if len(first) != 1 || first[0].ToolCall == nil || first[0].ToolCall.Status != acp.ToolCallStatusPending {
		t.Fatalf("permission request: got %+v, want a pending tool_call", first)
	}
	if d := first[0].ToolCall.Content; len(d) != 1 || d[0].Diff == nil || d[0].Diff.NewText != "one\n2\n" {
		t.Errorf("proposed diff: got %+v", d)
	}
	started := u.Event(engine.Event{Type: engine.EventToolStart, Call: &call})
	if len(started) != 1 || started[0].ToolCallUpdate == nil {
		t.Fatalf("tool_start: got %+v, want a tool_call_update", started)
	}
	if err := os.WriteFile(p, []byte("one\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := u.Event(engine.Event{Type: engine.EventToolResult, Call: &engine.CallInfo{ID: "c1", Name: "edit_file"}, Outcome: &engine.ToolOutcome{Content: "edited"}})
	if len(done) != 1 || done[0].ToolCallUpdate == nil {
		t.Fatalf("tool_result: got %+v", done)
	}
	c := done[0].ToolCallUpdate.Content
	if len(c) != 1 || c[0].Diff == nil || c[0].Diff.OldText == nil || *c[0].Diff.OldText != "one\ntwo\n" || c[0].Diff.NewText != "one\n2\n" {
		t.Errorf("result diff: got %+v", c)
	}
	if got := u.Event(engine.Event{Type: engine.EventToolStart, Call: &engine.CallInfo{ID: "f", Name: engine.FinalAnswerTool}}); got != nil {
		t.Errorf("final_answer is not a tool call the client sees: got %+v", got)
	}
}

func TestHistory(t *testing.T) {
	call := providers.ToolCall{ID: "c1", Name: "read_file", Arguments: `{"path":"a.go"}`}
	msgs := []engine.Message{
		providers.TextMessage(providers.RoleSystem, "system"),
		providers.TextMessage(providers.RoleUser, "hello"),
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{call}},
		providers.ToolResultMessage(call, "package a", false),
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{{ID: "f", Name: engine.FinalAnswerTool, Arguments: `{"answer":"done"}`}}},
	}
	var kinds []string
	for _, u := range History("/w", msgs) {
		switch {
		case u.UserMessageChunk != nil:
			kinds = append(kinds, "user:"+u.UserMessageChunk.Content.Text.Text)
		case u.AgentMessageChunk != nil:
			kinds = append(kinds, "agent:"+u.AgentMessageChunk.Content.Text.Text)
		case u.ToolCall != nil:
			kinds = append(kinds, "call:"+u.ToolCall.Title)
		case u.ToolCallUpdate != nil:
			kinds = append(kinds, "result:"+string(*u.ToolCallUpdate.Status))
		}
	}
	want := "user:hello call:Read a.go result:completed agent:done"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPlanEntries: a plan's steps are the items of its top-level lists, in
// order, as plain text (markup gone, nested items folded into their step);
// a plan without a list has no entries.
func TestPlanEntries(t *testing.T) {
	plan := "# Plan\n\nFirst, the why.\n\n1. Move `config.Load` to **config/**\n2. Update the callers:\n   - cmd/run.go\n   - cmd/chat.go\n3. Run the tests <all of them>\n\n## Risks\n\n- the import cycle\n"
	got := PlanEntries(plan)
	want := []string{"Move config.Load to config/", "Update the callers: cmd/run.go cmd/chat.go", "Run the tests <all of them>", "the import cycle"}
	if len(got) != len(want) {
		t.Fatalf("got %d entries %+v, want %q", len(got), got, want)
	}
	for i, e := range got {
		if e.Content != want[i] || e.Status != acp.PlanEntryStatusPending || e.Priority != acp.PlanEntryPriorityMedium {
			t.Errorf("entry %d: got %+v, want %q pending, medium", i, e, want[i])
		}
	}
	if e := PlanEntries("Nothing to change: the code already does it."); len(e) != 0 {
		t.Errorf("a plan without steps: got %+v, want none", e)
	}
}
