// Package host is what every program that holds conversations with the
// engine needs around it, written once: `llmrt run` uses it for one turn,
// `llmrt chat` for every turn of a chat, and an editor agent as it is.
//
// A Conversation owns the messages, the session (a file, or any
// session.Backend: Options.Backend) and trace they are recorded in, the
// answers to a paused run (held back until the run makes progress, so a
// turn that fails at once leaves its questions pending),
// the rules a person allowed "always" for the rest of the conversation,
// and how a turn was stopped. It never prints: what it has to say about
// its records reaches the turn's event sink as warning events with the
// code NoteCode.
//
// The host keeps what is its own: building the runtime and the request
// from its options, and the person behind the Approver and Asker a turn
// is given (forms on a terminal, the chat screen, an editor's dialogs).
package host
