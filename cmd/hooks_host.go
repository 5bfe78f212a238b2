package cmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/cmd/hooks"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
	"github.com/llmrt/llmrt/providers"
)

// hookFiles are the files a run's hooks come from, lowest precedence
// first (all of them apply; the order is the order they run in): the
// user's Claude Code settings and llmrt config, then, in a trusted
// folder, each project directory's Claude Code settings and llmrt's
// project config.
func hookFiles(getenv func(string) string, dir string, trusted bool) []hookFile {
	home := getenv("HOME")
	files := []hookFile{{path: filepath.Join(home, ".claude", "settings.json"), claude: true}, {path: config.UserPath(getenv)}}
	if !trusted {
		return files
	}
	for _, d := range config.ProjectDirs(dir, home) {
		for _, p := range claudeProjectSettings(d) {
			files = append(files, hookFile{path: p, claude: true, project: true})
		}
	}
	return append(files, hookFile{path: config.ProjectPath(dir), project: true})
}

// claudeProjectSettings are a project directory's Claude Code settings
// files.
func claudeProjectSettings(dir string) []string {
	return []string{filepath.Join(dir, ".claude", "settings.json"), filepath.Join(dir, ".claude", "settings.local.json")}
}

type hookFile struct {
	path            string
	claude, project bool
}

// loadHooks reads the hooks the run obeys. A file whose hooks cannot be
// read is reported and left out; a person sees why their hook does not
// run.
func (s *settings) loadHooks(getenv func(string) string) {
	r := &hooks.Runner{Dir: s.workDir, ProjectDir: config.ProjectRoot(s.workDir, getenv("HOME")),
		Env: s.shellEnv.Apply(os.Environ()), PermissionMode: claudeMode(s.permission.Mode)}
	for _, f := range hookFiles(getenv, s.workDir, s.trusted) {
		set, err := hooks.ReadFile(f.path)
		if err != nil {
			s.diagnostics = append(s.diagnostics, fmt.Sprintf("hooks of %v not loaded: %v; fix the file's \"hooks\" (Claude Code's format)", f.path, err))
			continue
		}
		set.Claude, set.Project = f.claude, f.project
		r.Sets = append(r.Sets, set)
	}
	if r.Empty() {
		return
	}
	r.Seal()
	s.hooks = r
}

// projectHooks lists the hooks a folder's files would run once trusted,
// one line per file, and the files whose hooks cannot be read.
func projectHooks(getenv func(string) string, dir string) []string {
	var out []string
	for _, f := range hookFiles(getenv, dir, true) {
		if !f.project {
			continue
		}
		set, err := hooks.ReadFile(f.path)
		if err != nil {
			out = append(out, err.Error())
			continue
		}
		n := 0
		for _, ms := range set.Events {
			for _, m := range ms {
				n += len(m.Commands)
			}
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("%s: %d hook command(s) would run with your rights (%s)", f.path, n, strings.Join(set.EventNames(), ", ")))
		}
	}
	return out
}

// claudeMode names a permission mode as Claude Code's hooks know it.
func claudeMode(m engine.Mode) string {
	switch m {
	case engine.ModeAuto:
		return "bypassPermissions"
	case engine.ModeRead, engine.ModePlan:
		return "plan"
	}
	return "default"
}

// errPromptBlocked is a prompt a UserPromptSubmit hook refused.
type errPromptBlocked struct{ reason string }

func (e errPromptBlocked) Error() string {
	return "a UserPromptSubmit hook blocked the prompt: " + e.reason
}

// promptHooks runs the hooks of a turn about to be sent: SessionStart on
// the session's first turn here (source: startup, resume or clear), then
// UserPromptSubmit for its prompt (text as typed; "" for the prompt
// message's text). What they add for the model goes with the prompt; a
// refused prompt is an errPromptBlocked and nothing is sent.
func (h *cmdHost) promptHooks(ctx context.Context, t *host.Turn, text string) error {
	r := h.s.hooks
	if r == nil || t.Prompt == nil {
		return nil
	}
	if text == "" {
		text = t.Prompt.Text()
	}
	var added []string
	if h.hookStart != "" {
		added = append(added, r.SessionStart(ctx, h.hookStart))
		h.hookStart = ""
	}
	v := r.UserPromptSubmit(ctx, text)
	if v.Blocked {
		return errPromptBlocked{reason: v.Reason}
	}
	added = append(added, v.Context)
	if extra := strings.TrimSpace(strings.Join(added, "\n")); extra != "" {
		msg := *t.Prompt
		msg.Content = append(append([]providers.Part(nil), msg.Content...), providers.TextPart("\n\n[hook context]\n"+extra))
		t.Prompt = &msg
	}
	return nil
}

// notificationHooks returns what runs the Notification hooks for a
// notification the chat sends, in the background: the screen does not
// wait for them. nil without such hooks.
func (h *cmdHost) notificationHooks(ctx context.Context) func(string) {
	r := h.s.hooks
	if r == nil || !r.Has(hooks.Notification) {
		return nil
	}
	return func(text string) { go r.Notification(ctx, text) }
}

// endHooks runs the SessionEnd hooks (reason: clear, exit, other).
func (h *cmdHost) endHooks(reason string) {
	if h.s.hooks != nil {
		h.s.hooks.SessionEnd(context.Background(), reason)
	}
}

// wireHooks points the hooks' messages at the host's warnings and their
// session fields at the conversation.
func (h *cmdHost) wireHooks(id func() string) {
	r := h.s.hooks
	if r == nil {
		return
	}
	r.Warn = func(msg string) { h.tell(true, "hook: "+msg) }
	r.Session = func() (string, string) {
		sid := id()
		if sid == "" || h.store == nil {
			return sid, ""
		}
		return sid, filepath.Join(h.store.Dir, sid+".jsonl")
	}
}
