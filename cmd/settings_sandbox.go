package cmd

import (
	"path/filepath"

	"github.com/llmrt/llmrt/tools/sandbox"
)

// applySandbox checks the sandbox options. Without a choice, commands are
// confined where the OS can confine them, and a diagnostic says so where
// it cannot.
func (s *settings) applySandbox() error { return s.resolveSandbox(sandbox.Available) }

// resolveSandbox is applySandbox with the platform's check passed in.
func (s *settings) resolveSandbox(available func() error) error {
	c := s.cfg
	m := sandbox.WorkspaceWrite
	if c.Sandbox == nil {
		if err := available(); err != nil {
			s.diagnostics = append(s.diagnostics, "sandbox: "+err.Error())
			m = sandbox.Off
		}
	} else {
		var err error
		if m, err = sandbox.ParseMode(*c.Sandbox); err != nil {
			return usageErrorf("%s: %v", c.Where("sandbox"), err)
		}
		if m != sandbox.Off {
			if err := available(); err != nil {
				return usageErrorf("%s %s: %v (use --sandbox off)", c.Where("sandbox"), m, err)
			}
		}
	}
	// Where a setting of the system refuses the namespaces commands run
	// in, the second layer alone confines them: said once, here. (A
	// refusal no setting names is said with the first command's result.)
	if m != sandbox.Off {
		if err := sandbox.Namespaces(); err != nil {
			s.diagnostics = append(s.diagnostics, "sandbox: "+err.Error())
		}
	}
	// The .env config.Load read keys from is hidden from confined
	// commands: rev or base64 would give the model what read_file redacts.
	s.sandbox = sandbox.Policy{Mode: m, Network: isTrue(c.SandboxNetwork), Writable: inDir(s.workDir, c.SandboxWritable),
		Hidden: []string{filepath.Join(s.workDir, ".env")}}
	switch v := deref(c.SandboxedCommands); v {
	case "", "ask":
	case "auto":
		s.permission.AllowSandboxed = s.sandbox.Confined()
	default:
		return usageErrorf("%s: %q is not ask or auto", c.Where("sandboxed_commands"), v)
	}
	return nil
}
