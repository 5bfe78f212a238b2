package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"

	acp "github.com/coder/acp-go-sdk"
	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/catalog"
)

// acpOptions are the dependencies and flag values of `llmrt acp`.
type acpOptions struct {
	f       *Factory
	options config.Layer
}

func newACPCmd(f *Factory, runF func(*acpOptions) error) *cobra.Command {
	opts := &acpOptions{f: f}
	cmd := &cobra.Command{
		Use:   "acp",
		Short: "Serve editors as an Agent Client Protocol agent on stdio",
		Long: `Serve an editor (Zed, JetBrains, Neovim, Emacs) as an Agent Client Protocol
(ACP v1) agent: JSON-RPC 2.0 messages, one per line, on stdin and stdout.
Logs and warnings go to stderr.

Each editor session is an llmrt session: a chat started in the editor can be
resumed in the terminal (llmrt chat --resume ID) and the other way round.
Flags set the defaults of every session (provider, model, permission mode);
the editor's working directory picks the project configuration.`,
		Example: `  llmrt acp
  llmrt acp --provider anthropic --model claude-sonnet-4-5 --permission ask`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runACP(cmd.Context(), opts)
		},
	}
	config.RegisterFlags(cmd.Flags(), &opts.options)
	return cmd
}

// runACP serves the client on stdin and stdout until it goes away or the
// process is told to stop; every session's turn is cancelled and its
// conversation closed before it returns.
func runACP(ctx context.Context, opts *acpOptions) error {
	a := &acpAgent{f: opts.f, flags: opts.options, sessions: map[string]*acpSession{}}
	// The connection starts reading at once; the gate holds its first
	// read until the connection is set up, so no request is served before.
	in := &gatedReader{r: opts.f.IO.In, open: make(chan struct{})}
	a.conn = acp.NewAgentSideConnection(a, opts.f.IO.Out, in)
	// The connection's own diagnostics go to stderr, the editor's log,
	// from warnings up.
	a.conn.SetLogger(slog.New(slog.NewTextHandler(opts.f.secrets.writer(opts.f.IO.ErrOut), &slog.HandlerOptions{Level: slog.LevelWarn})))
	close(in.open)
	select {
	case <-a.conn.Done():
	case <-ctx.Done():
	}
	a.closeAll()
	return nil
}

// gatedReader reads r once open is closed.
type gatedReader struct {
	r    io.Reader
	open chan struct{}
}

func (g *gatedReader) Read(b []byte) (int, error) {
	<-g.open
	return g.r.Read(b)
}

// acpAgent answers the client's requests: it holds the connection and the
// sessions opened on it.
type acpAgent struct {
	f     *Factory
	flags config.Layer
	conn  *acp.AgentSideConnection

	mu       sync.Mutex
	client   acp.ClientCapabilities
	sessions map[string]*acpSession
}

var (
	_ acp.Agent       = (*acpAgent)(nil)
	_ acp.AgentLoader = (*acpAgent)(nil)
)

// Initialize says what llmrt offers: loading and listing sessions,
// images and embedded context in prompts, and the provider keys it reads
// as its ways to authenticate. It does no IO, so an editor starts it
// fast.
func (a *acpAgent) Initialize(_ context.Context, req acp.InitializeRequest) (acp.InitializeResponse, error) {
	a.mu.Lock()
	a.client = req.ClientCapabilities
	a.mu.Unlock()
	return acp.InitializeResponse{
		ProtocolVersion: acp.ProtocolVersionNumber,
		AgentInfo:       &acp.Implementation{Name: "llmrt", Title: acp.Ptr("llmrt"), Version: Version()},
		AgentCapabilities: acp.AgentCapabilities{
			LoadSession:         true,
			McpCapabilities:     acp.McpCapabilities{Http: true, Sse: true},
			PromptCapabilities:  acp.PromptCapabilities{Image: true, EmbeddedContext: true},
			SessionCapabilities: acp.SessionCapabilities{List: &acp.SessionListCapabilities{}, Close: &acp.SessionCloseCapabilities{}},
		},
		AuthMethods: authMethods(),
	}, nil
}

// authMethods are the provider keys llmrt reads from its environment.
func authMethods() []acp.AuthMethod {
	var out []acp.AuthMethod
	for _, name := range catalog.Names() {
		spec, _ := catalog.Lookup(name)
		if len(spec.KeyVars) == 0 || spec.KeyOptional {
			continue
		}
		desc := fmt.Sprintf("Set %s in llmrt's environment (or a .env file, or llmrt's config) and restart the agent.", spec.KeyVars[0])
		out = append(out, acp.AuthMethod{Agent: &acp.AuthMethodAgent{Id: name, Name: spec.KeyVars[0], Description: &desc}})
	}
	return out
}

// Authenticate checks that the key of the method chosen is set: llmrt
// reads keys from its environment, so there is nothing to log in to.
func (a *acpAgent) Authenticate(_ context.Context, req acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	spec, ok := catalog.Lookup(req.MethodId)
	if !ok {
		return acp.AuthenticateResponse{}, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("unknown auth method %q; use a provider name from initialize", req.MethodId)})
	}
	if !catalog.HasKey(spec.Name, a.f.Getenv) {
		return acp.AuthenticateResponse{}, acp.NewAuthRequired(map[string]any{"error": fmt.Sprintf("%s is not set: set it in the agent's environment and restart it", spec.KeyVars[0])})
	}
	return acp.AuthenticateResponse{}, nil
}

// capabilities returns what the client said it offers.
func (a *acpAgent) capabilities() acp.ClientCapabilities {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.client
}

