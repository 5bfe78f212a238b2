package cmd

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/llmrt/llmrt/cmd/commands"
	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
	"github.com/llmrt/llmrt/skills"
	"github.com/llmrt/llmrt/ui"
)

// commandRoots are where a run in s's working directory finds custom
// commands: the user's always, the project's only in a trusted folder.
func commandRoots(getenv func(string) string, workDir string, trusted bool) []commands.Root {
	home := getenv("HOME")
	return commands.Roots(commands.RootOptions{Home: home, ConfigHome: getenv("XDG_CONFIG_HOME"),
		ProjectDirs: config.ProjectDirs(workDir, home), Trusted: trusted})
}

// builtInCommand reports the chat's own commands, which a file cannot
// replace.
func builtInCommand(name string) bool {
	return slices.ContainsFunc(ui.Commands(), func(c ui.Command) bool { return c.Name == name })
}

// loadCommands finds the custom commands; the files that could not be
// read are diagnostics of the run.
func (s *settings) loadCommands(getenv func(string) string) {
	s.commands = commands.Discover(commandRoots(getenv, s.workDir, s.trusted), builtInCommand)
	for _, d := range s.commands.Diagnostics() {
		s.diagnostics = append(s.diagnostics, fmt.Sprintf("custom command %s: %s", d.Source, d.Message))
	}
}

// untrustedCommands lists, one line each, the project's commands an
// untrusted folder would add, for the question whether to trust it.
func untrustedCommands(getenv func(string) string, workDir string) []string {
	cat := commands.Discover(commands.ProjectRoots(config.ProjectDirs(workDir, getenv("HOME"))), builtInCommand)
	var out []string
	for _, c := range cat.Commands() {
		out = append(out, fmt.Sprintf("%s: custom command /%s would be offered", c.Path, c.Name))
	}
	return out
}

// commandShape is a prompt that starts with a /name: a custom command or
// a skill when the name is one.
var commandShape = regexp.MustCompile(`^/([A-Za-z0-9][A-Za-z0-9_.:-]*)(?:\s+|$)`)

// promptCommand is a /name prompt resolved: what the turn sends and runs
// with.
type promptCommand struct {
	name string
	commands.Expansion
	// literal says the prompt is a server's text (an MCP prompt): its
	// @words are not mentions to attach.
	literal bool
}

// expandCommand resolves text when it starts with the /name of an MCP
// server's prompt, a custom command or, failing those, a skill; ok is
// false when it does not.
func (s *settings) expandCommand(ctx context.Context, text string) (p promptCommand, ok bool, err error) {
	text = strings.TrimSpace(text)
	m := commandShape.FindStringSubmatch(text)
	if m == nil {
		return p, false, nil
	}
	name, args := m[1], strings.TrimSpace(text[len(m[0]):])
	if p, ok, err := s.mcpPrompt(ctx, name, args); ok || err != nil {
		return p, ok, err
	}
	if c, found := s.commands.Lookup(name); found {
		return promptCommand{name: c.Name, Expansion: c.Expand(args)}, true, nil
	}
	if s.skills != nil {
		if sk, found := s.skills.Lookup(name); found {
			prompt, err := skillPrompt(s.skills, sk, args)
			return promptCommand{name: sk.Name, Expansion: commands.Expansion{Prompt: prompt}}, err == nil, err
		}
	}
	return p, false, nil
}

