// Package commands reads custom slash commands: Markdown files in
// .claude/commands and .llmrt/commands (of the project and of the user),
// in Claude Code's format. Front matter may give a description, an
// argument hint, the tools the command's turn may run without asking and
// a model; the body is the prompt, with $ARGUMENTS and $1 to $9 replaced
// by what follows the command's name. A subfolder is a namespace:
// frontend/component.md is /frontend:component.
//
// The package finds, parses and expands commands; cmd decides which roots
// count (project ones only in a trusted folder), attaches the files the
// prompt mentions with @ and runs the turn.
package commands
