// Package instructions reads a project's instruction files for the managed
// system prompt: AGENTS.md (or CLAUDE.md where a directory has no
// AGENTS.md) in every directory from the git root down to the working
// directory, after the user's own $XDG_CONFIG_HOME/llmrt/AGENTS.md, within
// a size cap.
//
// A Set is a tool source for the engine that offers no tools: its
// Instructions and Diagnostics match the engine's Instructor and Diagnoser
// interfaces, so a host adds it to engine.Config.Sources like any other
// source. The package does not import the engine.
package instructions
