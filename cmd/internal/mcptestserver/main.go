// Command mcptestserver is a small stdio MCP server for llmrt's tests:
// get-sum (marked read-only), fail (an isError result), image, and elicit
// (asks the person for a name and an age, and returns the answer), and
// crash (says MCPTEST_TOKEN on stderr and exits with status 3). With
// MCPTEST_IGNORE_TERM=1 it ignores SIGTERM and outlives its stdin, as a
// badly behaved server would (MCPTEST_TERMFILE receives when SIGTERM
// came); MCPTEST_PIDFILE receives its pid. With
// MCPTEST_RESOURCES=1 it also has resources (res://x, and res://big of
// 600 KB) and a prompt (greet, with a required name and an optional
// style).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	stubborn := os.Getenv("MCPTEST_IGNORE_TERM") == "1"
	if stubborn {
		// SIGTERM is noted, never obeyed: MCPTEST_TERMFILE receives the
		// time the first one came, in Unix nanoseconds (a client closing
		// the server's input may send another a grace later).
		terms := make(chan os.Signal, 1)
		signal.Notify(terms, syscall.SIGTERM)
		go func() {
			first := true
			for range terms {
				if f := os.Getenv("MCPTEST_TERMFILE"); f != "" && first {
					_ = os.WriteFile(f, []byte(strconv.FormatInt(time.Now().UnixNano(), 10)), 0o644)
				}
				first = false
			}
		}()
	}
	if f := os.Getenv("MCPTEST_PIDFILE"); f != "" {
		_ = os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o644)
	}
	opts := []server.ServerOption{server.WithToolCapabilities(true), server.WithElicitation()}
	extras := os.Getenv("MCPTEST_RESOURCES") == "1"
	if extras {
		opts = append(opts, server.WithResourceCapabilities(false, false), server.WithPromptCapabilities(false))
	}
	s := server.NewMCPServer("mcptest", "1.0", opts...)
	if extras {
		addResourcesAndPrompts(s)
	}
	s.AddTool(mcp.NewTool("get-sum", mcp.WithDescription("Returns the sum of two numbers."), mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, b := req.GetFloat("a", 0), req.GetFloat("b", 0)
			return mcp.NewToolResultText(fmt.Sprintf("The sum of %v and %v is %v.", a, b, a+b)), nil
		})
	s.AddTool(mcp.NewTool("fail", mcp.WithDescription("Always fails.")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("the widget is jammed"), nil
		})
	s.AddTool(mcp.NewTool("image", mcp.WithDescription("Returns a tiny PNG.")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			png := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
			return mcp.NewToolResultImage("a dot", png, "image/png"), nil
		})
	s.AddTool(mcp.NewTool("elicit", mcp.WithDescription("Asks the person who they are.")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			er := mcp.ElicitationRequest{}
			er.Params.Message = "Who is at the keyboard?"
			er.Params.RequestedSchema = json.RawMessage(`{"type":"object","properties":{
				"name":{"type":"string","title":"Name","description":"Your name"},
				"age":{"type":"integer","title":"Age","default":36}},"required":["name"]}`)
			res, err := server.ServerFromContext(ctx).RequestElicitation(ctx, er)
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			b, _ := json.Marshal(res)
			return mcp.NewToolResultText("elicitation result: " + string(b)), nil
		})
	s.AddTool(mcp.NewTool("crash", mcp.WithDescription("Exits with status 3.")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintf(os.Stderr, "fatal: out of widgets (token %s)\n", os.Getenv("MCPTEST_TOKEN"))
			os.Exit(3)
			return nil, nil
		})
	_ = server.ServeStdio(s)
	if stubborn {
		time.Sleep(time.Hour)
	}
}

// addResourcesAndPrompts gives s a text resource and a prompt.
func addResourcesAndPrompts(s *server.MCPServer) {
	s.AddResource(mcp.NewResource("res://x", "x", mcp.WithMIMEType("text/plain"), mcp.WithResourceDescription("a test resource")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "RESOURCE-TEXT-9921"}}, nil
		})
	s.AddResource(mcp.NewResource("res://big", "big", mcp.WithMIMEType("text/plain")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, Text: strings.Repeat("0123456789\n", 600_000/11)}}, nil
		})
	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithPromptDescription("Greets someone by name"),
		mcp.WithArgument("name", mcp.RequiredArgument()), mcp.WithArgument("style")),
		func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			style := req.Params.Arguments["style"]
			if style == "" {
				style = "warmly"
			}
			text := fmt.Sprintf("Greet %s %s, in one line.", req.Params.Arguments["name"], style)
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(text))}}, nil
		})
}
