package cmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/llmrt/llmrt/cmd/internal/acpbridge"
	"github.com/llmrt/llmrt/engine"
)

// maxLinkRead bounds the text of a linked file read through the editor
// into a prompt; a larger file stays a link, which the model reads in
// parts with its tools.
const maxLinkRead = 64 << 10

// maxEditorWrite bounds the text handed to the editor after an edit: a
// larger file stays as llmrt wrote it, and the editor reloads it from disk.
const maxEditorWrite = 4 << 20

// editorHooks hand every file write_file or edit_file changed to the
// client's fs/write_text_file, so the edit lands in the editor's buffer
// (and its undo history) rather than behind its back. llmrt's own tool
// makes the change first, with its checks (read before overwrite, the
// workspace boundary, symlinks); the editor is then given the result.
// inner are the hooks the run had (possibly nil).
type editorHooks struct {
	inner engine.Hooks
	s     *acpSession
}

func (h editorHooks) BeforeTool(ctx context.Context, c engine.HookCall) engine.HookVerdict {
	if h.inner == nil {
		return engine.HookVerdict{}
	}
	return h.inner.BeforeTool(ctx, c)
}

func (h editorHooks) AfterTool(ctx context.Context, c engine.HookCall, o engine.ToolOutcome) engine.HookVerdict {
	if (c.Tool == "write_file" || c.Tool == "edit_file") && !o.IsError && !o.Failed {
		h.s.toEditor(ctx, c.Arguments)
	}
	if h.inner == nil {
		return engine.HookVerdict{}
	}
	return h.inner.AfterTool(ctx, c, o)
}

func (h editorHooks) BeforeStop(ctx context.Context, s engine.HookStop) engine.HookVerdict {
	if h.inner == nil {
		return engine.HookVerdict{}
	}
	return h.inner.BeforeStop(ctx, s)
}

// toEditor writes the file a call changed through the client. A client
// that fails is a warning: the file on disk is already right.
func (s *acpSession) toEditor(ctx context.Context, args json.RawMessage) {
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(args, &a) != nil || a.Path == "" {
		return
	}
	p := a.Path
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.h.s.workDir, p)
	}
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxEditorWrite {
		return
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return
	}
	if _, err := s.a.conn.WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: acp.SessionId(s.id), Path: p, Content: string(b)}); err != nil {
		s.h.warnf("the editor did not take the change to %s (it is written on disk): %v", a.Path, err)
	}
}

// readLinks replaces the prompt's links to local files by their text as
// the editor holds it (fs/read_text_file: unsaved changes included), when
// the client offers that. A link the editor cannot read, or whose text is
// large, stays a link.
func (s *acpSession) readLinks(ctx context.Context, blocks []acp.ContentBlock) []acp.ContentBlock {
	if !s.a.capabilities().Fs.ReadTextFile {
		return blocks
	}
	out := make([]acp.ContentBlock, len(blocks))
	for i, b := range blocks {
		out[i] = b
		l := b.ResourceLink
		if l == nil || !strings.HasPrefix(l.Uri, "file://") {
			continue
		}
		p := acpbridge.Path(l.Uri)
		resp, err := s.a.conn.ReadTextFile(ctx, acp.ReadTextFileRequest{SessionId: acp.SessionId(s.id), Path: p})
		if err != nil || len(resp.Content) > maxLinkRead {
			continue
		}
		out[i] = acp.ResourceBlock(acp.EmbeddedResourceResource{TextResourceContents: &acp.TextResourceContents{Uri: l.Uri, Text: resp.Content}})
	}
	return out
}
