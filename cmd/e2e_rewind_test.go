package cmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
)

// prompts counts the person's messages of a conversation.
func prompts(msgs []engine.Message) int {
	n := 0
	for _, m := range msgs {
		if m.Role == providers.RoleUser {
			n++
		}
	}
	return n
}

// TestRewindRestoresAFirstTurn runs a turn that changes four things by a
// shell command and edit_file, then rewinds it through the binary: a dry
// run lists the four and changes nothing, --code restores them exactly
// and leaves an untouched file alone, and the conversation branches into
// a new session while the old one stays.
func TestRewindRestoresAFirstTurn(t *testing.T) {
	t.Parallel()
	for _, sandboxMode := range []string{"", "off"} {
		t.Run("sandbox="+sandboxMode, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			files := map[string]string{"a.txt": "alpha\n", "c.txt": "one\ntwo\n", "keep.txt": "keep\n"}
			for p, c := range files {
				if err := os.WriteFile(filepath.Join(sb.work, p), []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			os.Chmod(filepath.Join(sb.work, "a.txt"), 0o600)
			keepBefore, _ := os.Stat(filepath.Join(sb.work, "keep.txt"))

			srv := fake(t, fakellm.OpenAI,
				toolCall("read_file", `{"path":"c.txt"}`),
				shellTurn("rm a.txt; echo x > b.txt; mkdir d"),
				toolCall("edit_file", `{"path":"c.txt","old_string":"two\n","new_string":"TWO\nthree\n"}`),
				finalAnswer("done"))
			args := []string{"--permission", "auto", "change things"}
			if sandboxMode != "" {
				args = append([]string{"--sandbox", sandboxMode}, args...)
			}
			openaiRun(sb, srv, args...).want(t, 0)
			if _, err := os.Stat(filepath.Join(sb.work, "d")); err != nil {
				t.Fatalf("the run did not make d: %v", err)
			}
			id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")

			dry := sb.run(cli{args: []string{"rewind", id, "--to", "1", "--dry-run"}})
			dry.want(t, 0)
			for _, line := range []string{"recreate a.txt", "delete b.txt", "rewrite c.txt (+1 -2 lines)", "delete d/", "would branch"} {
				if !strings.Contains(dry.stdout, line) {
					t.Errorf("dry run: want %q in\n%s", line, dry.stdout)
				}
			}
			if _, err := os.Stat(filepath.Join(sb.work, "b.txt")); err != nil {
				t.Errorf("dry run removed b.txt: %v", err)
			}
			if n := len(sb.sessions()); n != 1 {
				t.Errorf("dry run made a session: %d sessions, want 1", n)
			}

			sb.run(cli{args: []string{"rewind", id, "--to", "1", "--code"}}).want(t, 0)
			for p, c := range files {
				got, err := os.ReadFile(filepath.Join(sb.work, p))
				if err != nil || string(got) != c {
					t.Errorf("%s: got %q (%v), want %q", p, got, err, c)
				}
			}
			if info, _ := os.Stat(filepath.Join(sb.work, "a.txt")); info == nil || info.Mode().Perm() != 0o600 {
				t.Errorf("a.txt mode: got %v, want 0600", info)
			}
			for _, p := range []string{"b.txt", "d"} {
				if _, err := os.Stat(filepath.Join(sb.work, p)); !os.IsNotExist(err) {
					t.Errorf("%s still there after rewind (%v)", p, err)
				}
			}
			if after, _ := os.Stat(filepath.Join(sb.work, "keep.txt")); !after.ModTime().Equal(keepBefore.ModTime()) {
				t.Error("keep.txt was rewritten")
			}
			if n := len(sb.sessions()); n != 1 {
				t.Errorf("--code made a session: %d sessions, want 1", n)
			}

			chat := sb.run(cli{args: []string{"rewind", id, "--to", "1", "--chat"}})
			chat.want(t, 0)
			if len(sb.sessions()) != 2 {
				t.Fatalf("sessions after --chat: %v, want the old one and a branch", sb.sessions())
			}
			store := &session.Store{Dir: filepath.Dir(sb.sessions()[0])}
			old, err := store.Load(id)
			if err != nil || prompts(old.Messages) != 1 {
				t.Fatalf("old session: %v, %v; want it intact with its one turn", old, err)
			}
			var branch *session.Session
			for _, p := range sb.sessions() {
				if bid := strings.TrimSuffix(filepath.Base(p), ".jsonl"); bid != id {
					if branch, err = store.Load(bid); err != nil {
						t.Fatal(err)
					}
				}
			}
			if !strings.Contains(chat.stdout, branch.Meta.ID) {
				t.Errorf("rewind did not print the new session id %s:\n%s", branch.Meta.ID, chat.stdout)
			}
			if branch.Meta.Parent != id || branch.Meta.ParentTurn != 1 {
				t.Errorf("branch meta: got parent %q turn %d, want %q turn 1", branch.Meta.Parent, branch.Meta.ParentTurn, id)
			}
			if prompts(branch.Messages) != 0 {
				msgs, _ := json.Marshal(branch.Messages)
				t.Errorf("branch holds turn 1: %s", msgs)
			}
		})
	}
}

// TestRewindRefusesOutsideChanges: a file edited by hand after the run is
// not overwritten without --force, and the refusal names --force.
func TestRewindRefusesOutsideChanges(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	if err := os.WriteFile(filepath.Join(sb.work, "a.txt"), []byte("first\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI, shellTurn("echo second > a.txt"), finalAnswer("done"))
	openaiRun(sb, srv, "--permission", "auto", "change a").want(t, 0)
	id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")
	if err := os.WriteFile(filepath.Join(sb.work, "a.txt"), []byte("by hand, later\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := sb.run(cli{args: []string{"rewind", id, "--code"}})
	o.want(t, 1)
	if !strings.Contains(o.stderr, "a.txt") || !strings.Contains(o.stderr, "--force") {
		t.Errorf("refusal: want a.txt and --force named in\n%s", o.stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(sb.work, "a.txt")); string(got) != "by hand, later\n" {
		t.Errorf("refused rewind changed a.txt to %q", got)
	}
	sb.run(cli{args: []string{"rewind", id, "--code", "--force"}}).want(t, 0)
	if got, _ := os.ReadFile(filepath.Join(sb.work, "a.txt")); string(got) != "first\n" {
		t.Errorf("forced rewind: a.txt is %q, want %q", got, "first\n")
	}
}

// TestCheckpointsOnlyForChanges: a run that only reads takes no
// checkpoint, nor does one with --no-session (nothing could rewind it),
// and rewind then says there is nothing to restore.
func TestCheckpointsOnlyForChanges(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	if err := os.WriteFile(filepath.Join(sb.work, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkpoints := filepath.Join(sb.home, "state", "llmrt", "checkpoints")

	srv := fake(t, fakellm.OpenAI, toolCall("read_file", `{"path":"a.txt"}`), finalAnswer("read"))
	openaiRun(sb, srv, "--permission", "auto", "read a").want(t, 0)
	if entries, _ := os.ReadDir(checkpoints); len(entries) != 0 {
		t.Errorf("a read-only run took checkpoints: %v", entries)
	}
	id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")
	o := sb.run(cli{args: []string{"rewind", id, "--code"}})
	o.want(t, 0)
	if !strings.Contains(o.stdout, "no checkpoints") {
		t.Errorf("rewind of a read-only session: want it to say there are no checkpoints, got\n%s", o.stdout)
	}

	srv = fake(t, fakellm.OpenAI, shellTurn("echo b > b.txt"), finalAnswer("wrote"))
	openaiRun(sb, srv, "--permission", "auto", "--no-session", "write b").want(t, 0)
	if entries, _ := os.ReadDir(checkpoints); len(entries) != 0 {
		t.Errorf("a --no-session run took checkpoints: %v", entries)
	}
}

// TestRewindToALaterTurn: turns are counted across resumed runs, so
// --to 2 undoes only the second run's changes and the branch keeps the
// first turn.
func TestRewindToALaterTurn(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, shellTurn("echo 1 > n.txt"), finalAnswer("one"))
	openaiRun(sb, srv, "--permission", "auto", "first").want(t, 0)
	id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")
	srv = fake(t, fakellm.OpenAI, shellTurn("echo 2 > n.txt; echo m > m.txt"), finalAnswer("two"))
	openaiRun(sb, srv, "--permission", "auto", "--resume", id, "second").want(t, 0)

	sb.run(cli{args: []string{"rewind", id, "--to", "2"}}).want(t, 0)
	if got, _ := os.ReadFile(filepath.Join(sb.work, "n.txt")); string(got) != "1\n" {
		t.Errorf("n.txt: got %q, want the first turn's %q", got, "1\n")
	}
	if _, err := os.Stat(filepath.Join(sb.work, "m.txt")); !os.IsNotExist(err) {
		t.Errorf("m.txt, made by turn 2, still there (%v)", err)
	}
	store := &session.Store{Dir: filepath.Dir(sb.sessions()[0])}
	for _, p := range sb.sessions() {
		s, err := store.Load(strings.TrimSuffix(filepath.Base(p), ".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		want := 2 // the old session, untouched
		if s.Meta.ID != id {
			want = 1 // the branch: turn 1 only
		}
		if got := prompts(s.Messages); got != want {
			t.Errorf("session %s (parent %q): got %d prompts, want %d", s.Meta.ID, s.Meta.Parent, got, want)
		}
	}
	if n := len(sb.sessions()); n != 2 {
		t.Errorf("sessions: got %d, want 2", n)
	}
	for _, p := range sb.sessions() {
		if bid := strings.TrimSuffix(filepath.Base(p), ".jsonl"); bid != id {
			show := sb.run(cli{args: []string{"sessions", "show", bid}})
			show.want(t, 0)
			if want := "branched from " + id + " before turn 2"; !strings.Contains(show.stdout, want) {
				t.Errorf("sessions show %s: want %q in\n%s", bid, want, show.stdout)
			}
		}
	}
}

// TestCheckpointsSetting: the user's config can turn checkpoints off; a
// project's config cannot touch the setting (it would decide how long
// the person's other sessions can be undone) and is told so.
func TestCheckpointsSetting(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	checkpoints := filepath.Join(sb.home, "state", "llmrt", "checkpoints")
	sb.write(".llmrt/config.json", `{"checkpoints": {"enabled": false}}`)
	sb.trust()
	srv := fake(t, fakellm.OpenAI, shellTurn("echo b > b.txt"), finalAnswer("wrote"))
	o := openaiRun(sb, srv, "--permission", "auto", "write b")
	o.want(t, 0)
	if entries, _ := os.ReadDir(checkpoints); len(entries) != 1 {
		t.Errorf("a project's config turned checkpoints off: %v", entries)
	}
	if !strings.Contains(o.stderr, "checkpoints") {
		t.Errorf("the project's checkpoints setting was ignored without a word:\n%s", o.stderr)
	}

	userConfig := filepath.Join(sb.home, "config", "llmrt", "config.json")
	os.MkdirAll(filepath.Dir(userConfig), 0o755)
	if err := os.WriteFile(userConfig, []byte(`{"checkpoints": {"enabled": false}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	srv = fake(t, fakellm.OpenAI, shellTurn("echo c > c.txt"), finalAnswer("wrote"))
	openaiRun(sb, srv, "--permission", "auto", "write c").want(t, 0)
	if entries, _ := os.ReadDir(checkpoints); len(entries) != 1 {
		t.Errorf("checkpoints off in the user's config, yet a second session took some: %v", entries)
	}
}
