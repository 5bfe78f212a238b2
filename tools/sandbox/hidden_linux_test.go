//go:build linux

package sandbox

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestHiddenFiles: a file the policy hides (the .env llmrt read its keys
// from) shows nothing of itself to a confined command, however it is
// read — cat, rev, base64, a copy, a symlink, a hard link, /proc/self/root,
// and through another process's root, llmrt's or init's, which Landlock
// (and a PID namespace) keep out of reach — in both confined modes, in
// namespaces of its own and without, hidden in a mount namespace alone
// (as root) or through a user namespace (as every other user); the
// workspace around it works as before, and llmrt itself still reads the
// file.
func TestHiddenFiles(t *testing.T) {
	needLandlock(t)
	const secret = "sk-hidden-secret-value"
	content := "OPENAI_API_KEY=" + secret + "\n"
	reversed := []rune(strings.TrimSuffix(content, "\n"))
	slices.Reverse(reversed)
	leaks := []string{secret, string(reversed), base64.StdEncoding.EncodeToString([]byte(content))[:24]}
	for _, how := range []struct {
		name                string
		noNamespace, userns bool
	}{{"namespaces", false, false}, {"no namespaces", true, false}, {"no namespaces, a user namespace", true, true}} {
		for _, mode := range []Mode{WorkspaceWrite, ReadOnly} {
			t.Run(how.name+" "+string(mode), func(t *testing.T) {
				ws, _, _ := dirs(t)
				env := filepath.Join(ws, ".env")
				if err := os.WriteFile(env, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("plain notes\n"), 0o644)
				p := Policy{Mode: mode, Workspace: ws, Hidden: []string{env, filepath.Join(ws, "absent.env")}, noNamespace: how.noNamespace, userNamespace: how.userns}
				script := `cd "$WS"; cat .env; rev .env; base64 .env; cp .env "$TMPDIR/copy" && cat "$TMPDIR/copy"; ` +
					`ln -s "$WS/.env" "$TMPDIR/l" && cat "$TMPDIR/l"; ln .env "$TMPDIR/h" && cat "$TMPDIR/h"; ` +
					`cat /proc/self/root"$WS"/.env; echo PPID; cat /proc/$PPID/root"$WS"/.env; echo ONE; cat /proc/1/root"$WS"/.env; grep -r sk- . ; cat notes.txt; id -u; echo done`
				out, err := run(t, p, script, "WS="+ws)
				if !strings.Contains(out, "plain notes\n") || !strings.HasSuffix(out, "done\n") {
					t.Fatalf("the script should run to its end and read other files (%v):\n%s", err, out)
				}
				for _, leak := range leaks {
					if strings.Contains(out, leak) {
						t.Errorf("the command read the hidden file (%q):\n%s", leak, out)
					}
				}
				if !strings.Contains(out, "\n"+strconv.Itoa(os.Getuid())+"\ndone") {
					t.Errorf("the command should run as this user (uid %d):\n%s", os.Getuid(), out)
				}
				if b, err := os.ReadFile(env); err != nil || string(b) != content {
					t.Errorf("llmrt should still read the file: %q, %v", b, err)
				}
			})
		}
	}
}
