// Package acpbridge translates between llmrt's engine and the Agent Client
// Protocol (ACP): a person's prompt blocks become an engine message, a
// run's events become session updates (message and thought chunks, tool
// calls with their kind, title, locations and diffs), a saved
// conversation becomes the updates that replay it, and ACP's permission
// options map to llmrt's decisions. It holds no connection and starts
// nothing; `llmrt acp` (package cmd) does the wiring. It never imports ui
// or Charm.
package acpbridge