// runCommand is expandCommand for `llmrt run`: a /name that is no
// command, no skill and no existing path (/tmp is full) is a usage error
// naming the commands there are.
func (s *settings) runCommand(ctx context.Context, text string) (promptCommand, bool, error) {
	p, ok, err := s.expandCommand(ctx, text)
	if ok || err != nil {
		return p, ok, err
	}
	m := commandShape.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return p, false, nil
	}
	if _, err := os.Stat("/" + m[1]); err == nil {
		return p, false, nil
	}
	known := s.commands.Names()
	if s.skills != nil {
		known = append(known, s.skills.Names()...)
	}
	known = append(known, s.mcpPromptNames(ctx)...)
	list := "there are none here"
	if len(known) > 0 {
		for i := range known {
			known[i] = "/" + known[i]
		}
		list = "known: " + strings.Join(known[:min(len(known), 30)], ", ")
	}
	return p, false, withHint(usageErrorf("unknown command /%s (%s)", m[1], list),
		"llmrt commands lists the custom commands and where they were looked for; to send text that starts with a slash, put a word before it")
}

// apply makes turn req run as the command asks: its tools allowed for
// this turn, its model.
func (p promptCommand) apply(req *engine.Request) {
	if len(p.Rules) > 0 {
		req.Permission.Rules = append(slices.Clone(req.Permission.Rules), p.Rules...)
	}
	if p.Model != "" {
		req.Model = p.Model
	}
}

// skillPrompt is what /skill-name args sends: the skill's instructions as
// load_skill gives them, then the request.
func skillPrompt(cat *skills.Catalogue, sk skills.Skill, args string) (string, error) {
	l, err := cat.Load(sk.Name)
	if err != nil {
		return "", fmt.Errorf("/%s: %w", sk.Name, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Use the skill %q for this request. Its instructions (from %s):\n\n<skill name=%q root=%q>\n%s\n</skill>\n",
		sk.Name, sk.Path, sk.Name, l.Root, strings.TrimSpace(l.Body))
	if len(l.Files) > 0 {
		fmt.Fprintf(&b, "\nIts files, relative to its root (call %s with skill_id %q to make them readable): %s\n", skills.LoadToolName, sk.Name, strings.Join(l.Files, ", "))
	}
	if args != "" {
		fmt.Fprintf(&b, "\nRequest: %s", args)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// customCommands are the chat's prompt commands: the custom commands,
// then the skills no command is named like.
func (s *settings) customCommands() []ui.Command {
	var out []ui.Command
	for _, c := range s.commands.Commands() {
		out = append(out, ui.Command{Name: c.Name, Args: c.ArgumentHint, Desc: "(" + c.Scope + ") " + c.Description})
	}
	if s.skills != nil {
		for _, sk := range s.skills.Skills() {
			if _, taken := s.commands.Lookup(sk.Name); taken || builtInCommand(sk.Name) {
				continue
			}
			out = append(out, ui.Command{Name: sk.Name, Args: "[request]", Desc: "(skill) " + oneLine(sk.Description, 80)})
		}
	}
	return out
}

// commandFiles are the project's command files in dir's own .claude and
// .llmrt folders: part of what trusting the folder trusts, so a command
// added or changed since asks again.
func commandFiles(dir string) []string {
	var out []string
	for _, c := range commands.Discover(commands.ProjectRoots([]string{dir}), nil).Commands() {
		out = append(out, c.Path)
		out = append(out, c.Shadowed...)
	}
	return out
}

// projectFolder is dir's files that need trust, as every command that
// checks trust sees them.
func projectFolder(getenv func(string) string, dir string) config.Folder {
	return config.NewFolder(dir, trustFiles(getenv, dir)...)
}

// commandTurn expands the slash command typed for turn, which then runs
// as the command asks, and returns what the model gets; ok is false when
// typed names no command or skill. literal says the text is a server's
// (an MCP prompt), not the person's: its @mentions are not attachments.
// The chat and editors (llmrt acp) share it.
func (h *cmdHost) commandTurn(ctx context.Context, turn *host.Turn, typed string) (text string, literal, ok bool, err error) {
	p, ok, err := h.s.expandCommand(ctx, typed)
	if err != nil || !ok {
		return "", false, ok, err
	}
	for _, problem := range p.Problems {
		h.warnf("%s", problem)
	}
	p.apply(&turn.Request)
	return p.Prompt, p.literal, true, nil
}