// session returns an open session by id.
func (a *acpAgent) session(id acp.SessionId) (*acpSession, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.sessions[string(id)]
	if !ok {
		return nil, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("no open session %q: create it with session/new or open it with session/load", id)})
	}
	return s, nil
}

// checkCwd refuses a working directory that is not absolute, as ACP
// requires.
func checkCwd(cwd string) error {
	if !filepath.IsAbs(cwd) {
		return acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("cwd %q is not an absolute path; send the project's absolute path", cwd)})
	}
	return nil
}

// NewSession opens a new conversation in the client's directory. Its id
// is the llmrt session id the conversation is saved under from its first
// prompt.
func (a *acpAgent) NewSession(ctx context.Context, req acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	if err := checkCwd(req.Cwd); err != nil {
		return acp.NewSessionResponse{}, err
	}
	s, err := a.open(ctx, req.Cwd, "", req.McpServers)
	if err != nil {
		return acp.NewSessionResponse{}, err
	}
	return acp.NewSessionResponse{SessionId: acp.SessionId(s.id), Modes: s.modes()}, nil
}

// LoadSession opens a saved llmrt session, replaying its conversation to
// the client as updates before it answers.
func (a *acpAgent) LoadSession(ctx context.Context, req acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	if err := checkCwd(req.Cwd); err != nil {
		return acp.LoadSessionResponse{}, err
	}
	if _, err := a.session(req.SessionId); err == nil {
		return acp.LoadSessionResponse{}, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("session %s is already open on this connection", req.SessionId)})
	}
	s, err := a.open(ctx, req.Cwd, string(req.SessionId), req.McpServers)
	if err != nil {
		return acp.LoadSessionResponse{}, err
	}
	if err := s.replay(ctx); err != nil {
		return acp.LoadSessionResponse{}, err
	}
	return acp.LoadSessionResponse{Modes: s.modes()}, nil
}

// open opens a session, new (resume "") or saved, and registers it.
func (a *acpAgent) open(ctx context.Context, cwd, resume string, servers []acp.McpServer) (*acpSession, error) {
	s, err := openACPSession(ctx, a, cwd, resume, servers)
	if err != nil {
		return nil, acpError(err)
	}
	a.mu.Lock()
	a.sessions[s.id] = s
	a.mu.Unlock()
	go s.announceCommands(context.WithoutCancel(ctx))
	return s, nil
}

// ListSessions lists llmrt's saved sessions, those of cwd when it is
// given, newest first.
func (a *acpAgent) ListSessions(ctx context.Context, req acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	sums, err := a.f.Sessions().ListContext(ctx)
	if err != nil {
		return acp.ListSessionsResponse{}, acpError(err)
	}
	out := acp.ListSessionsResponse{Sessions: []acp.SessionInfo{}}
	for i := len(sums) - 1; i >= 0; i-- {
		sum := sums[i]
		if req.Cwd != nil && filepath.Clean(*req.Cwd) != filepath.Clean(sum.WorkDir) {
			continue
		}
		info := acp.SessionInfo{SessionId: acp.SessionId(sum.ID), Cwd: sum.WorkDir,
			UpdatedAt: acp.Ptr(sum.Updated.UTC().Format("2006-01-02T15:04:05Z"))}
		if sum.Title != "" {
			info.Title = acp.Ptr(sum.Title)
		}
		out.Sessions = append(out.Sessions, info)
	}
	return out, nil
}

// Prompt runs one turn of a session.
func (a *acpAgent) Prompt(ctx context.Context, req acp.PromptRequest) (acp.PromptResponse, error) {
	s, err := a.session(req.SessionId)
	if err != nil {
		return acp.PromptResponse{}, err
	}
	return s.prompt(ctx, req.Prompt)
}

// Cancel needs nothing of its own: the connection cancels the running
// prompt's context, which stops the turn, and the client answers any
// permission request pending as cancelled.
func (a *acpAgent) Cancel(context.Context, acp.CancelNotification) error { return nil }

// SetSessionMode switches a session's permission mode for its next calls.
func (a *acpAgent) SetSessionMode(ctx context.Context, req acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	s, err := a.session(req.SessionId)
	if err != nil {
		return acp.SetSessionModeResponse{}, err
	}
	if err := s.setMode(ctx, string(req.ModeId)); err != nil {
		return acp.SetSessionModeResponse{}, err
	}
	return acp.SetSessionModeResponse{}, nil
}

// CloseSession closes one session.
func (a *acpAgent) CloseSession(_ context.Context, req acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	a.mu.Lock()
	s, ok := a.sessions[string(req.SessionId)]
	delete(a.sessions, string(req.SessionId))
	a.mu.Unlock()
	if ok {
		s.close()
	}
	return acp.CloseSessionResponse{}, nil
}

// ResumeSession is not offered (session/load is).
func (a *acpAgent) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionResume)
}

// SetSessionConfigOption is not offered: llmrt announces no config options.
func (a *acpAgent) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetConfigOption)
}

// closeAll closes every session, waiting for running turns.
func (a *acpAgent) closeAll() {
	a.mu.Lock()
	all := a.sessions
	a.sessions = map[string]*acpSession{}
	a.mu.Unlock()
	for _, s := range all {
		s.close()
	}
}

// acpError is err as the client is told it: the message and hint a
// person would see on the command line.
func acpError(err error) error {
	var re *acp.RequestError
	if errors.As(err, &re) {
		return re
	}
	_, msg, hint := classify(err)
	data := map[string]any{"error": msg}
	if hint != "" {
		data["hint"] = hint
	}
	var se *providers.SetupError
	if errors.As(err, &se) || errors.Is(err, errNoProvider) {
		return acp.NewAuthRequired(data)
	}
	return acp.NewInternalError(data)
}
