package ui

import (
	"slices"
	"time"

	"github.com/llmrt/llmrt/engine"
)

// Report is what a slash command shows in the transcript: one of the
// types of this file, filled with data by the host and drawn by the
// screen at its width with its palette, so a host never formats text for
// the screen.
type Report interface {
	// draw returns the report's lines, width cells wide at most.
	draw(l *look, width int) []string
}

// Notice is a plain sentence: a command's outcome that needs no more
// ("the conversation is cleared").
type Notice string

// Lines are a few sentences or list lines, each wrapped on its own: a
// command's outcome with its details (/rewind's listing of files).
type Lines []string

// ToolList is the tool surface a run would offer the model (/tools).
type ToolList struct {
	Tools []engine.ToolInfo
	// Servers are the MCP servers and how each is doing.
	Servers []ServerStatus
	// Commands says how shell commands are confined (the sandbox).
	Commands string
}

// ServerStatus is one MCP server's state.
type ServerStatus struct {
	Name string
	// State is "starting", "ready", "failed" or "not started".
	State string
	// Tools is how many tools a ready server offers.
	Tools int
	// Err is why a failed server failed, or why one was not started.
	Err string
}

// String says how the server is doing: "ready, 4 tools", "failed: why",
// "not started: why".
func (s ServerStatus) String() string {
	switch {
	case s.State == "ready":
		return "ready, " + itoa(s.Tools) + " tools"
	case s.Err != "":
		return s.State + ": " + s.Err
	}
	return s.State
}

// SkillList is the skills the model can load (/skills).
type SkillList struct {
	Skills []SkillInfo
}

// SkillInfo is one skill of a SkillList.
type SkillInfo struct {
	Name string
	// Scope is where the skill was found: "project", "user", ...
	Scope       string
	Description string
}

// SessionList is the saved sessions, newest first (/sessions).
type SessionList struct {
	Sessions []SessionInfo
	// All says they are every directory's; otherwise they are the
	// working directory's.
	All bool
	// Now is what their ages are counted from; zero is the time drawn.
	Now time.Time
}

// SessionInfo is one saved session of a SessionList.
type SessionInfo struct {
	ID      string
	Updated time.Time
	// Status is how its last run ended; "" when it has not.
	Status string
	// Model is "provider/model".
	Model string
	Title string
	// Dir is where it ran, shown for a list of every directory's.
	Dir string
	// Bytes is the size of its record (0: not known).
	Bytes int64
}

// UsageReport is the tokens used in the session so far (/usage).
type UsageReport struct {
	Usage engine.Usage
}

// ContextReport is what fills the model's context window (/context).
type ContextReport struct {
	// Model is the model whose window it is.
	Model string
	Parts engine.ContextReport
	// Files are the project instruction files read into the prompt.
	Files []InstructionFile
	// CompactAt is the share of the window at which the conversation is
	// compacted (0.85); zero when it is not.
	CompactAt float64
}

// InstructionFile is one project instruction file of a ContextReport.
type InstructionFile struct {
	Path  string
	Bytes int
}

// ModelReport is the model the chat uses (/model): the one just switched
// to, or the current one and the providers to switch to.
type ModelReport struct {
	Provider, Model string
	// Switched says the chat now uses this model.
	Switched bool
	// Providers are the provider names /model accepts.
	Providers []string
}

// PermissionReport is the permission mode (/permission): the one just
// set, or the current one.
type PermissionReport struct {
	Mode string
	// Changed says the mode was just set.
	Changed bool
}

// Resumed says a saved session was reopened (/resume).
type Resumed struct {
	ID string
	// RanOn is the "provider/model" the session ran on when it is not the
	// one the chat goes on with, Now; both are "" when they are the same.
	RanOn, Now string
	// RanIn is the directory the session ran in when it is not the one
	// the chat works in, Here; both are "" when they are the same.
	RanIn, Here string
}

// Compacted says the conversation was summarised (/compact): its size in
// tokens before and after.
type Compacted struct {
	Before, After int
}

// cleanReport returns r with the text it quotes from outside llmrt (tool
// and skill descriptions, session titles, server errors, file names)
// cleaned of control sequences. A report type that quotes such text is
// listed here.
func cleanReport(r Report) Report {
	switch r := r.(type) {
	case Notice:
		return Notice(Sanitize(string(r)))
	case Lines:
		out := make(Lines, len(r))
		for i, s := range r {
			out[i] = Sanitize(s)
		}
		return out
	case ToolList:
		r.Tools = slices.Clone(r.Tools)
		for i, t := range r.Tools {
			r.Tools[i].Name, r.Tools[i].Description, r.Tools[i].Source = Sanitize(t.Name), Sanitize(t.Description), Sanitize(t.Source)
		}
		r.Servers = slices.Clone(r.Servers)
		for i, s := range r.Servers {
			r.Servers[i].Name, r.Servers[i].Err = Sanitize(s.Name), Sanitize(s.Err)
		}
		r.Commands = Sanitize(r.Commands)
		return r
	case AgentList:
		return r.clean()
	case SkillList:
		r.Skills = slices.Clone(r.Skills)
		for i, s := range r.Skills {
			r.Skills[i] = SkillInfo{Name: Sanitize(s.Name), Scope: Sanitize(s.Scope), Description: Sanitize(s.Description)}
		}
		return r
	case SessionList:
		r.Sessions = slices.Clone(r.Sessions)
		for i, s := range r.Sessions {
			r.Sessions[i].Title, r.Sessions[i].Model = Sanitize(s.Title), Sanitize(s.Model)
		}
		return r
	case ContextReport:
		r.Model = Sanitize(r.Model)
		r.Files = slices.Clone(r.Files)
		for i, f := range r.Files {
			r.Files[i].Path = Sanitize(f.Path)
		}
		return r
	case ModelReport:
		r.Provider, r.Model = Sanitize(r.Provider), Sanitize(r.Model)
		return r
	case Resumed:
		r.RanOn, r.Now = Sanitize(r.RanOn), Sanitize(r.Now)
		return r
	}
	return r
}
