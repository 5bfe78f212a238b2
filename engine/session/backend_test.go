package session_test

import (
	"testing"

	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/engine/session/sessiontest"
)

// TestStoreBackend runs the Backend checks against the file store.
func TestStoreBackend(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T) session.Backend { return &session.Store{Dir: t.TempDir()} })
}
