// Command benchharness times the llmrt binary as a user meets it: cold
// one-shot runs, --help, a long tool loop against an in-process fake model
// server on loopback, and a long streamed answer per protocol from a
// canned server in a process of its own beside curl reading the same
// bytes, and prints one table of medians with min–max; Codex and Claude
// Code are timed on the same work when given. bench/run.sh builds llmrt
// and runs it.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

func main() {
	bin := flag.String("llmrt", "", "the llmrt binary to time")
	runs := flag.Int("runs", 15, "runs per measurement")
	tokens := flag.Int("tokens", 100_000, "tokens (words) of the streamed answer")
	only := flag.String("only", "", "comma list of rows to run: oneshot,help,chat,acp,loop,stream (default all)")
	canned := flag.String("canned", "", "serve the canned answers this file names (the harness starts itself so)")
	codex := flag.String("codex", "", "the codex binary, to time beside llmrt (none: not timed)")
	claude := flag.String("claude", "", "the claude binary (Claude Code), to time beside llmrt (none: not timed)")
	flag.Parse()
	if *canned != "" {
		serveCanned(*canned)
		return
	}
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "usage: benchharness -llmrt PATH [-runs N]")
		os.Exit(2)
	}
	h := &harness{bin: *bin, runs: *runs, ws: mustTemp()}
	if *codex != "" {
		h.peers = append(h.peers, peer{name: "codex", bin: *codex, protocol: fakellm.OpenAI})
	}
	if *claude != "" {
		h.peers = append(h.peers, peer{name: "claude", bin: *claude, protocol: fakellm.Anthropic})
	}
	defer os.RemoveAll(h.ws)
	want := func(row string) bool { return *only == "" || slices.Contains(strings.Split(*only, ","), row) }

	fmt.Printf("llmrt benchmarks: %d runs each, %s\n\n", *runs, machine())
	fmt.Printf("%-44s %22s %22s %22s\n", "measurement", "median (min–max)", "CPU ms (user+sys)", "peak RSS MB")
	if want("oneshot") {
		h.oneShot()
	}
	if want("help") {
		h.row("llmrt --help", func() sample { return h.exec(nil, nil, "--help") })
	}
	if want("chat") {
		h.row("llmrt chat: start to first frame", h.chatFirstFrame)
	}
	if want("acp") {
		h.row("llmrt acp: start to initialize (idle RSS)", h.acpInitialize)
	}
	if want("loop") {
		h.loop()
	}
	if want("stream") {
		for _, p := range []string{fakellm.OpenAI, fakellm.OpenAIChat, fakellm.Anthropic, fakellm.Gemini, fakellm.Ollama} {
			h.stream(p, *tokens)
		}
	}
}

type harness struct {
	bin   string
	runs  int
	ws    string
	peers []peer
}

// sample is one timed process.
type sample struct {
	wall time.Duration
	cpu  time.Duration // user and system time, its children's included
	rss  int64         // KiB
}

func (h *harness) row(name string, f func() sample) []sample {
	return h.rows(measured{name, f})[0]
}

// measured is one row of the table: its name and one run of it.
type measured struct {
	name string
	run  func() sample
}

// rows times ms run by run in turn (the first of each, then the second of
// each, …), so that rows compared with one another ran under the same load
// on a shared machine, and prints one line per row.
func (h *harness) rows(ms ...measured) [][]sample {
	ss := make([][]sample, len(ms))
	for range h.runs {
		for i, m := range ms {
			ss[i] = append(ss[i], m.run())
		}
	}
	for i, m := range ms {
		h.print(m.name, ss[i])
	}
	return ss
}

// print writes one row: wall time, CPU time and peak RSS, each the median
// (min–max) of ss.
func (h *harness) print(name string, ss []sample) {
	walls := make([]float64, len(ss))
	cpus := make([]float64, len(ss))
	rss := make([]float64, len(ss))
	for i, s := range ss {
		walls[i] = float64(s.wall.Microseconds()) / 1000
		cpus[i] = float64(s.cpu.Microseconds()) / 1000
		rss[i] = float64(s.rss) / 1024
	}
	cpu := ""
	if slices.Max(cpus) > 0 {
		cpu = stat(cpus, "")
	}
	fmt.Printf("%-44s %22s %22s %22s\n", name, stat(walls, "ms"), cpu, stat(rss, ""))
}

// stat renders median (min–max).
func stat(v []float64, unit string) string {
	return fmt.Sprintf("%.1f%s (%.1f–%.1f)", middle(v), unit, slices.Min(v), slices.Max(v))
}

