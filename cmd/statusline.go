package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/ui"
)

// statusInput is what a status_line command reads on stdin: the fields of
// Claude Code's statusLine input that llmrt knows, under the same names,
// so a script written for Claude Code works unchanged.
type statusInput struct {
	HookEventName  string `json:"hook_event_name"`
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Model          struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"model"`
	Workspace struct {
		CurrentDir string `json:"current_dir"`
		ProjectDir string `json:"project_dir"`
	} `json:"workspace"`
	Version     string `json:"version"`
	OutputStyle struct {
		Name string `json:"name"`
	} `json:"output_style"`
	Cost struct {
		TotalCostUSD       float64 `json:"total_cost_usd"`
		TotalDurationMS    int64   `json:"total_duration_ms"`
		TotalAPIDurationMS int64   `json:"total_api_duration_ms"`
		TotalLinesAdded    int     `json:"total_lines_added"`
		TotalLinesRemoved  int     `json:"total_lines_removed"`
	} `json:"cost"`
	ContextWindow struct {
		TotalInputTokens  int     `json:"total_input_tokens"`
		TotalOutputTokens int     `json:"total_output_tokens"`
		ContextWindowSize int     `json:"context_window_size"`
		UsedPercentage    float64 `json:"used_percentage"`
	} `json:"context_window"`
	Exceeds200kTokens bool `json:"exceeds_200k_tokens"`
	// Provider and Permission are llmrt's own.
	Provider   string `json:"provider"`
	Permission string `json:"permission"`
}

// statusLineOutput bounds what is read of a status line command's output.
const statusLineOutput = 4 << 10

// statusLine returns the chat's status line function, nil when no
// status_line is set. The command runs with sh in the working
// directory, the session's facts as JSON on stdin; a failure shows as
// the line, so a broken script is seen, not silently blank.
func (c *chatHost) statusLine() ui.StatusLineFunc {
	sl := c.h.s.cfg.StatusLine
	if sl == nil || strings.TrimSpace(sl.Command) == "" {
		return nil
	}
	command, pad := sl.Command, strings.Repeat(" ", sl.Padding)
	started, dir, window, version := time.Now(), c.f.Sessions().Dir, c.h.s.contextWindow, readBuildInfo().Version
	return func(ctx context.Context, st ui.Status) string {
		in := statusInput{HookEventName: "Status", SessionID: st.Session, Cwd: st.Dir, Version: version,
			Provider: st.Provider, Permission: st.Permission}
		if st.Session != "" {
			in.TranscriptPath = filepath.Join(dir, st.Session+".jsonl")
		}
		in.Model.ID, in.Model.DisplayName = st.Model, st.Model
		in.Workspace.CurrentDir, in.Workspace.ProjectDir = st.Dir, st.Dir
		in.OutputStyle.Name = "default"
		in.Cost.TotalDurationMS = time.Since(started).Milliseconds()
		cw := &in.ContextWindow
		cw.TotalInputTokens, cw.TotalOutputTokens = st.Usage.InputTokens, st.Usage.OutputTokens
		cw.ContextWindowSize = window
		if cw.ContextWindowSize == 0 {
			cw.ContextWindowSize, _ = engine.ContextWindow(st.Model)
		}
		if cw.ContextWindowSize > 0 {
			cw.UsedPercentage = min(100, float64(st.Usage.InputTokens)*100/float64(cw.ContextWindowSize))
		}
		in.Exceeds200kTokens = st.Usage.InputTokens > 200_000
		out, err := runStatusLine(ctx, command, st.Dir, in)
		if err != nil {
			return "status_line: " + err.Error()
		}
		if out == "" {
			return ""
		}
		return pad + out
	}
}

// runStatusLine runs command with in on stdin and returns the first line
// it printed.
func runStatusLine(ctx context.Context, command, dir string, in statusInput) (string, error) {
	data, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(data)
	var out limitedBuffer
	out.max = statusLineOutput
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	line, _, _ := strings.Cut(out.String(), "\n")
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return "", errors.New("the command took too long")
	case errors.As(err, &exit):
		return "", errors.New(exit.Error())
	case err != nil:
		return "", err
	}
	return strings.TrimRight(line, " \t\r"), nil
}

// limitedBuffer keeps the first max bytes written to it and takes the
// rest without keeping it.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// notifyKind is how the chat notifies the person: the notifications
// setting (auto, bell or off), and for auto the terminal's kind, from
// the variables terminals set. Inside tmux or screen the bell is what
// reaches the outer terminal.
func notifyKind(setting *string, getenv func(string) string) ui.Notify {
	switch deref(setting) {
	case "off":
		return ui.NotifyOff
	case "bell":
		return ui.NotifyBell
	}
	term, program := getenv("TERM"), getenv("TERM_PROGRAM")
	switch {
	case getenv("TMUX") != "" || strings.HasPrefix(term, "screen") || strings.HasPrefix(term, "tmux"):
		return ui.NotifyBell
	case program == "iTerm.app" || program == "WezTerm" || program == "ghostty" || getenv("WT_SESSION") != "":
		return ui.NotifyOSC9
	case strings.HasPrefix(term, "foot") || strings.HasPrefix(term, "rxvt"):
		return ui.NotifyOSC777
	}
	return ui.NotifyBell
}
