package mcp

import (
	"context"
	"errors"
)

// What a host (the chat's /mcp) does to one server, by name. Each tells
// OnStatus the outcome; the tool list changes on the next Tools call.

// Reconnect ends the server's connection (and process) and starts it
// again, its restart count set back to zero. It returns why the server
// did not come back; the server then stands failed.
func (s *Source) Reconnect(ctx context.Context, name string) error {
	c, err := s.server(name)
	if err != nil {
		return err
	}
	c.reviveMu.Lock()
	defer c.reviveMu.Unlock()
	if s.closed.Load() {
		return errors.New("the MCP servers are closed")
	}
	c.mu.Lock()
	c.restarts = 0
	c.mu.Unlock()
	err = c.reconnect(ctx)
	c.gen.Add(1)
	return err
}

// Enable starts a disabled server (or one that stands failed) and offers
// its tools again.
func (s *Source) Enable(ctx context.Context, name string) error {
	return s.Reconnect(ctx, name)
}

// Disable stops a server and takes its tools from the list offered to the
// model until Enable.
func (s *Source) Disable(name string) error {
	c, err := s.server(name)
	if err != nil {
		return err
	}
	c.reviveMu.Lock()
	defer c.reviveMu.Unlock()
	c.close()
	c.mu.Lock()
	c.state, c.err, c.pid = StateDisabled, "", 0
	c.mu.Unlock()
	c.gen.Add(1)
	if s.OnStatus != nil {
		s.OnStatus(c.status())
	}
	return nil
}

// SetEnabled enables or disables the server for the rest of the session
// (the chat's /mcp enable|disable); the config files are not changed.
func (s *Source) SetEnabled(ctx context.Context, name string, on bool) error {
	if on {
		return s.Enable(ctx, name)
	}
	return s.Disable(name)
}

// Config returns the configuration of the server called name.
func (s *Source) Config(name string) (Server, bool) {
	c, err := s.server(name)
	if err != nil {
		return Server{}, false
	}
	return c.cfg, true
}
