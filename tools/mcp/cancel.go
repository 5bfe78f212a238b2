package mcp

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// cancelNoticeTimeout bounds the sending of one notifications/cancelled.
const cancelNoticeTimeout = 5 * time.Second

// cancelling wraps an HTTP or SSE transport so that a request its caller
// gave up on (a call timeout, a cancelled run) is followed by
// notifications/cancelled, as the protocol asks of a client. mcp-go sends
// that notification itself over stdio only; over HTTP, on the protocol
// revisions llmrt speaks, the server would go on working for nobody.
//
// It forwards the optional interfaces mcp-go looks for (the protocol
// version header, server-to-client requests, connection loss), so the
// client behaves as it does with the bare transport.
type cancelling struct {
	transport.Interface
}

func (t cancelling) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	res, err := t.Interface.SendRequest(ctx, req)
	if err != nil && ctx.Err() != nil && req.Method != string(mcp.MethodInitialize) {
		// The caller has its error already and must not wait on a peer
		// that does not read; the notice is best effort and bounded.
		go func(reason string) {
			nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelNoticeTimeout)
			defer cancel()
			_ = t.Interface.SendNotification(nctx, cancelledNotice(req.ID, reason))
		}(ctx.Err().Error())
	}
	return res, err
}

// cancelledNotice is the notifications/cancelled for request id.
func cancelledNotice(id mcp.RequestId, reason string) mcp.JSONRPCNotification {
	return mcp.JSONRPCNotification{
		JSONRPC: mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{
			Method: string(mcp.MethodNotificationCancelled),
			Params: mcp.NotificationParams{AdditionalFields: map[string]any{"requestId": id, "reason": reason}},
		},
	}
}

func (t cancelling) SetProtocolVersion(v string) {
	if h, ok := t.Interface.(transport.HTTPConnection); ok {
		h.SetProtocolVersion(v)
	}
}

func (t cancelling) SetRequestHandler(h transport.RequestHandler) {
	if b, ok := t.Interface.(transport.BidirectionalInterface); ok {
		b.SetRequestHandler(h)
	}
}

func (t cancelling) SetConnectionLostHandler(h func(error)) {
	if s, ok := t.Interface.(interface{ SetConnectionLostHandler(func(error)) }); ok {
		s.SetConnectionLostHandler(h)
	}
}
