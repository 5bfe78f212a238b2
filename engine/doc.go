// Package engine runs the completion loop behind llmrt and is its library
// API: a Runtime holds providers, tool sources and defaults; Generate makes
// one model call; Complete and Stream run the bounded model/tool loop with
// the final_answer and blocked control tools, tool validation and
// execution, permissions, recovery notes and bounds; ResolveTools,
// ExecuteToolCall and ExecuteToolCalls (a batch, reads run together)
// expose the tool surface to hosts that own their own loop. The functions
// Generate, Complete and Stream do the same for one call with the
// providers given to it, keeping no Runtime. docs/design.md in the
// repository describes the loop's rules, its events, the permission
// policy, the command line's exit codes, and how all this maps to the
// seeds llmrt started from.
//
// A program imports engine and the adapters it uses. Config.Adapters takes
// them as built (openai.New(openai.Config{APIKey: key})) and knows each by
// its own name; with one adapter it is the default provider, and
// Config.Defaults.Model fills the model, so a Request needs only Messages.
// TextMessage, UserMessage, ToolResultMessage, the Role and Kind constants,
// FuncTool (a host tool from a Go function, its schema inferred from the
// argument type), TextResult and JSONResult cover the common program
// without importing providers or tools, and the Err* sentinels match a
// run's error with errors.Is.
//
// The zero Request is safe: it offers the model only the built-ins that
// read the workspace (DefaultBuiltIns), in the process's working directory
// unless WorkDir says otherwise. shell_cmd, the writing tools, web_fetch,
// ask_user_input, run_code and spawn_agent are offered only when the
// request selects them
// (AllBuiltIns or their names); choose a permission mode with them, since
// the library's default is auto.
//
// The engine never prints and never reads a terminal. Everything a run does
// is reported as Events (one type) ending in exactly one
// terminal event that carries the Result; a host fans them out to its
// consumers with FanOut. Request.Raw adds the provider's payloads as
// received (raw events); Config.Reporter hears every warning without
// a consumer; Request.Strict refuses a run whose preparation found
// Diagnostics. Questions for a person leave the engine through
// the Approver and Asker interfaces, or as events carrying a reply channel
// (Permission.ReplyViaEvents, Request.AskViaEvents); with neither, a
// question pauses the run as a host-owned tool call.
//
// Request.AnswerSchema asks for structured output: final_answer's answer
// parameter takes the schema, an answer (or a plain-text reply read as
// JSON) that fails it goes back to the model with the reason, at most
// AnswerRetries times before the run fails with code invalid_answer, and
// a completed Result holds the valid value in Structured.
//
// A paused Result says what it waits for (PauseKind). With a checkpoint
// store (Config.Checkpoints; engine/session keeps paused runs in session
// files or a SQL database) it also carries a Token, and Resume goes on
// with the run in any process sharing the store; a token resumes its
// pause once (ErrInvalidToken, ErrTokenInUse). Config.Interrupt decides
// what a pause does to the work before it: kept (continue), or undone by
// the rollbacks tools registered (RegisterRollback) under restart.
//
// Which calls a run may make is decided by package policy (engine/policy):
// the permission modes, the allow, allow_once and deny rules and the
// analysis of shell lines those rules are matched against. Mode, Rule,
// RuleAction and their constants here are aliases of its types, and
// ParseMode, ParseRule and SuggestRule call it. The loop owns what
// surrounds a decision: the rules a person adds during a run ("allow
// always"), the allow_once rules it has spent, putting a question to the
// Approver or the event consumer, and telling the model and the host what
// was refused and why.
//
// Where the next pieces plug in:
//
//   - MCP servers and skills are ToolSources in Config.Sources. The Runtime
//     starts them (Starter), offers their tools to every run after the
//     request's own, re-reads their lists before each model call, puts
//     their Instructions into the managed system prompt, reports their
//     problems as Diagnostics and closes them (io.Closer) in Close.
//   - run_code calls the run's other tools through CallerFrom(ctx).CallTool:
//     the same validation, deny rules and permission policy as a model's
//     call, with events marked by the run_code call's id (CallInfo.ParentID).
//   - spawn_agent starts a child run with Caller.Runtime, the child's
//     ParentID set to Caller.RunID and Caller.Forward as its sink, so the
//     child's events reach the parent's consumer under their own run id.
//   - chat (and any interactive host) sets Request.Asker and
//     Permission.Approver, or the event forms, and persists the
//     conversation from the events: assistant_message and the Message of
//     every tool_result and tool_error are exactly what Result.Messages
//     gains.
package engine
