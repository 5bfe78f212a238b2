package cmd

import (
	"errors"
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
// below the flags.
func TestResolveSandbox(t *testing.T) {
	yes := func() error { return nil }
	no := func() error { return errors.New("this kernel does not offer Landlock; commands run unconfined") }
	str := func(s string) *string { return &s }
	on := true
	cases := []struct {
		name      string
		flags     map[string]bool
		sf        sharedFlags
		file      config.File
		available func() error
		want      sandbox.Policy
		auto      bool
		diags     []string
		err       string
	}{
		{name: "default where supported", available: yes, want: sandbox.Policy{Mode: sandbox.WorkspaceWrite}},
		{name: "default where unsupported", available: no, want: sandbox.Policy{Mode: sandbox.Off},
			diags: []string{"sandbox: this kernel does not offer Landlock; commands run unconfined"}},
		{name: "asked for where unsupported", flags: map[string]bool{"sandbox": true}, sf: sharedFlags{sandbox: "read-only"}, available: no, err: "use --sandbox off"},
		{name: "off where unsupported", flags: map[string]bool{"sandbox": true}, sf: sharedFlags{sandbox: "off"}, available: no, want: sandbox.Policy{Mode: sandbox.Off}},
		{name: "unknown mode", file: config.File{Sandbox: str("strict")}, available: yes, err: `unknown sandbox mode "strict"`},
		{name: "the flag over the config", flags: map[string]bool{"sandbox": true}, sf: sharedFlags{sandbox: "read-only"}, file: config.File{Sandbox: str("off")},
			available: yes, want: sandbox.Policy{Mode: sandbox.ReadOnly}},
		{name: "config network and writable paths", file: config.File{SandboxNetwork: &on, SandboxWritable: []string{"cache", "/opt/x"}}, available: yes,
			want: sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: true, Writable: []string{"/w/cache", "/opt/x"}}},
		{name: "--sandbox-network=false over the config", flags: map[string]bool{"sandbox-network": true}, file: config.File{SandboxNetwork: &on}, available: yes,
			want: sandbox.Policy{Mode: sandbox.WorkspaceWrite}},
		{name: "sandboxed commands auto", file: config.File{SandboxedCommands: str("auto")}, available: yes, want: sandbox.Policy{Mode: sandbox.WorkspaceWrite}, auto: true},
		{name: "sandboxed commands auto, sandbox off", file: config.File{SandboxedCommands: str("auto"), Sandbox: str("off")}, available: yes, want: sandbox.Policy{Mode: sandbox.Off}},
		{name: "sandboxed commands unknown", file: config.File{SandboxedCommands: str("always")}, available: yes, err: "is not ask or auto"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &settings{cfg: &config.Config{File: tc.file}, workDir: filepath.FromSlash("/w")}
			err := s.resolveSandbox(func(f string) bool { return tc.flags[f] }, &tc.sf, tc.available)
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
