// Command searchbench generates the search benchmark tree and runs
// search_files over it, for bench/search.sh:
//
//	searchbench -gen DIR            write the tree into DIR
//	searchbench -dir DIR [-content RE] [-v]
//	                                search DIR once, print the summary line
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/internal/treegen"
)

func main() {
	gen := flag.String("gen", "", "write the benchmark tree into this directory")
	dir := flag.String("dir", "", "directory to search")
	content := flag.String("content", treegen.BenchRegex, "regular expression to search for")
	verbose := flag.Bool("v", false, "print the whole result")
	profile := flag.String("cpuprofile", "", "write a CPU profile of -n searches to this file")
	n := flag.Int("n", 1, "number of searches")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "searchbench:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	for range *n {
		if err := run(*gen, *dir, *content, *verbose); err != nil {
			fmt.Fprintln(os.Stderr, "searchbench:", err)
			os.Exit(1)
		}
	}
}

func unused() {
	var gen, dir, content string
	var verbose bool
	if err := run(gen, dir, content, verbose); err != nil {
		fmt.Fprintln(os.Stderr, "searchbench:", err)
		os.Exit(1)
	}
}

func run(gen, dir, content string, verbose bool) error {
	if gen != "" {
		return treegen.Write(gen, treegen.Default)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		return err
	}
	var search tools.Tool
	for _, t := range tools.Builtins(ws, tools.Options{}) {
		if t.Name == "search_files" {
			search = t
		}
	}
	// A max_results above any real count makes search_files scan every
	// file, the same work as ripgrep printing every match.
	args, _ := json.Marshal(map[string]any{"content": content, "max_results": 1 << 30})
	res, err := search.Execute(context.Background(), args)
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("search_files: %s", res.Content)
	}
	if verbose {
		fmt.Println(res.Content)
		return nil
	}
	fmt.Println(res.Content[strings.LastIndexByte(res.Content, '\n')+1:])
	return nil
}
