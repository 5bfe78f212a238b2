package cmd

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/tools/sandbox"
)

// applySandbox resolves --sandbox, --sandbox-network and the sandbox_*
// config keys. Without a choice, commands are confined where the OS can
// confine them, and a diagnostic says so where it cannot.
func (s *settings) applySandbox(cmd *cobra.Command, sf *sharedFlags) error {
	return s.resolveSandbox(cmd.Flags().Changed, sf, sandbox.Available)
}

// resolveSandbox is applySandbox with the platform's check passed in.
func (s *settings) resolveSandbox(changed func(string) bool, sf *sharedFlags, available func() error) error {
	mode := pick(changed("sandbox"), sf.sandbox, s.cfg.Sandbox)
	m := sandbox.WorkspaceWrite
	if mode == "" {
		if err := available(); err != nil {
			s.diagnostics = append(s.diagnostics, "sandbox: "+err.Error())
			m = sandbox.Off
		}
	} else {
		var err error
		if m, err = sandbox.ParseMode(mode); err != nil {
			return usageErrorf("--sandbox: %v", err)
		}
		if m != sandbox.Off {
			if err := available(); err != nil {
				return usageErrorf("--sandbox %s: %v (use --sandbox off)", m, err)
			}
		}
	}
	s.sandbox = sandbox.Policy{Mode: m, Network: sf.sandboxNetwork}
	if !changed("sandbox-network") && s.cfg.SandboxNetwork != nil {
		s.sandbox.Network = *s.cfg.SandboxNetwork
	}
	for _, p := range s.cfg.SandboxWritable {
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.workDir, p)
		}
		s.sandbox.Writable = append(s.sandbox.Writable, p)
	}
	switch v := pick(false, "", s.cfg.SandboxedCommands); v {
	case "", "ask":
	case "auto":
		s.permission.AllowSandboxed = s.sandbox.Confined()
	default:
		return usageErrorf("config key sandboxed_commands: %q is not ask or auto", v)
	}
	return nil
}
