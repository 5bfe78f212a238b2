package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFilesystemServesWhatItWasGiven: the README's example, the reference
// filesystem server given ~/notes while llmrt works in another directory,
// serves ~/notes (it is told of no roots, which would replace its
// directories), every time; a server given none is told the roots its
// config lists.
func TestFilesystemServesWhatItWasGiven(t *testing.T) {
	dir := npmDir(t)
	home, ws := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	notes := filepath.Join(home, "notes")
	if err := os.Mkdir(notes, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notes, "todo.txt"), []byte("buy milk"), 0o644); err != nil {
		t.Fatal(err)
	}
	listed, err := Parse([]byte(`{"mcpServers":{"fs":{"command":"node","roots":["~/notes"]}}}`), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	fromRoots := npmServer(dir, "fs", "server-filesystem")
	fromRoots.Roots = listed[0].Roots
	for _, tc := range []struct {
		name string
		sv   Server
	}{
		{"given ~/notes, first run", npmServer(dir, "fs", "server-filesystem", notes)},
		{"given ~/notes, second run", npmServer(dir, "fs", "server-filesystem", notes)},
		{"roots [~/notes]", fromRoots},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := New([]Server{tc.sv}, ws)
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			_ = src.Start(ctx)
			defer src.Close()
			if d := src.Diagnostics(); len(d) > 0 {
				t.Fatalf("diagnostics: %+v", d)
			}
			list, _ := src.Tools(ctx)
			res, err := byName(t, list, "mcp__fs__read_text_file").Execute(ctx, json.RawMessage(`{"path":"`+filepath.Join(notes, "todo.txt")+`"}`))
			if err != nil || res.IsError || !strings.Contains(res.Content, "buy milk") {
				t.Fatalf("read ~/notes/todo.txt: got %+v, %v; want the note", res, err)
			}
			res, _ = byName(t, list, "mcp__fs__list_allowed_directories").Execute(ctx, json.RawMessage(`{}`))
			if !strings.Contains(res.Content, notes) || strings.Contains(res.Content, ws) {
				t.Errorf("allowed directories: got %q, want %s and not the workspace %s", res.Content, notes, ws)
			}
		})
	}
}