// middle is the median of v.
func middle(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

// exec runs llmrt with args and env, stdout discarded, and measures it.
func (h *harness) exec(env map[string]string, stdout io.Writer, args ...string) sample {
	cmd := exec.Command(h.bin, args...)
	cmd.Dir = h.ws
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "XDG_STATE_HOME="+filepath.Join(h.ws, "state"), "XDG_CONFIG_HOME="+filepath.Join(h.ws, "config"))
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdout = stdout
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	s, err := measure(cmd)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchharness: llmrt %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		os.Exit(1)
	}
	return s
}

// measure runs cmd and returns its wall time and peak memory. The peak
// comes from GNU time when it is installed: a process Go starts shares
// the harness's memory until it execs, and the kernel counts that
// towards the child's peak, so the harness's own size (the fake server
// holds 100,000-token streams) would show as the child's. time forks,
// and its child's peak is its own.
func measure(cmd *exec.Cmd) (sample, error) {
	var peakFile string
	if gnuTime, err := exec.LookPath("time"); err == nil && filepath.IsAbs(gnuTime) {
		f, err := os.CreateTemp("", "peak")
		if err != nil {
			return sample{}, err
		}
		f.Close()
		defer os.Remove(f.Name())
		peakFile = f.Name()
		cmd.Args = append([]string{gnuTime, "-f", "%M", "-o", peakFile, cmd.Path}, cmd.Args[1:]...)
		cmd.Path = gnuTime
	}
	start := time.Now()
	err := cmd.Run()
	s := sample{wall: time.Since(start)}
	if err != nil {
		return s, err
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	s.rss = ru.Maxrss
	s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	if peakFile != "" {
		data, err := os.ReadFile(peakFile)
		if err != nil {
			return s, err
		}
		if kib, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil {
			s.rss = kib
		}
	}
	return s, nil
}

// provider returns the flags and environment that point llmrt at a fake
// server of protocol p.
func provider(p, url string) (env map[string]string, args []string) {
	switch p {
	case fakellm.Anthropic:
		return map[string]string{"ANTHROPIC_API_KEY": "k"}, []string{"--provider", "anthropic", "--base-url", url}
	case fakellm.Gemini:
		return map[string]string{"GEMINI_API_KEY": "k"}, []string{"--provider", "google", "--base-url", url}
	case fakellm.Ollama:
		return nil, []string{"--provider", "ollama", "--base-url", url}
	case fakellm.OpenAIChat:
		return map[string]string{"OPENAI_API_KEY": "k"}, []string{"--provider", "openai", "--api", "chat", "--base-url", url + "/v1"}
	}
	return map[string]string{"OPENAI_API_KEY": "k"}, []string{"--provider", "openai", "--base-url", url + "/v1"}
}

// streamRun returns the environment and arguments of a one-shot run
// against a server of protocol p at url that prints the model's text
// answer as it streams ("stream" is the prompt).
func streamRun(p, url string) (env map[string]string, args []string) {
	env, args = provider(p, url)
	return env, append(append([]string{"run", "--model", "m", "--no-session", "--permission", "auto"}, args...), "--finish", "text", "-p", "stream")
}

func (h *harness) run(p string, turns []scripted.Turn, stdout io.Writer, extra ...string) sample {
	srv := fakellm.Start(p, turns...)
	defer srv.Close()
	env, args := provider(p, srv.URL)
	args = append(append([]string{"run", "--model", "m", "--no-session", "--permission", "auto"}, args...), extra...)
	return h.exec(env, stdout, args...)
}

func finalAnswer(text string) scripted.Turn {
	a, _ := json.Marshal(map[string]string{"answer": text})
	return scripted.Turn{ToolCalls: []scripted.Call{{Name: "final_answer", Arguments: a}}}
}

// oneShot times a run answering one trivial turn ("ok") next to curl
// making the same request to the same canned server, and the peers on the
// same turn.
func (h *harness) oneShot() {
	dir, err := os.MkdirTemp("", "llmrt-bench-canned")
	check(err)
	defer os.RemoveAll(dir)
	routes := h.recordRoutes(fakellm.OpenAI, scripted.Turn{Text: "ok"}, dir)
	url, stop := startCanned(routes, dir)
	defer stop()
	ms := []measured{
		{"cold one-shot run, one trivial turn", func() sample {
			env, args := streamRun(fakellm.OpenAI, url)
			return h.exec(env, nil, args...)
		}},
		{"  curl, same request", func() sample { return curlRoute(routes[len(routes)-1], url, dir) }},
	}
	for _, p := range h.peers {
		ms = append(ms, measured{"  " + p.name + ", same turn", func() sample { return h.peerOneShot(p) }})
	}
	ss := h.rows(ms...)
	ll, curl := ss[0], ss[1]
	ratio(ll, curl)
}

// curlRoute times curl sending r's request to the canned server at url and
// reading the answer.
func curlRoute(r route, url, dir string) sample {
	req := filepath.Join(dir, "req-"+strings.ReplaceAll(strings.Trim(r.Path, "/"), "/", "-")+".json")
	if _, err := os.Stat(req); err != nil {
		check(os.WriteFile(req, []byte(r.Req), 0o644))
	}
	return curlSample("-X", r.Method, "-H", "Content-Type: application/json", "--data-binary", "@"+req, url+r.Path)
}

// curlSample times curl with args, its output discarded.
func curlSample(args ...string) sample {
	cmd := exec.Command("curl", append([]string{"-sS", "-N", "-o", os.DevNull}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	s, err := measure(cmd)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchharness: curl: %v\n%s", err, out.String())
		os.Exit(1)
	}
	return s
}

// loop times a run of 100 model turns, each calling path_exists, and
// reports the time per iteration.
func (h *harness) loop() {
	const n = 100
	turns := make([]scripted.Turn, 0, n)
	for i := range n - 1 {
		a, _ := json.Marshal(map[string]string{"path": fmt.Sprintf("f%d.txt", i)})
		turns = append(turns, scripted.Turn{ToolCalls: []scripted.Call{{Name: "path_exists", Arguments: a}}})
	}
	turns = append(turns, finalAnswer("done"))
	var per []float64
	var rss []float64
	for range h.runs {
		s := h.run(fakellm.OpenAI, turns, nil, "--max-iterations", "200", "-p", "loop")
		per = append(per, float64(s.wall.Microseconds())/1000/n)
		rss = append(rss, float64(s.rss)/1024)
	}
	fmt.Printf("%-44s %22s %22s %22s\n", "tool loop, per iteration (100 iterations)", stat(per, "ms"), "", stat(rss, ""))
}

// stream times a long streamed answer piped to /dev/null next to curl
// fetching the same bytes from the same canned server, and prints the
// ratio. A third row is curl reading the bytes from a file, no server at
// all: curl through the server within a few percent of it shows the
// server is not what is timed.
func (h *harness) stream(p string, tokens int) {
	var b strings.Builder
	for i := range tokens {
		fmt.Fprintf(&b, "w%d ", i%1000)
	}
	turn := scripted.Turn{Text: b.String()}
	dir, err := os.MkdirTemp("", "llmrt-bench-canned")
	check(err)
	defer os.RemoveAll(dir)
	routes := h.recordRoutes(p, turn, dir)
	url, stop := startCanned(routes, dir)
	defer stop()
	streamRoute := routes[len(routes)-1]

	devnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	defer devnull.Close()
	name := fmt.Sprintf("stream %dk tokens, %s", tokens/1000, p)
	ms := []measured{
		{name, func() sample {
			env, args := streamRun(p, url)
			return h.exec(env, devnull, args...)
		}},
		{"  curl, same stream", func() sample { return curlRoute(streamRoute, url, dir) }},
		{"  curl, same bytes from a file (no server)", func() sample { return curlSample("file://" + streamRoute.File) }},
	}
	for _, pe := range h.peers {
		if pe.protocol == p {
			ms = append(ms, measured{"  " + pe.name + ", same stream", func() sample { return h.runPeer(pe, url, "stream", devnull) }})
		}
	}
	ss := h.rows(ms...)
	ll, curl := ss[0], ss[1]
	ratio(ll, curl)
}

// ratio prints how many times curl's time llmrt took: for wall and CPU
// time, the median of the ratios of the runs made one after the other.
func ratio(ll, curl []sample) {
	paired := func(f func(sample) float64) float64 {
		r := make([]float64, len(ll))
		for i := range ll {
			r[i] = f(ll[i]) / f(curl[i])
		}
		return middle(r)
	}
	cpu := func(s sample) float64 { return float64(s.cpu) }
	fmt.Printf("%-44s %22s %22s\n", "  ratio llmrt/curl (median of pairs)",
		fmt.Sprintf("%.2f×", paired(wall)), fmt.Sprintf("%.2f×", paired(cpu)))
}

func wall(s sample) float64 { return float64(s.wall) }

func mustTemp() string {
	d, err := os.MkdirTemp("", "llmrt-bench")
	if err != nil {
		panic(err)
	}
	return d
}

func machine() string {
	out, _ := exec.Command("uname", "-srm").Output()
	return fmt.Sprintf("%d CPUs, %s", runtimeCPUs(), strings.TrimSpace(string(out)))
}
