package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/cmd/config"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// runOptions are the dependencies and flag values of `llmrt run`.
type runOptions struct {
	f       *Factory
	cmd     *cobra.Command
	options config.Layer
	attach  []string

	prompt      string
	args        []string
	output      string
	session     sessionFlags
	answers     []string
	answersJSON string
	jsonSchema  string
	inputFormat string
}

func newRunCmd(f *Factory, runF func(*runOptions) error) *cobra.Command {
	opts := &runOptions{f: f}
	cmd := &cobra.Command{
		Use:   "run [prompt...]",
		Short: "Run one task and print the answer",
		Long: `Run one task through the model/tool loop and print the final answer on stdout.

The prompt comes from -p, the arguments, or stdin. When a prompt is given and
stdin is piped, stdin is attached below the prompt as context. Progress goes to
stderr when it is a terminal (or with --verbose); stdout carries the answer only.

Exit codes: 0 completed, 1 failed, 2 usage or configuration error, 3 paused for
input (resume with --resume ID --answer QUESTION=OPTION), 4 iteration limit,
130 interrupted.`,
		Example: `  llmrt run --provider scripted --model examples/hello.json -p "Summarise README.md"
  git diff | llmrt run -p "Write a commit message for this diff"
  llmrt run --output json -p "List the Go packages here" | jq .output
  llmrt run --resume 20261122-101500-ab12cd --answer lang=go
  llmrt run --json-schema schema.json -p "Extract the authors of CITATION.cff" | jq .
  my-program | llmrt run --input-format stream-json -o stream-json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.cmd, opts.args = cmd, args
			if runF != nil {
				return runF(opts)
			}
			return runRun(cmd.Context(), opts)
		},
	}
	fs := cmd.Flags()
	config.RegisterFlags(fs, &opts.options)
	fs.StringArrayVar(&opts.attach, "attach", nil, "attach a file (PNG, JPEG, GIF, WebP, PDF or text); repeatable")
	fs.StringVarP(&opts.prompt, "prompt", "p", "", "the prompt")
	fs.StringVarP(&opts.output, "output", "o", "text", "output format: text, json or stream-json")
	opts.session.register(fs, "run")
	fs.StringArrayVar(&opts.answers, "answer", nil, "answer a pending question: QUESTION=OPTION[,OPTION...]; repeatable")
	fs.StringVar(&opts.answersJSON, "answers", "", `answers as JSON: {"answers":{"q":"opt"},"other":{"q":"text"},"skipped":false}`)
	fs.StringVar(&opts.inputFormat, "input-format", inputText, "input format: text, or stream-json (user messages, answers and permission decisions as JSON lines on stdin; needs -o stream-json)")
	fs.StringVar(&opts.jsonSchema, "json-schema", "", "make the answer a JSON value valid against this JSON Schema (a file, or inline JSON starting with '{')")
	completeShared(cmd, f)
	return cmd
}

// runRun does the work of `llmrt run`: one turn of a conversation, new
// or resumed, to one terminal event.
func runRun(ctx context.Context, opts *runOptions) error {
	if err := opts.checkInputFormat(); err != nil {
		return err
	}
	schema, err := answerSchema(opts.jsonSchema)
	if err != nil {
		return err
	}
	h, sess, err := opts.f.openHost(ctx, opts.options, opts.session, opts.output == "stream-json")
	if err != nil {
		return err
	}
	defer h.hold(nil)
	out, err := newOutput(opts.output, h)
	if err != nil {
		return err
	}
	if h.s.verbose && !h.s.quiet {
		printInstructionFiles(h.errOut, h.s.projectDocs)
	}
	rt, err := h.runtime(opts.f.HTTPClient)
	if err != nil {
		return err
	}
	defer rt.Close()
	h.askMCP(func() ui.Prompter { return h.forms })
	progress := h.progress()
	if err := h.checkStrict(ctx, rt, progress != nil); err != nil {
		return err
	}
	// Every input is checked before the conversation is opened, so a bad
	// answer leaves the session untouched.
	turn := h.turn(rt, h.forms, h.printNotes(out.event, progress == nil))
	turn.Request.AnswerSchema = schema
	if so, ok := out.(*streamOutput); ok && opts.inputFormat == inputStreamJSON {
		return opts.converse(ctx, h, sess, turn, so)
	}
	typed, err := opts.promptText()
	if err != nil {
		return err
	}
	command, err := opts.command(ctx, h, typed)
	if err != nil {
		return err
	}
	if command != nil {
		command.apply(&turn.Request)
	}
	if turn.Answers, turn.Prompt, turn.Title, err = opts.input(ctx, h, sess, typed, command); err != nil {
		return err
	}
	conv, err := h.conversation(sess)
	if err != nil {
		return err
	}
	defer conv.Close()
	if so, ok := out.(*streamOutput); ok {
		so.sessionID = conv.ID
	}
	h.wireHooks(conv.ID)
	if h.checkpoints != nil {
		h.checkpoints.wire(conv.ID, conv.Messages)
	}
	defer h.endHooks("other")
	if err := h.promptHooks(ctx, &turn, ""); err != nil {
		return err
	}
	res, err := conv.Turn(ctx, turn)
	if err != nil {
		return err
	}
	// A session that could not be written whole is not offered for
	// resuming: the command would fail.
	saved := conv.Resumable()
	info := runInfo{sessionID: saved, diagnostics: diagnostics(res.Result), sandbox: string(h.s.sandbox.Mode)}
	if res.Status == engine.StatusToolCalls {
		info.pending = pendingItems(parsePending(res.PendingCalls))
		if opts.output == "text" || opts.output == "" {
			printPending(h.errOut, saved, info.pending)
		}
	}
	// An answer whose reader went away once it had what it wanted
	// (llmrt run | head -1) is not a failure.
	if err := out.done(res.Result, info); err != nil && !errors.Is(err, syscall.EPIPE) {
		return err
	}
	if progress == nil && !h.s.quiet {
		printDenials(h.errOut, res.Warnings)
	}
	// The reader of the answer went away once it had begun to read it
	// (llmrt run | head -1): it had what it wanted.
	var sig errSignal
	if t, ok := out.(*textOutput); ok && errors.As(res.Cause, &sig) && sig.sig == syscall.SIGPIPE && t.printed.Len() > 0 {
		return nil
	}
	return resultError(h.s, res.Result, res.Cause, saved)
}

// printNotes passes events on to sink; when nothing else shows them
// (print), the conversation's notes (a session that cannot be written)
// are also printed on stderr as warnings.
func (h *cmdHost) printNotes(sink engine.Sink, print bool) engine.Sink {
	if !print {
		return sink
	}
	return func(ev engine.Event) {
		if ev.Type == engine.EventWarning && ev.Warning.Code == host.NoteCode && ev.ParentID == "" {
			h.warnf("%s", ev.Warning.Message)
		}
		sink(ev)
	}
}

// request turns settings into an engine request; the conversation adds
// the messages.
func (s *settings) request() engine.Request {
	provider, model := s.provider, s.model
	if s.permission.Mode == engine.ModePlan && s.planModel != "" {
		// Planning turns run on plan_model; the others on the model in
		// use. The runtime opens another provider as it does an agent's,
		// with that provider's own key and endpoint.
		provider, model = s.planProvider, s.planModel
		if provider == "" {
			provider = s.provider
		}
	}
	return engine.Request{
		Provider: provider, Model: model,
		Temperature: s.temperature, MaxTokens: s.maxTokens, ReasoningEffort: s.effort,
		WebSearch: s.webSearch, BuiltIns: s.builtIns, WorkDir: s.workDir,
		Permission: s.permission, MaxIterations: s.maxIter, TokenBudget: s.budget, Finish: s.finish,
		Diagnostics: s.engineDiagnostics(), ContextWindow: s.contextWindow, MaxResultBytes: deref(s.cfg.MaxResultBytes),
		Environment: &s.env,
	}
}

// engineDiagnostics hands the command's diagnostics to the engine, which
// reports them with its own in Result.Diagnostics.
func (s *settings) engineDiagnostics() []engine.Diagnostic {
	out := make([]engine.Diagnostic, len(s.diagnostics))
	for i, d := range s.diagnostics {
		out[i] = engine.Diagnostic{Message: d}
	}
	return out
}

// toolOptions configures the built-ins from settings.
func (s *settings) toolOptions() tools.Options {
	return tools.Options{
		WebFetch: tools.WebFetchOptions{AllowPrivate: s.allowPrivateWeb},
		Shell:    tools.ShellOptions{Sandbox: s.sandbox, EnvPolicy: s.shellEnv, Protected: config.ControlFiles()},
	}
}

// printDenials tells a non-interactive user which calls were denied for
// want of approval and how to allow them; progress already showed them on
// a terminal.
func printDenials(w io.Writer, warnings []engine.Warning) {
	w = ui.NewTextWriter(w) // the calls quote the model
	for _, wn := range warnings {
		if wn.Code == "permission_denied" && wn.Rule != "" {
			fmt.Fprintf(w, "llmrt: %s\nhint: allow it with --allow '%s' or --permission auto\n", wn.Message, wn.Rule)
		}
	}
}
