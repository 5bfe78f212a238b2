package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// MaxMessage bounds one message a server sends (a line, an SSE event, a
// JSON body): a larger one is dropped unread.
const MaxMessage = 64 << 20

// cancelNoticeTimeout bounds the sending of one notifications/cancelled.
const cancelNoticeTimeout = 5 * time.Second

// ErrClosed is wrapped by the error of every call pending or made after
// the connection to the server ended.
var ErrClosed = errors.New("the connection to the MCP server is closed")

// JSON-RPC error codes the client sends.
const (
	CodeMethodNotFound = -32601
	CodeInternal       = -32603
)

// Error is an error answer from the server.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string {
	msg := Clean(e.Message, 2000)
	if msg == "" {
		msg = "error"
	}
	return msg + " (code " + strconv.Itoa(e.Code) + ")"
}

// Handler answers one request from the server; its result is sent as the
// answer, its error as an error answer.
type Handler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// Transport carries messages between a Client and one server.
type Transport interface {
	// Start begins reading what the server sends, handing every message to
	// r, until Close or the connection ends (then r.Lost is called once).
	Start(ctx context.Context, r Receiver) error
	// Send sends one message. id is the request's id when msg is a
	// request, "" otherwise. A transport that carries a request's answer
	// on the same exchange hands it to the Receiver before Send returns.
	Send(ctx context.Context, msg []byte, id string) error
	// Close ends the connection; pending reads end.
	Close() error
}

// Receiver takes what a transport reads.
type Receiver interface {
	// Receive takes one message; it returns the id of the request the
	// message answered, or "".
	Receive(msg []byte) (answered string)
	// Lost says the transport can carry nothing more.
	Lost(err error)
}

// Client is one JSON-RPC connection to a server.
type Client struct {
	t        Transport
	handle   Handler
	notify   func(method string, params json.RawMessage)
	nextID   atomic.Int64
	life     context.Context
	stopLife context.CancelFunc

	mu      sync.Mutex
	pending map[string]chan answer
	done    chan struct{}
	why     error
}

type answer struct {
	result json.RawMessage
	err    *Error
}

// Options are a Client's handlers; both may be nil.
type Options struct {
	// Handle answers the server's requests other than ping; nil answers
	// them "method not found".
	Handle Handler
	// Notify is told of each notification, in the order read, on the
	// reading goroutine: it must not block.
	Notify func(method string, params json.RawMessage)
}

// NewClient returns a client over t; Start starts it.
func NewClient(t Transport, o Options) *Client {
	return &Client{t: t, handle: o.Handle, notify: o.Notify, pending: map[string]chan answer{}, done: make(chan struct{})}
}

// Start starts the transport. The server's requests are handled under a
// context that Close ends.
func (c *Client) Start(ctx context.Context) error {
	c.life, c.stopLife = context.WithCancel(context.Background())
	if err := c.t.Start(ctx, c); err != nil {
		c.Lost(err)
		return err
	}
	return nil
}

// Close ends the connection and fails every pending call.
func (c *Client) Close() error {
	err := c.t.Close()
	c.Lost(nil)
	return err
}

// Done is closed once the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// Lost implements Receiver: every pending call fails with ErrClosed and
// why.
func (c *Client) Lost(why error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.done:
		return
	default:
	}
	c.why = ErrClosed
	if why != nil {
		c.why = fmt.Errorf("%w: %w", ErrClosed, why)
	}
	close(c.done)
	if c.stopLife != nil {
		c.stopLife()
	}
}

func (c *Client) closedErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.why
}

