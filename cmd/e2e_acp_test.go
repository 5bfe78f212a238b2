package cmd_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// editor answers permission requests with option, takes file writes and
// serves its buffers, recording the requests and the writes.
type editor struct {
	option string
	writes map[string]string
	asked  []map[string]any
	// buffers are the files the editor holds, as fs/read_text_file
	// answers them.
	buffers map[string]string
}

func (e *editor) answer(method string, params json.RawMessage) (any, error) {
	var m map[string]any
	if err := json.Unmarshal(params, &m); err != nil {
		return nil, err
	}
	switch method {
	case "session/request_permission":
		e.asked = append(e.asked, m)
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": e.option}}, nil
	case "fs/write_text_file":
		e.writes[fmt.Sprint(m["path"])] = fmt.Sprint(m["content"])
		return map[string]any{}, nil
	case "fs/read_text_file":
		if b, ok := e.buffers[fmt.Sprint(m["path"])]; ok {
			return map[string]any{"content": b}, nil
		}
		return nil, fmt.Errorf("no buffer for %v", m["path"])
	}
	return nil, fmt.Errorf("unexpected request %s", method)
}

// TestE2EACPPromptWithPermission: over raw JSON-RPC, initialize says what
// llmrt offers; a prompt's write_file call is announced with its kind,
// title, location and diff, put to the client with allow once / always /
// deny, written on disk and through the client's fs, and the answer
// streams as the agent's message; the session is saved under the id the
// client was given, and a relative cwd is refused by name.
func TestE2EACPPromptWithPermission(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI,
		toolCall("write_file", `{"path":"hello.txt","content":"hi\n"}`),
		finalAnswer("I wrote hello.txt."))
	p := startACP(sb, srv, "--permission", "ask")
	ed := &editor{option: "allow_once", writes: map[string]string{},
		buffers: map[string]string{filepath.Join(sb.work, "README.md"): "unsaved-buffer-7731"}}
	p.answer = ed.answer

	init := p.initialize()
	if init["protocolVersion"] != float64(1) {
		t.Errorf("protocolVersion: got %v, want 1", init["protocolVersion"])
	}
	caps, _ := init["agentCapabilities"].(map[string]any)
	if caps["loadSession"] != true {
		t.Errorf("loadSession: got %v, want true", caps["loadSession"])
	}
	if b, _ := json.Marshal(init["authMethods"]); !strings.Contains(string(b), "OPENAI_API_KEY") {
		t.Errorf("authMethods should name OPENAI_API_KEY: %s", b)
	}

	if _, rerr := p.call("session/new", map[string]any{"cwd": "relative/dir", "mcpServers": []any{}}); rerr == nil || !strings.Contains(string(rerr.Data), "absolute") {
		t.Errorf("a relative cwd: got %v, want an error naming an absolute path", rerr)
	}
	ns := p.mustCall("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{}})
	id, _ := ns["sessionId"].(string)
	if id == "" {
		t.Fatalf("session/new: no sessionId: %v", ns)
	}
	if modes, _ := ns["modes"].(map[string]any); modes["currentModeId"] != "ask" {
		t.Errorf("currentModeId: got %v, want ask", modes["currentModeId"])
	}

	res := p.mustCall("session/prompt", map[string]any{"sessionId": id, "prompt": []any{
		map[string]any{"type": "text", "text": "Write hello.txt"},
		map[string]any{"type": "resource_link", "name": "README.md", "uri": "file://" + filepath.Join(sb.work, "README.md")},
		map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///notes.txt", "text": "embedded-note-42"}},
	}})
	if res["stopReason"] != "end_turn" {
		t.Errorf("stopReason: got %v, want end_turn", res["stopReason"])
	}
	body := string(srv.Requests()[0].Body)
	for _, want := range []string{"Write hello.txt", "unsaved-buffer-7731", "embedded-note-42"} {
		if !strings.Contains(body, want) {
			t.Errorf("the model should get %q of the prompt: %s", want, body)
		}
	}
	if b, err := os.ReadFile(filepath.Join(sb.work, "hello.txt")); err != nil || string(b) != "hi\n" {
		t.Errorf("hello.txt: got %q, %v; want \"hi\\n\"", b, err)
	}
	abs := filepath.Join(sb.work, "hello.txt")
	if ed.writes[abs] != "hi\n" {
		t.Errorf("fs/write_text_file: got %v, want %s = \"hi\\n\"", ed.writes, abs)
	}

	calls := p.find("tool_call")
	if len(calls) != 1 {
		t.Fatalf("tool_call updates: got %d, want 1: %v", len(calls), p.kinds())
	}
	c := calls[0]
	if c["kind"] != "edit" || c["title"] != "Write hello.txt" {
		t.Errorf("tool_call: got kind %v title %v, want edit, \"Write hello.txt\"", c["kind"], c["title"])
	}
	if b, _ := json.Marshal(c["locations"]); !strings.Contains(string(b), abs) {
		t.Errorf("tool_call locations: got %s, want %s", b, abs)
	}
	if len(ed.asked) != 1 {
		t.Fatalf("permission requests: got %d, want 1", len(ed.asked))
	}
	var opts []string
	for _, o := range ed.asked[0]["options"].([]any) {
		opts = append(opts, fmt.Sprint(o.(map[string]any)["kind"]))
	}
	if !slices.Equal(opts, []string{"allow_once", "allow_always", "reject_once"}) {
		t.Errorf("permission options: got %v, want allow_once, allow_always, reject_once", opts)
	}
	if tc := ed.asked[0]["toolCall"].(map[string]any); tc["toolCallId"] != c["toolCallId"] {
		t.Errorf("the permission request names call %v, want the announced %v", tc["toolCallId"], c["toolCallId"])
	}
	var done map[string]any
	for _, u := range p.find("tool_call_update") {
		if u["status"] == "completed" {
			done = u
		}
	}
	if done == nil {
		t.Fatalf("no completed tool_call_update: %v", p.kinds())
	}
	if b, _ := json.Marshal(done["content"]); !strings.Contains(string(b), `"type":"diff"`) || !strings.Contains(string(b), `"newText":"hi\n"`) {
		t.Errorf("the completed write should carry its diff: %s", b)
	}
	if got := p.text("agent_message_chunk"); got != "I wrote hello.txt." {
		t.Errorf("agent message: got %q, want %q", got, "I wrote hello.txt.")
	}
	if _, err := os.Stat(filepath.Join(sb.home, "state", "llmrt", "sessions", id+".jsonl")); err != nil {
		t.Errorf("the session should be saved under the id the client got: %v", err)
	}
}

