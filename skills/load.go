package skills

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/llmrt/llmrt/tools"
)

// LoadToolName is the name of the tool that loads a skill.
const LoadToolName = "load_skill"

// SourceSkills is the tools.Tool Source of load_skill.
const SourceSkills = "skills"

const (
	// maxBodyBytes keeps a load_skill result under the engine's default
	// 32 KiB result cap, so the model is told where the rest is instead
	// of getting a blunt cut.
	maxBodyBytes = 24 * 1024
	// maxFiles and maxDepth bound the file list of a skill.
	maxFiles = 100
	maxDepth = 6
)

const loadSchema = `{
  "type": "object",
  "properties": {
    "skill_id": {"type": "string", "description": "The skill's name, as listed under Skills in the system prompt"}
  },
  "required": ["skill_id"],
  "additionalProperties": false
}`

// Loaded is what load_skill returns for one skill.
type Loaded struct {
	Skill string `json:"skill"`
	// Root is the skill's directory; Files are relative to it.
	Root string `json:"root"`
	// Body is the SKILL.md text after the front matter.
	Body           string   `json:"body"`
	BodyTruncated  bool     `json:"body_truncated,omitempty"`
	Files          []string `json:"files"`
	FilesTruncated bool     `json:"files_truncated,omitempty"`
	// AllowedTools are the allow rules the skill's allowed-tools map to;
	// Permissions says whether load_skill added them to the run or why
	// not.
	AllowedTools []string `json:"allowed_tools,omitempty"`
	Permissions  string   `json:"permissions,omitempty"`
}

// Load reads the named skill afresh from disk: its body, directory and
// files. It does not change any workspace.
func (c *Catalogue) Load(name string) (Loaded, error) {
	s, ok := c.Lookup(name)
	if !ok {
		return Loaded{}, fmt.Errorf("unknown skill %q; known skills: %s", name, someNames(c.Names(), 50))
	}
	doc, err := readDocument(s.Path)
	if err != nil {
		return Loaded{}, fmt.Errorf("skill %s: %s: %w", name, s.Path, err)
	}
	l := Loaded{Skill: s.Name, Root: s.Dir, Body: doc.body}
	if len(l.Body) > maxBodyBytes {
		kept := cutAtLine(l.Body, maxBodyBytes)
		line := strings.Count(kept, "\n") + 1
		l.Body = kept + fmt.Sprintf("\n\n[instructions truncated: read the rest with read_file on %s from about line %d]", s.Path, line)
		l.BodyTruncated = true
	}
	l.Files, l.FilesTruncated = listFiles(s.Dir)
	// The rules come from discovery, not from the file as it is now: a
	// run that can edit the skill must not be able to widen them.
	l.AllowedTools = s.AllowRules
	return l, nil
}

// cutAtLine cuts s to at most max bytes at the last line break before it.
func cutAtLine(s string, max int) string {
	s = s[:max]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		return s[:i]
	}
	for max > 0 && !isRuneStart(s[max-1]) {
		max--
	}
	return s[:max]
}

// errEnough stops the file walk once the list is full.
var errEnough = errors.New("enough files")

// listFiles lists the files below dir (slash-separated, relative, in
// lexical order) other than SKILL.md, skipping hidden directories. It
// reports whether the list was cut short.
//
// The skill folder itself may be a symlink: people keep one checkout of
// their skills and link each into .claude/skills or ~/.codex/skills, as
// Claude Code and Codex allow. Following that one link is safe because
// load_skill grants read access to the folder's real path only
// (Workspace.AddReadRoot resolves it), the folder had to hold a SKILL.md
// to be a skill at all, and nothing is ever writable there. Links inside
// the skill are listed only when they resolve to a file within its real
// folder: a link out (to ~/.ssh, say) is left out, and read_file refuses
// it too, since its target lies outside every read root.
func listFiles(dir string) ([]string, bool) {
	files := []string{}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return files, false
	}
	truncated := false
	_ = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner is left out, not fatal
		}
		rel, rerr := filepath.Rel(real, p)
		if rerr != nil || rel == "." {
			return nil
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || strings.Count(rel, string(filepath.Separator)) >= maxDepth {
				return fs.SkipDir
			}
			return nil
		}
		if rel == FileName || (d.Type()&fs.ModeSymlink != 0 && !fileWithin(real, p)) {
			return nil
		}
		if len(files) == maxFiles {
			truncated = true
			return errEnough
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	return files, truncated
}

// fileWithin reports whether the link p resolves to a regular file inside
// the directory dir (a real path).
func fileWithin(dir, p string) bool {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	info, err := os.Stat(target)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	rel, err := filepath.Rel(dir, target)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// loadTool returns the load_skill tool over c.
func (c *Catalogue) loadTool() tools.Tool {
	return tools.Tool{
		Name: LoadToolName,
		Description: "Load a skill by name: returns its instructions (the body of its SKILL.md), its root directory and the files it holds " +
			"(paths relative to the root), and makes those files readable by read_file. Skills: " + strings.Join(c.Names(), ", ") + ".",
		Schema: json.RawMessage(loadSchema),
		Kind:   tools.KindRead,
		Source: SourceSkills,
		Execute: func(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
			var args struct {
				SkillID string `json:"skill_id"`
			}
			if err := json.Unmarshal(raw, &args); err != nil {
				return tools.Errorf("invalid arguments: %v", err), nil
			}
			l, err := c.Load(strings.TrimSpace(args.SkillID))
			if err != nil {
				return tools.Errorf("%v", err), nil
			}
			if ws := tools.WorkspaceFrom(ctx); ws != nil {
				if err := grantRead(ws, l.Root); err != nil {
					return tools.Errorf("skill %s: make %s readable: %v", l.Skill, l.Root, err), nil
				}
			}
			if len(l.AllowedTools) > 0 {
				s, _ := c.Lookup(l.Skill)
				l.Permissions = grantTools(ctx, s.Root, l.AllowedTools)
			}
			return tools.JSON(l), nil
		},
	}
}

// grantTools lets the tools a skill's allowed-tools name run without
// asking for the rest of the run, when its root is trusted, and says
// what it did for the model (and the person reading the result).
func grantTools(ctx context.Context, root Root, rules []string) string {
	if !root.Trusted {
		return "not granted: this project's folder is not trusted, so its skills' allowed-tools need approval as usual (llmrt trust, or --trust, trusts it)"
	}
	g := tools.GranterFrom(ctx)
	if g == nil {
		return "not granted: this host does not let skills change permissions"
	}
	if err := g(rules); err != nil {
		return "partly granted: " + err.Error()
	}
	return "granted: these tools run without asking for the rest of this run; deny rules still apply"
}

// grantRead makes dir readable in ws unless it already is (a project
// skill inside the workspace, a skill loaded twice).
func grantRead(ws *tools.Workspace, dir string) error {
	if _, err := ws.Resolve(dir); err == nil {
		return nil
	}
	return ws.AddReadRoot(dir)
}

// someNames lists at most n names, saying how many more there are.
func someNames(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}
