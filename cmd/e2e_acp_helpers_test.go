package cmd_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// acpPeer is a client of `llmrt acp` speaking raw JSON-RPC over its pipes,
// as an editor does: it sends requests, answers the agent's requests with
// answer, and keeps every line both ways (the transcript) and every
// session/update it was sent.
type acpPeer struct {
	t      *testing.T
	in     io.WriteCloser
	lines  chan string
	done   chan struct{}
	nextID int
	// answer replies to a request of the agent (session/request_permission,
	// fs/write_text_file); an error becomes a JSON-RPC error.
	answer func(method string, params json.RawMessage) (any, error)

	mu       sync.Mutex
	log      []acpLine
	updates  []acpUpdate
	requests []acpLine // the agent's requests, in order
}

// acpLine is one message on the wire: sent by the client (out) or the
// agent.
type acpLine struct {
	out  bool
	text string
}

// acpUpdate is one session/update as the client got it.
type acpUpdate struct {
	SessionID string         `json:"sessionId"`
	Update    map[string]any `json:"update"`
}

// rpcMessage is any JSON-RPC message.
type rpcMessage struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params json.RawMessage  `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  *rpcError        `json:"error,omitempty"`
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d %s %s", e.Code, e.Message, e.Data) }

// startACP starts `llmrt acp` on the fake model server srv.
func startACP(sb *sandbox, srv *fakellm.Server, extra ...string) *acpPeer {
	sb.t.Helper()
	args := append([]string{"acp", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m"}, extra...)
	return startACPWith(sb, cli{args: args, env: map[string]string{"OPENAI_API_KEY": "sk-test"}})
}

// startACPWith starts llmrt as c says, as an editor starts its agent.
func startACPWith(sb *sandbox, c cli) *acpPeer {
	t := sb.t
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cmd := sb.command(ctx, c)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &syncWriter{w: &stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &acpPeer{t: t, in: in, lines: make(chan string, 1024), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
		if t.Failed() {
			t.Logf("llmrt acp stderr:\n%s", stderr.String())
		}
	})
	return p
}

// syncWriter serialises writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// send writes one message.
func (p *acpPeer) send(v any) {
	p.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.log = append(p.log, acpLine{out: true, text: string(b)})
	p.mu.Unlock()
	if _, err := p.in.Write(append(b, '\n')); err != nil {
		p.t.Fatalf("write to llmrt acp: %v", err)
	}
}

// notify sends a notification.
func (p *acpPeer) notify(method string, params any) {
	p.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// start sends a request and returns its id; wait reads its answer.
func (p *acpPeer) start(method string, params any) int {
	p.nextID++
	p.send(map[string]any{"jsonrpc": "2.0", "id": p.nextID, "method": method, "params": params})
	return p.nextID
}

// call sends a request and waits for its answer, serving the agent's
// requests and keeping its notifications meanwhile.
func (p *acpPeer) call(method string, params any) (json.RawMessage, *rpcError) {
	p.t.Helper()
	return p.wait(p.start(method, params))
}

// mustCall is call failing the test on an error answer.
func (p *acpPeer) mustCall(method string, params any) map[string]any {
	p.t.Helper()
	res, rerr := p.call(method, params)
	if rerr != nil {
		p.t.Fatalf("%s: %v", method, rerr)
	}
	var m map[string]any
	if err := json.Unmarshal(res, &m); err != nil {
		p.t.Fatalf("%s: result %s: %v", method, res, err)
	}
	return m
}

// wait reads messages until the answer to request id.
func (p *acpPeer) wait(id int) (json.RawMessage, *rpcError) {
	p.t.Helper()
	deadline := time.After(time.Minute)
	for {
		var line string
		select {
		case line = <-p.lines:
		case <-p.done:
			p.t.Fatalf("llmrt acp closed stdout before answering request %d", id)
		case <-deadline:
			p.t.Fatalf("no answer to request %d within a minute", id)
		}
		var m rpcMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			p.t.Fatalf("llmrt acp wrote a line that is not JSON: %q", line)
		}
		p.mu.Lock()
		p.log = append(p.log, acpLine{text: line})
		p.mu.Unlock()
		switch {
		case m.Method == "session/update":
			var u acpUpdate
			if err := json.Unmarshal(m.Params, &u); err != nil {
				p.t.Fatalf("session/update: %v: %s", err, m.Params)
			}
			p.mu.Lock()
			p.updates = append(p.updates, u)
			p.mu.Unlock()
		case m.Method != "" && m.ID != nil:
			p.mu.Lock()
			p.requests = append(p.requests, acpLine{text: line})
			p.mu.Unlock()
			p.reply(*m.ID, m.Method, m.Params)
		case m.ID != nil:
			var got int
			if json.Unmarshal(*m.ID, &got) == nil && got == id {
				return m.Result, m.Error
			}
		}
	}
}

// reply answers one request of the agent.
func (p *acpPeer) reply(id json.RawMessage, method string, params json.RawMessage) {
	if p.answer == nil {
		p.send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32601, "message": "method not found"}})
		return
	}
	res, err := p.answer(method, params)
	if err != nil {
		p.send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32603, "message": err.Error()}})
		return
	}
	p.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": res})
}

// kinds lists the sessionUpdate kinds received, in order.
func (p *acpPeer) kinds() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, u := range p.updates {
		out = append(out, fmt.Sprint(u.Update["sessionUpdate"]))
	}
	return out
}

// find returns the updates of a kind.
func (p *acpPeer) find(kind string) []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []map[string]any
	for _, u := range p.updates {
		if u.Update["sessionUpdate"] == kind {
			out = append(out, u.Update)
		}
	}
	return out
}

// text joins the text of the message chunks of a kind.
func (p *acpPeer) text(kind string) string {
	var b strings.Builder
	for _, u := range p.find(kind) {
		if c, ok := u["content"].(map[string]any); ok {
			b.WriteString(fmt.Sprint(c["text"]))
		}
	}
	return b.String()
}

// reset forgets the updates so far.
func (p *acpPeer) reset() {
	p.mu.Lock()
	p.updates = nil
	p.mu.Unlock()
}

// initialize runs the handshake with a client that offers fs writes.
func (p *acpPeer) initialize() map[string]any {
	p.t.Helper()
	return p.mustCall("initialize", map[string]any{"protocolVersion": 1,
		"clientCapabilities": map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true}}})
}
