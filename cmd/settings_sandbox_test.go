package cmd

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/tools/sandbox"
)

// TestResolveSandbox: the mode defaults to workspace-write where the OS can
// confine and to off with one diagnostic line where it cannot; a confined
// mode asked for where it cannot is a usage error; config keys apply
// below the flags. The workspace's .env is always hidden.
func TestResolveSandbox(t *testing.T) {
	yes := func() error { return nil }
	no := func() error { return errors.New("this kernel does not offer Landlock; commands run unconfined") }
	str := func(s string) *string { return &s }
	on, off := true, false
	cases := []struct {
		name      string
		flags     config.Layer
		file      config.Layer
		available func() error
		want      sandbox.Policy
		auto      bool
		diags     []string
		err       string
	}{
		{name: "default where supported", available: yes, want: sandbox.Policy{Mode: sandbox.WorkspaceWrite}},
		{name: "default where unsupported", available: no, want: sandbox.Policy{Mode: sandbox.Off},
			diags: []string{"sandbox: this kernel does not offer Landlock; commands run unconfined"}},
		{name: "asked for where unsupported", flags: config.Layer{Sandbox: str("read-only")}, available: no, err: "use --sandbox off"},
		{name: "off where unsupported", flags: config.Layer{Sandbox: str("off")}, available: no, want: sandbox.Policy{Mode: sandbox.Off}},
		{name: "unknown mode", file: config.Layer{Sandbox: str("strict")}, available: yes, err: `unknown sandbox mode "strict"`},
		{name: "the flag over the config", flags: config.Layer{Sandbox: str("read-only")}, file: config.Layer{Sandbox: str("off")},
			available: yes, want: sandbox.Policy{Mode: sandbox.ReadOnly}},
		{name: "config network and writable paths", file: config.Layer{SandboxNetwork: &on, SandboxWritable: []string{"cache", "/opt/x"}}, available: yes,
			want: sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: true, Writable: []string{"WORK/cache", "/opt/x"}}},
		{name: "--sandbox-network=false over the config", flags: config.Layer{SandboxNetwork: &off}, file: config.Layer{SandboxNetwork: &on}, available: yes,
			want: sandbox.Policy{Mode: sandbox.WorkspaceWrite}},
		{name: "sandboxed commands auto", file: config.Layer{SandboxedCommands: str("auto")}, available: yes, want: sandbox.Policy{Mode: sandbox.WorkspaceWrite}, auto: true},
		{name: "sandboxed commands auto, sandbox off", file: config.Layer{SandboxedCommands: str("auto"), Sandbox: str("off")}, available: yes, want: sandbox.Policy{Mode: sandbox.Off}},
		{name: "sandboxed commands unknown", file: config.Layer{SandboxedCommands: str("always")}, available: yes, err: "is not ask or auto"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := &settings{cfg: loadLayers(t, dir, tc.file, tc.flags), workDir: dir}
			for i, w := range tc.want.Writable {
				tc.want.Writable[i] = strings.Replace(w, "WORK", dir, 1)
			}
			tc.want.Hidden = []string{filepath.Join(dir, ".env")}
			err := s.resolveSandbox(tc.available)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.sandbox, tc.want) || s.permission.AllowSandboxed != tc.auto || !reflect.DeepEqual(s.diagnostics, tc.diags) {
				t.Errorf("got %+v, auto %v, diagnostics %q; want %+v, auto %v, diagnostics %q",
					s.sandbox, s.permission.AllowSandboxed, s.diagnostics, tc.want, tc.auto, tc.diags)
			}
		})
	}
}

// loadLayers merges a project config file holding project with the
// command line's layer flags, as llmrt loads them in dir.
func loadLayers(t *testing.T, dir string, project, flags config.Layer) *config.Config {
	t.Helper()
	data, err := json.Marshal(project)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(config.ProjectPath(dir)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config.ProjectPath(dir), data, 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	c, err := config.Load(config.Options{Dir: dir, Getenv: func(k string) string {
		return map[string]string{"XDG_CONFIG_HOME": home}[k]
	}, Flags: &flags, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