// TestE2EACPCancelAndLoad: a session/cancel while the model is answering
// ends the prompt as cancelled; the session then opens in another
// process with session/load, its conversation replayed as updates, is
// listed by session/list, and goes on with a new prompt; a denied call
// does not run.
func TestE2EACPCancelAndLoad(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI,
		finalAnswer("The first answer."),
		finalAnswer("never sent"),
		toolCall("write_file", `{"path":"denied.txt","content":"no"}`),
		finalAnswer("Left it alone."))
	hold := srv.Hold(2)
	defer hold()
	p := startACP(sb, srv)
	p.initialize()
	id := p.mustCall("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{}})["sessionId"].(string)
	if r := p.mustCall("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "first question"}}}); r["stopReason"] != "end_turn" {
		t.Fatalf("first prompt: got %v, want end_turn", r["stopReason"])
	}
	req := p.start("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "second question"}}})
	waitFor(t, "the second model call", func() bool { return len(srv.Requests()) >= 2 })
	p.notify("session/cancel", map[string]any{"sessionId": id})
	res, rerr := p.wait(req)
	if rerr != nil || !strings.Contains(string(res), `"stopReason":"cancelled"`) {
		t.Fatalf("cancelled prompt: got %s, %v; want stopReason cancelled", res, rerr)
	}
	hold()
	p.in.Close()

	q := startACP(sb, srv, "--permission", "ask")
	ed := &editor{option: "deny", writes: map[string]string{}}
	q.answer = ed.answer
	q.initialize()
	list := q.mustCall("session/list", map[string]any{"cwd": sb.work})
	if b, _ := json.Marshal(list["sessions"]); !strings.Contains(string(b), id) || !strings.Contains(string(b), "first question") {
		t.Errorf("session/list should hold %s titled by its first prompt: %s", id, b)
	}
	q.mustCall("session/load", map[string]any{"sessionId": id, "cwd": sb.work, "mcpServers": []any{}})
	if got := q.text("user_message_chunk"); !strings.Contains(got, "first question") {
		t.Errorf("replayed user messages: got %q, want the first question", got)
	}
	if got := q.text("agent_message_chunk"); !strings.Contains(got, "The first answer.") {
		t.Errorf("replayed agent messages: got %q, want the first answer", got)
	}
	q.reset()
	r := q.mustCall("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "third"}}})
	if r["stopReason"] != "end_turn" {
		t.Errorf("prompt after load: got %v, want end_turn", r["stopReason"])
	}
	if _, err := os.Stat(filepath.Join(sb.work, "denied.txt")); err == nil {
		t.Errorf("a denied write ran")
	}
	if len(ed.writes) != 0 {
		t.Errorf("a denied write reached the editor: %v", ed.writes)
	}
	if last := lastRequestText(t, srv); !strings.Contains(last, "first question") || !strings.Contains(last, "third") {
		t.Errorf("the loaded session should go on with its history: %s", last)
	}
}

// TestE2EACPModes: session/set_mode switches the permission mode and says
// so with current_mode_update; an unknown mode is refused by name.
func TestE2EACPModes(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("write_file", `{"path":"auto.txt","content":"x"}`), finalAnswer("ok"))
	p := startACP(sb, srv, "--permission", "ask")
	p.answer = (&editor{option: "deny", writes: map[string]string{}}).answer
	p.initialize()
	id := p.mustCall("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{}})["sessionId"].(string)
	if _, rerr := p.call("session/set_mode", map[string]any{"sessionId": id, "modeId": "yolo"}); rerr == nil || !strings.Contains(string(rerr.Data), "yolo") {
		t.Errorf("unknown mode: got %v, want an error naming it", rerr)
	}
	p.mustCall("session/set_mode", map[string]any{"sessionId": id, "modeId": "auto"})
	p.mustCall("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "go"}}})
	found := false
	for _, u := range p.find("current_mode_update") {
		found = found || u["currentModeId"] == "auto"
	}
	if !found {
		t.Errorf("no current_mode_update to auto: %v", p.kinds())
	}
	if _, err := os.Stat(filepath.Join(sb.work, "auto.txt")); err != nil {
		t.Errorf("in auto mode the write should run without asking: %v", err)
	}
}

// TestE2EACPNoKey: with no provider key and no Ollama, initialize still
// answers, and session/new is refused as auth_required naming the keys
// llmrt reads.
func TestE2EACPNoKey(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	p := startACPWith(sb, cli{args: []string{"acp"}})
	p.initialize()
	_, rerr := p.call("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{}})
	if rerr == nil || rerr.Code != -32000 || !strings.Contains(string(rerr.Data), "OPENAI_API_KEY") {
		t.Errorf("session/new without a key: got %v, want auth_required (-32000) naming OPENAI_API_KEY", rerr)
	}
}

// TestE2EACPSlashCommands: the user's custom commands are offered as
// available commands, and a prompt that opens with one sends the model
// its expansion.
func TestE2EACPSlashCommands(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	dir := filepath.Join(sb.home, "config", "llmrt", "commands")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "greet.md"), []byte("---\ndescription: Greet someone\nargument-hint: <name>\n---\nSay hello to $ARGUMENTS warmly.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI, finalAnswer("Hello, Bob!"))
	p := startACP(sb, srv)
	p.initialize()
	id := p.mustCall("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{}})["sessionId"].(string)
	p.mustCall("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "/greet Bob"}}})
	offered := p.find("available_commands_update")
	var names []string
	for _, u := range offered {
		for _, c := range u["availableCommands"].([]any) {
			c := c.(map[string]any)
			input, _ := c["input"].(map[string]any)
			names = append(names, fmt.Sprint(c["name"], " ", input["hint"]))
		}
	}
	if !slices.Equal(names, []string{"greet <name>"}) {
		t.Errorf("available commands: got %q, want greet with its hint <name>", names)
	}
	if body := string(srv.Requests()[0].Body); !strings.Contains(body, "Say hello to Bob warmly.") {
		t.Errorf("the model should get the command's expansion: %s", body)
	}
}

// TestE2EACPClientMCPServers: an MCP server the editor passes with
// session/new starts with the session, in a folder never trusted (the
// editor's servers are the user's own), and its tools reach the model.
func TestE2EACPClientMCPServers(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write(".mcp.json", fmt.Sprintf(`{"mcpServers":{"proj":{"command":%q}}}`, mcpServer))
	srv := fake(t, fakellm.OpenAI, toolCall("mcp__calc__get-sum", `{"a":2,"b":3}`), finalAnswer("five"))
	p := startACP(sb, srv, "--permission", "auto")
	p.initialize()
	id := p.mustCall("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{
		map[string]any{"name": "calc", "command": mcpServer, "args": []string{}, "env": []any{}},
	}})["sessionId"].(string)
	p.mustCall("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "add 2 and 3"}}})
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model calls: got %d, want 2", len(reqs))
	}
	if !strings.Contains(string(reqs[0].Body), "mcp__calc__get-sum") {
		t.Errorf("the editor's server's tool is not offered: %s", reqs[0].Body)
	}
	if !strings.Contains(string(reqs[1].Body), "The sum of 2 and 3 is 5.") {
		t.Errorf("the model should get the server's answer: %s", reqs[1].Body)
	}
	if strings.Contains(string(reqs[0].Body), "mcp__proj__get-sum") {
		t.Errorf("the untrusted project's server should not start: %s", reqs[0].Body)
	}
	if _, rerr := p.call("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{map[string]any{"name": "", "command": ""}}}); rerr == nil || !strings.Contains(string(rerr.Data), "mcpServers[0]") {
		t.Errorf("a server without a command: got %v, want an error naming mcpServers[0]", rerr)
	}
}

// TestE2EACPPromptTooLarge: a prompt larger than one message may be for
// the model is refused by name, and nothing reaches the model.
func TestE2EACPPromptTooLarge(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	if err := os.MkdirAll(filepath.Join(sb.home, "config", "llmrt"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sb.home, "config", "llmrt", "config.json"), []byte(`{"context_window": 1000}`), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI, finalAnswer("never"))
	p := startACP(sb, srv)
	p.initialize()
	id := p.mustCall("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{}})["sessionId"].(string)
	_, rerr := p.call("session/prompt", map[string]any{"sessionId": id, "prompt": []any{
		map[string]any{"type": "text", "text": "summarise"},
		map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///big.log", "text": strings.Repeat("x", 10_000)}},
	}})
	if rerr == nil || !strings.Contains(string(rerr.Data), "the prompt is") || !strings.Contains(string(rerr.Data), "resource link") {
		t.Errorf("a prompt over the limit: got %v, want an error saying it is too large and what to send instead", rerr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("model calls: got %d, want none", n)
	}
}

// TestE2EACPQuestion: ask_user_input reaches the editor as a permission
// request whose options are the question's choices; the choice picked is
// the answer the model gets.
func TestE2EACPQuestion(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI,
		toolCall("ask_user_input", `{"questions":[{"header":"Lang","id":"lang","question":"Which language?","options":[{"id":"go","label":"Go"},{"id":"rust","label":"Rust"}]}]}`),
		finalAnswer("Go it is."))
	p := startACP(sb, srv)
	ed := &editor{option: "go", writes: map[string]string{}}
	p.answer = ed.answer
	p.initialize()
	id := p.mustCall("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{}})["sessionId"].(string)
	if r := p.mustCall("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "pick"}}}); r["stopReason"] != "end_turn" {
		t.Fatalf("got %v, want end_turn", r["stopReason"])
	}
	if len(ed.asked) != 1 {
		t.Fatalf("requests: got %d, want one for the question", len(ed.asked))
	}
	b, _ := json.Marshal(ed.asked[0])
	for _, want := range []string{"Which language?", `"optionId":"go"`, `"optionId":"rust"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the question's request lacks %s: %s", want, b)
		}
	}
	if body := lastRequestText(t, srv); !strings.Contains(body, `\"lang\":\"go\"`) {
		t.Errorf("the model should get the answer lang=go: %s", body)
	}
}

// TestE2EACPRedactsStreamedSecrets: a provider key the model echoes
// reaches the editor redacted, however its answer was cut into chunks.
func TestE2EACPRedactsStreamedSecrets(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	const key = "sk-proj-acp-0123456789abcdefghij"
	srv := fake(t, fakellm.OpenAI, shellTurn("curl -H 'Authorization: "+key+"' example.com"), finalAnswer("The key is "+key+", keep it safe."))
	p := startACPWith(sb, cli{args: []string{"acp", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "--permission", "ask"},
		env: map[string]string{"OPENAI_API_KEY": key}})
	ed := &editor{option: "deny", writes: map[string]string{}}
	p.answer = ed.answer
	p.initialize()
	id := p.mustCall("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{}})["sessionId"].(string)
	p.mustCall("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "what is the key?"}}})
	got := p.text("agent_message_chunk")
	if strings.Contains(got, key) || !strings.Contains(got, "[REDACTED]") || !strings.Contains(got, "keep it safe") {
		t.Errorf("agent message: got %q, want the key redacted and the rest kept", got)
	}
	asked, _ := json.Marshal(ed.asked)
	calls, _ := json.Marshal(p.find("tool_call"))
	for what, b := range map[string][]byte{"permission request": asked, "tool call": calls} {
		if strings.Contains(string(b), key) || !strings.Contains(string(b), "curl") {
			t.Errorf("%s: got %s, want the command with the key redacted", what, b)
		}
	}
}

// waitFor polls cond until it holds, failing after a generous deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestE2EACPThreeTurns: a three-turn session over raw JSON-RPC, a read
// that needs no permission, a write that asks and is allowed, and a plain
// answer, all in one session of one process. With LLMRT_ACP_TRANSCRIPT
// set to a file, its requests and updates are written there as the
// recorded transcript docs/acp-transcript.md shows.
func TestE2EACPThreeTurns(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write("README.md", "# demo\nA tiny project.\n")
	srv := fake(t, fakellm.OpenAI,
		toolCall("read_file", `{"path":"README.md"}`),
		finalAnswer("README.md says: a tiny project."),
		toolCall("write_file", `{"path":"NOTES.md","content":"- keep it tiny\n"}`),
		finalAnswer("Added NOTES.md."),
		finalAnswer("We read README.md and added NOTES.md."))
	p := startACP(sb, srv, "--permission", "ask")
	ed := &editor{option: "allow_once", writes: map[string]string{}}
	p.answer = ed.answer
	p.initialize()
	id := p.mustCall("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{}})["sessionId"].(string)
	for i, prompt := range []string{"What does README.md say?", "Add a NOTES.md with one note.", "Sum up what we did."} {
		r := p.mustCall("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": prompt}}})
		if r["stopReason"] != "end_turn" {
			t.Fatalf("turn %d: got %v, want end_turn", i+1, r["stopReason"])
		}
	}
	if len(ed.asked) != 1 {
		t.Errorf("permission requests: got %d, want 1 (the write; the read needs none)", len(ed.asked))
	}
	var titles []string
	for _, c := range p.find("tool_call") {
		titles = append(titles, fmt.Sprint(c["kind"], " ", c["title"]))
	}
	if want := []string{"read Read README.md", "edit Write NOTES.md"}; !slices.Equal(titles, want) {
		t.Errorf("tool calls: got %q, want %q", titles, want)
	}
	if n := len(sb.sessions()); n != 1 {
		t.Errorf("sessions saved: got %d, want 1", n)
	}
	if path := os.Getenv("LLMRT_ACP_TRANSCRIPT"); path != "" {
		writeTranscript(t, path, p, sb)
	}
}

// writeTranscript writes what a peer sent and got as Markdown, with the
// sandbox's paths made readable.
func writeTranscript(t *testing.T, path string, p *acpPeer, sb *sandbox) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# An ACP session with llmrt, as recorded\n\n")
	b.WriteString("Recorded by `TestE2EACPThreeTurns` (cmd/e2e_acp_test.go) against the fake model server:\n")
	b.WriteString("`LLMRT_ACP_TRANSCRIPT=$PWD/docs/acp-transcript.md go test ./cmd/ -run TestE2EACPThreeTurns`.\n")
	b.WriteString("Three turns in one session: a read that needs no permission, a write that asks and is\n")
	b.WriteString("allowed once (and is handed to the editor's buffer through `fs/write_text_file`), and a plain\n")
	b.WriteString("answer. `→` is the editor (client), `←` is `llmrt acp --permission ask`. The model's answers\n")
	b.WriteString("stream as `agent_message_chunk` updates as they arrive (what comes in one read, as one).\n\n")
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.log {
		dir := "←"
		if l.out {
			dir = "→"
		}
		line := strings.ReplaceAll(l.text, sb.work, "/home/me/project")
		line = strings.ReplaceAll(line, sb.home, "/home/me")
		fmt.Fprintf(&b, "%s\n```json\n%s\n```\n", dir, line)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestE2EACPPlanUpdate: a turn in plan mode sends its plan's steps as a
// plan update, besides the plan as the agent's message; a turn in another
// mode sends none.
func TestE2EACPPlanUpdate(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	plan := "Steps:\n\n1. Read `main.go`\n2. Split <Config> out\n"
	srv := fake(t, fakellm.OpenAI, finalAnswer(plan), finalAnswer("1. not a plan"))
	p := startACP(sb, srv, "--permission", "plan")
	p.initialize()
	id := p.mustCall("session/new", map[string]any{"cwd": sb.work, "mcpServers": []any{}})["sessionId"].(string)
	p.mustCall("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "plan it"}}})
	plans := p.find("plan")
	if len(plans) != 1 {
		t.Fatalf("got %d plan updates, want 1: %v", len(plans), p.kinds())
	}
	entries, _ := plans[0]["entries"].([]any)
	var got []string
	for _, e := range entries {
		m, _ := e.(map[string]any)
		got = append(got, fmt.Sprintf("%v/%v", m["content"], m["status"]))
	}
	if want := []string{"Read main.go/pending", "Split <Config> out/pending"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("plan entries: got %q, want %q", got, want)
	}
	p.reset()
	p.mustCall("session/set_mode", map[string]any{"sessionId": id, "modeId": "auto"})
	p.mustCall("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "go"}}})
	if n := len(p.find("plan")); n != 0 {
		t.Errorf("a turn in auto mode sent %d plan updates, want none", n)
	}
}