type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Call sends a request and decodes its result into out (when not nil). A
// call whose ctx ends first is followed by notifications/cancelled, except
// for initialize, which the protocol does not let a client cancel.
func (c *Client) Call(ctx context.Context, method string, params any, out any) error {
	select {
	case <-c.done:
		return c.closedErr()
	default:
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	id := c.nextID.Add(1)
	msg, err := json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("encode %s: %w", method, err)
	}
	key := strconv.FormatInt(id, 10)
	ch := make(chan answer, 1)
	c.mu.Lock()
	c.pending[key] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, key)
		c.mu.Unlock()
	}()
	sendErr := c.t.Send(ctx, msg, key)
	var a answer
	select {
	case a = <-ch:
	default:
		if sendErr != nil {
			c.cancelled(ctx, method, id)
			return sendErr
		}
		select {
		case a = <-ch:
		case <-ctx.Done():
			c.cancelled(ctx, method, id)
			return ctx.Err()
		case <-c.done:
			// An answer read just before the end still counts.
			select {
			case a = <-ch:
			default:
				return c.closedErr()
			}
		}
	}
	if a.err != nil {
		return a.err
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(a.result, out); err != nil {
		return fmt.Errorf("decode the answer to %s: %w", method, err)
	}
	return nil
}

// cancelled tells the server to stop working on request id, whose caller
// gave up on it. The caller has its error already and must not wait on a
// peer that does not read, so the notice goes in the background, bounded.
func (c *Client) cancelled(ctx context.Context, method string, id int64) {
	if ctx.Err() == nil || method == "initialize" {
		return
	}
	reason := ctx.Err().Error()
	go func() {
		nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelNoticeTimeout)
		defer cancel()
		_ = c.Notify(nctx, "notifications/cancelled", map[string]any{"requestId": id, "reason": reason})
	}()
}

// Notify sends a notification.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	select {
	case <-c.done:
		return c.closedErr()
	default:
	}
	msg, err := json.Marshal(notification{JSONRPC: "2.0", Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("encode %s: %w", method, err)
	}
	return c.t.Send(ctx, msg, "")
}

// message is any JSON-RPC message, decoded once.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

// Receive implements Receiver.
func (c *Client) Receive(b []byte) string {
	var m message
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	id := idKey(m.ID)
	switch {
	case m.Method != "" && id == "":
		if c.notify != nil {
			c.notify(m.Method, m.Params)
		}
	case m.Method != "":
		go c.answer(m.ID, m.Method, m.Params)
	case id != "":
		if m.Result == nil && m.Error == nil {
			return ""
		}
		c.mu.Lock()
		ch := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if ch == nil {
			return "" // an answer to nothing asked, or asked twice
		}
		ch <- answer{result: m.Result, err: m.Error}
		return id
	}
	return ""
}

// answer runs the handler for one server request and sends its answer.
func (c *Client) answer(id json.RawMessage, method string, params json.RawMessage) {
	ctx := c.life
	if ctx == nil {
		ctx = context.Background()
	}
	res := response{JSONRPC: "2.0", ID: id}
	var result any
	var err error
	switch {
	case method == "ping":
		result = struct{}{}
	case c.handle == nil:
		err = &Error{Code: CodeMethodNotFound, Message: "method not found: " + method}
	default:
		result, err = c.safeHandle(ctx, method, params)
	}
	var rpcErr *Error
	switch {
	case errors.As(err, &rpcErr):
		res.Error = rpcErr
	case err != nil:
		res.Error = &Error{Code: CodeInternal, Message: err.Error()}
	default:
		res.Result = result
	}
	msg, merr := json.Marshal(res)
	if merr != nil {
		msg, _ = json.Marshal(response{JSONRPC: "2.0", ID: id, Error: &Error{Code: CodeInternal, Message: "encode the answer: " + merr.Error()}})
	}
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	_ = c.t.Send(sctx, msg, "")
}

// safeHandle runs the handler, turning a panic into an error answer: a
// server's odd request must not end llmrt.
func (c *Client) safeHandle(ctx context.Context, method string, params json.RawMessage) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal error handling %s", method)
		}
	}()
	return c.handle(ctx, method, params)
}

// idKey is the key an id is matched by: its JSON text, "" for none or
// null. Our ids are integers; a server that echoes one as a string
// ("7") is matched too.
func idKey(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if _, err := strconv.ParseInt(s, 10, 64); err == nil {
				return s
			}
		}
	}
	return string(raw)
}

// Clean makes text from a server safe to show: control characters (and
// so escape sequences) become spaces, and it is cut to at most max bytes.
func Clean(s string, max int) string {
	if len(s) > max {
		s = s[:max] + "…"
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}
