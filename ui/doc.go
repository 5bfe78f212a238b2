// Package ui renders llmrt's engine events for a person at a terminal: the
// full-screen chat (Run), and the pieces `llmrt run` uses inline on a
// terminal — streamed Markdown, the question and permission forms, tool
// lines and the spinner — so both commands look and behave alike.
//
// The chat screen is one Bubble Tea model. It owns no conversation: a Host
// (implemented by the command line) runs each turn and reports its events
// through a queue the screen drains with a re-armed command, so the engine
// is never blocked by drawing. Questions and permission requests reach the
// screen through the turn's Prompter and are answered from its forms; a
// person who stops the run there answers with engine.CancelError.
//
// The slash commands are declared once, in Commands: /help, Tab
// completion and dispatch all come from that list. The screen runs its own
// (help, edit, exit); the host gives handlers for the others, which return
// typed reports (ToolList, SessionList, ContextReport, ...) the screen
// draws at its width with its palette. The host fills them with data and
// never formats text for the screen.
//
// ui imports engine and tools for their types; it never imports cmd, and
// nothing below it imports ui.
package ui
