package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/catalog"
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
	resume      string
	cont        bool
	noSession   bool
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
	fs.StringVar(&opts.resume, "resume", "", "continue a saved session by id")
	fs.BoolVarP(&opts.cont, "continue", "c", false, "continue the most recent session of this directory")
	fs.BoolVar(&opts.noSession, "no-session", false, "do not save this run as a session")
	fs.StringArrayVar(&opts.answers, "answer", nil, "answer a pending question: QUESTION=OPTION[,OPTION...]; repeatable")
	fs.StringVar(&opts.answersJSON, "answers", "", `answers as JSON: {"answers":{"q":"opt"},"other":{"q":"text"},"skipped":false}`)
	return cmd
}

// runRun does the work of `llmrt run`.
func runRun(ctx context.Context, opts *runOptions) error {
	o := opts.f.IO
	if opts.resume != "" && opts.cont {
		return usageErrorf("--resume and --continue cannot be combined")
	}
	dir, err := workDir(opts.shared.cwd)
	if err != nil {
		return err
	}
	sess, err := opts.loadSession(dir)
	if err != nil {
		return err
	}
	var resumed *session.Meta
	if sess != nil {
		resumed = &sess.Meta
	}
	s, err := opts.f.resolveSettings(ctx, opts.cmd, &opts.shared, true, resumed)
	if err != nil {
		return err
	}
	if opts.shared.strict && len(s.diagnostics) > 0 {
		return usageErrorf("--strict: %s", strings.Join(s.diagnostics, "; "))
	}
	prog := opts.progress()
	if !opts.shared.quiet {
		for _, d := range s.diagnostics {
			fmt.Fprintf(o.ErrOut, "llmrt: warning: %s\n", d)
		}
	}
	out, err := newOutput(opts.output, o, prog, o.OutTTY && o.Color && !opts.shared.noColor)
	if err != nil {
		return err
	}
	conv, err := opts.conversation(ctx, s, sess)
	if err != nil {
		return err
	}
	defer conv.close()
	if so, ok := out.(*streamOutput); ok {
		so.sessionID = conv.id
	}
	rt, err := opts.runtime(s)
	if err != nil {
		return err
	}
	defer rt.Close()
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	req := s.request(conv.messages)
	if err := checkRules(ctx, o.ErrOut, &opts.shared, s, rt, req); err != nil {
		return err
	}
	req.Permission.Approver = opts.approver(s)
	observe := func(ev engine.Event) {
		out.event(ev)
		conv.record(ev)
	}
	var res engine.Result
	for {
		res, err = rt.CompleteWith(ctx, req, observe)
		if err != nil {
			return err
		}
		if res.Status != engine.StatusToolCalls || !opts.canAsk() {
			break
		}
		answers, err := opts.askInteractive(ctx, res.PendingCalls)
		if err != nil {
			return err
		}
		req.Messages = append(res.Messages, answers...)
		conv.add(answers...)
	}
	info := runInfo{sessionID: conv.id, diagnostics: s.diagnostics}
	if res.Status == engine.StatusToolCalls {
		info.pending = pendingItems(res.PendingCalls)
		if opts.output == "text" || opts.output == "" {
			printPending(o.ErrOut, conv.id, info.pending)
		}
	}
	if err := out.done(res, info); err != nil {
		return err
	}
	if prog == nil && !opts.shared.quiet {
		printDenials(o.ErrOut, res.Warnings)
	}
	return resultError(ctx, s, res)
}

// canAsk reports whether questions can be put to a person: on a terminal,
// unless the output is a stream of events for a program.
func (opts *runOptions) canAsk() bool {
	return opts.f.IO.Interactive() && opts.output != "stream-json"
}

func (opts *runOptions) progress() *progress {
	io := opts.f.IO
	if opts.shared.quiet || !(io.ErrTTY || opts.shared.verbose) {
		return nil
	}
	return &progress{w: io.ErrOut, color: io.ErrTTY && !opts.shared.noColor && opts.f.Getenv("NO_COLOR") == "", verbose: opts.shared.verbose}
}

// runtime builds the provider and the engine runtime.
func (opts *runOptions) runtime(s *settings) (*engine.Runtime, error) {
	b := s.backend
	b.HTTPClient = opts.f.HTTPClient
	p, err := catalog.New(s.provider, b)
	if err != nil {
		return nil, err
	}
	return engine.New(engine.Config{
		Providers: map[string]providers.Provider{s.provider: p},
		Tools:     s.toolOptions(),
	})
}

// request turns settings into an engine request over msgs.
func (s *settings) request(msgs []engine.Message) engine.Request {
	return engine.Request{
		Provider: s.provider, Model: s.model, Messages: msgs,
		Temperature: s.temperature, MaxTokens: s.maxTokens, ReasoningEffort: s.effort,
		WebSearch: s.webSearch, BuiltIns: s.builtIns, WorkDir: s.workDir,
		Permission: s.permission, MaxIterations: s.maxIter, TokenBudget: s.budget, Finish: s.finish,
	}
}

// toolOptions configures the built-ins from settings.
func (s *settings) toolOptions() tools.Options {
	return tools.Options{WebFetch: tools.WebFetchOptions{AllowPrivate: s.allowPrivateWeb}}
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

// resultError maps a finished run to its exit code and message.
func resultError(ctx context.Context, s *settings, res engine.Result) error {
	msg := ""
	if res.Error != nil {
		msg = res.Error.Message
	}
	switch res.Status {
	case engine.StatusCompleted:
		return nil
	case engine.StatusToolCalls:
		return silentExit(exitPaused)
	case engine.StatusMaxIterations:
		return &exitError{code: exitMaxIterations, err: errors.New(msg), hint: "raise the limit with --max-iterations, or narrow the task"}
	case engine.StatusCancelled:
		if interrupted(ctx) {
			return &exitError{code: exitCancelled, err: errors.New("interrupted")}
		}
		return &exitError{code: exitFailed, err: fmt.Errorf("%s (--timeout %s)", msg, s.timeout)}
	}
	if res.Error != nil && res.Error.Code == engine.CodeBlocked {
		return &exitError{code: exitFailed, err: fmt.Errorf("blocked: %s", msg)}
	}
	return &exitError{code: exitFailed, err: errors.New(msg), hint: providerHint(s, res.Error)}
}

// providerHint suggests a fix for common provider failures.
func providerHint(s *settings, re *engine.RunError) string {
	var pe *providers.Error
	if re == nil || !errors.As(re.Err, &pe) {
		return ""
	}
	spec, _ := catalog.Lookup(s.provider)
	switch {
	case pe.StatusCode == 401 || pe.StatusCode == 403:
		if len(spec.KeyVars) > 0 {
			return fmt.Sprintf("check %s (see .env.example)", spec.KeyVars[0])
		}
	case pe.StatusCode == 404:
		return fmt.Sprintf("check the model name (%s) and the base URL", s.model)
	case pe.StatusCode == 0 && spec.BaseURLVar != "":
		return fmt.Sprintf("check that the server is up, or set --base-url / %s", spec.BaseURLVar)
	}
	return ""
}
