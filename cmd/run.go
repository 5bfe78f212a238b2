package cmd

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/cmd/config"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/tools"
)

// runOptions are the dependencies and flag values of `llmrt run`.
type runOptions struct {
	f      *Factory
	cmd    *cobra.Command
	shared sharedFlags

	prompt      string
	args        []string
	output      string
	session     sessionFlags
	answers     []string
	answersJSON string
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
  llmrt run --resume 20261122-101500-ab12cd --answer lang=go`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.cmd, opts.args = cmd, args
			if runF != nil {
				return runF(opts)
			}
			return runRun(cmd.Context(), opts)
		},
	}
	fs := cmd.Flags()
	opts.shared.register(fs)
	fs.StringVarP(&opts.prompt, "prompt", "p", "", "the prompt")
	fs.StringVarP(&opts.output, "output", "o", "text", "output format: text, json or stream-json")
	opts.session.register(fs, "run")
	fs.StringArrayVar(&opts.answers, "answer", nil, "answer a pending question: QUESTION=OPTION[,OPTION...]; repeatable")
	fs.StringVar(&opts.answersJSON, "answers", "", `answers as JSON: {"answers":{"q":"opt"},"other":{"q":"text"},"skipped":false}`)
	completeShared(cmd, f)
	return cmd
}

// runRun does the work of `llmrt run`: one run, from a new prompt or a
// resumed session, to one terminal event.
func runRun(ctx context.Context, opts *runOptions) error {
	h, sess, err := opts.host(ctx)
	if err != nil {
		return err
	}
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
	h.diagnosticsShown = h.progress() != nil
	if err := h.checkStrict(ctx, rt, h.s.request(nil)); err != nil {
		return err
	}
	msgs, rec, err := opts.start(ctx, h, sess)
	if err != nil {
		return err
	}
	defer rec.close()
	if so, ok := out.(*streamOutput); ok {
		so.sessionID = rec.id
	}
	res, cause, err := h.run(ctx, rt, h.s.request(msgs), rec, out.event)
	if err != nil {
		return err
	}
	// A session that could not be written whole is not offered for
	// resuming: the command would fail.
	saved := rec.resumable()
	info := runInfo{sessionID: saved, diagnostics: diagnostics(res), sandbox: string(h.s.sandbox.Mode)}
	if res.Status == engine.StatusToolCalls {
		info.pending = pendingItems(parsePending(res.PendingCalls))
		if opts.output == "text" || opts.output == "" {
			printPending(h.errOut, saved, info.pending)
		}
	}
	if err := out.done(res, info); err != nil {
		return err
	}
	if h.progress() == nil && !h.s.quiet {
		printDenials(h.errOut, res.Warnings)
	}
	return resultError(h.s, res, cause, saved)
}

// host resolves the settings and returns the host for the run, with the
// session to resume, if any.
func (opts *runOptions) host(ctx context.Context) (*host, *session.Session, error) {
	h, sess, err := opts.f.openHost(ctx, opts.cmd, &opts.shared, opts.session)
	if err != nil {
		return nil, nil, err
	}
	h.noQuestions = opts.output == "stream-json"
	return h, sess, nil
}

// request turns settings into an engine request over msgs.
func (s *settings) request(msgs []engine.Message) engine.Request {
	return engine.Request{
		Provider: s.provider, Model: s.model, Messages: msgs,
		Temperature: s.temperature, MaxTokens: s.maxTokens, ReasoningEffort: s.effort,
		WebSearch: s.webSearch, BuiltIns: s.builtIns, WorkDir: s.workDir,
		Permission: s.permission, MaxIterations: s.maxIter, TokenBudget: s.budget, Finish: s.finish,
		Diagnostics: s.engineDiagnostics(), ContextWindow: s.contextWindow,
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
	for _, wn := range warnings {
		if wn.Code == "permission_denied" && wn.Rule != "" {
			fmt.Fprintf(w, "llmrt: %s\nhint: allow it with --allow '%s' or --permission auto\n", wn.Message, wn.Rule)
		}
	}
}
