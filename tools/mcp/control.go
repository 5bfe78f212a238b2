package mcp

import (
	"context"
	"fmt"
)

// The controls the chat's /mcp panel uses besides Login (auth.go):
// reconnect, enable and disable a server for the session.

// StateDisabled is the state of a server disabled for the session.
const StateDisabled = "disabled"

// Config returns the configuration of the server called name.
func (s *Source) Config(name string) (Server, bool) {
	c, err := s.server(name)
	if err != nil {
		return Server{}, false
	}
	return c.cfg, true
}

// Reconnect ends the server's connection (and process) and starts it
// again, within its start-up timeout; the outcome is its status. A
// disabled server is enabled by it.
func (s *Source) Reconnect(ctx context.Context, name string) error {
	c, err := s.server(name)
	if err != nil {
		return err
	}
	c.close()
	c.mu.Lock()
	c.state, c.err = "starting", ""
	c.mu.Unlock()
	c.start(ctx)
	c.gen.Add(1) // the tool list is a new one, whatever it holds
	if st := c.status(); st.State != "ready" {
		return fmt.Errorf("mcp server %s: %s", name, st.Err)
	}
	return nil
}

// SetEnabled enables or disables the server for the rest of the session:
// a disabled one is stopped and its tools, resources and prompts are no
// longer offered; enabling it starts it again. The config files are not
// changed.
func (s *Source) SetEnabled(ctx context.Context, name string, on bool) error {
	c, err := s.server(name)
	if err != nil {
		return err
	}
	if on {
		if c.status().State == "ready" {
			return nil
		}
		return s.Reconnect(ctx, name)
	}
	c.close()
	c.mu.Lock()
	c.state, c.err = StateDisabled, ""
	c.mu.Unlock()
	c.gen.Add(1)
	return nil
}
