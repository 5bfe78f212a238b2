package engine_test

import (
	"os"
	"testing"

	"github.com/llmrt/llmrt/internal/recordings"
)

// TestMain says once when the tests over recorded provider traffic were
// skipped for want of the recordings.
func TestMain(m *testing.M) { os.Exit(recordings.Main(m)) }
