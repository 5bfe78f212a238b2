package google

import (
	"os"
	"testing"

	"github.com/llmrt/llmrt/providers/internal/replay"
)

func TestMain(m *testing.M) { os.Exit(replay.Main(m)) }
