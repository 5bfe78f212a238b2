// Command llmrt is a terminal agent built on the llmrt runtime.
package main

import (
	"os"

	"github.com/llmrt/llmrt/cmd"
)

func main() {
	os.Exit(cmd.Main())
}
