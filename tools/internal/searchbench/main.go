// Command searchbench generates the search benchmark tree and runs
// search_files over it, for bench/search.sh:
//
//	searchbench -gen DIR                  write the tree into DIR
//	searchbench -dir DIR [-content RE]    search DIR, print the summary line
//	            [-count] [-v] [-n N] [-cpuprofile FILE]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
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
	count := flag.Bool("count", false, "print only the number of matching lines")
	n := flag.Int("n", 1, "number of searches")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the searches to this file")
	flag.Parse()
	if err := run(*gen, *dir, *content, *verbose, *count, *n, *profile); err != nil {
		fmt.Fprintln(os.Stderr, "searchbench:", err)
		os.Exit(1)
	}
}

func run(gen, dir, content string, verbose, count bool, n int, profile string) error {
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
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	// A max_results above any real count makes search_files scan every
	// file, the same work as ripgrep printing every match.
	args, _ := json.Marshal(map[string]any{"content": content, "max_results": 1 << 30})
	var res tools.Result
	for range max(n, 1) {
		res, err = search.Execute(context.Background(), args)
		if err != nil {
			return err
		}
	}
	if res.IsError {
		return fmt.Errorf("search_files: %s", res.Content)
	}
	summary := res.Content[strings.LastIndexByte(res.Content, '\n')+1:]
	switch {
	case verbose:
		fmt.Println(res.Content)
	case count:
		// "[N matching lines in …" or "[showing the first K of N matching lines …"
		m := regexp.MustCompile(`(\d+) matching lines?`).FindStringSubmatch(summary)
		if m == nil {
			m = []string{"", "0"}
		}
		fmt.Println(m[1])
	default:
		fmt.Println(summary)
	}
	return nil
}
