// Command fakeserve serves a script of the scripted provider over a real
// provider's wire protocol on loopback, for trying llmrt by hand against
// replies that never change (the end-to-end tests use the same server):
//
//	go run ./cmd/internal/fakeserve -protocol openai examples/hello.json
//	llmrt chat --provider openai --base-url http://127.0.0.1:PORT/v1 --model m
//
// It prints the base URL to use and serves until interrupted; requests
// past the script's last turn get an error naming the problem.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

func main() {
	protocol := flag.String("protocol", fakellm.OpenAI,
		"wire protocol: openai (the Responses API and Chat Completions), openai-chat (Chat Completions only), anthropic, gemini or ollama")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: fakeserve [-protocol openai|openai-chat|anthropic|gemini|ollama] SCRIPT.json")
		os.Exit(2)
	}
	script, err := scripted.Load(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeserve:", err)
		os.Exit(2)
	}
	srv := fakellm.Start(*protocol, script.Turns...)
	defer srv.Close()
	url := srv.URL
	if *protocol == fakellm.OpenAI || *protocol == fakellm.OpenAIChat {
		url += "/v1"
	}
	fmt.Println(url)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	<-stop
}
