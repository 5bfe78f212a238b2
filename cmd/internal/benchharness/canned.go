package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// A canned server answers each path with bytes fixed before it starts,
// from a process of its own: the stream rows time llmrt and curl reading
// a response, and a server rendering 100,000 events as it goes, on the
// harness's own cores, would be timed with them (it was: curl through the
// in-process fake server took 4–10 times as long as through a fast one).

// route is one canned answer: a request to path gets body with ctype.
type route struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Ctype  string `json:"ctype"`
	File   string `json:"file"` // the body
	Req    string `json:"req"`  // the request body llmrt sent, for curl to send
}

// cannedSpec is what the canned server process reads.
type cannedSpec struct {
	Routes []route `json:"routes"`
}

// recordRoutes learns what llmrt asks of a fake server of protocol p that
// answers every request with turn, and what the server answers: llmrt is
// run once against it, then each request it made is sent again and the
// answer kept in dir. The stream's route (the largest answer) is last.
func (h *harness) recordRoutes(p string, turn scripted.Turn, dir string) []route {
	srv := fakellm.Start(p, turn, turn, turn, turn)
	defer srv.Close()
	env, args := streamRun(p, srv.URL)
	h.exec(env, io.Discard, args...)
	var routes []route
	for i, r := range srv.Requests() {
		req, err := http.NewRequest(r.Method, srv.URL+r.Path+query(r.Query), bytes.NewReader(r.Body))
		check(err)
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		check(err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		check(err)
		if resp.StatusCode != http.StatusOK {
			fmt.Fprintf(os.Stderr, "benchharness: recording %s %s: %s\n%s", r.Method, r.Path, resp.Status, body)
			os.Exit(1)
		}
		file := filepath.Join(dir, fmt.Sprintf("%s-%d.body", p, i))
		check(os.WriteFile(file, body, 0o644))
		routes = append(routes, route{Method: r.Method, Path: r.Path, Ctype: resp.Header.Get("Content-Type"), File: file, Req: string(r.Body)})
	}
	size := func(r route) int64 {
		fi, err := os.Stat(r.File)
		check(err)
		return fi.Size()
	}
	for i := range routes {
		if size(routes[i]) > size(routes[len(routes)-1]) {
			routes[i], routes[len(routes)-1] = routes[len(routes)-1], routes[i]
		}
	}
	return routes
}

func query(q string) string {
	if q == "" {
		return ""
	}
	return "?" + q
}

// startCanned starts the canned server process for routes and returns its
// base URL and a function that stops it.
func startCanned(routes []route, dir string) (url string, stop func()) {
	spec := filepath.Join(dir, "spec.json")
	data, err := json.Marshal(cannedSpec{Routes: routes})
	check(err)
	check(os.WriteFile(spec, data, 0o644))
	self, err := os.Executable()
	check(err)
	cmd := exec.Command(self, "-canned", spec)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	check(err)
	check(cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchharness: the canned server did not start: %v\n", err)
		os.Exit(1)
	}
	return strings.TrimSpace(line), func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
}

// serveCanned is the canned server process: it serves spec's routes on a
// loopback port, which it prints, until killed. Each answer is one write
// of bytes held in memory.
func serveCanned(spec string) {
	data, err := os.ReadFile(spec)
	check(err)
	var s cannedSpec
	check(json.Unmarshal(data, &s))
	type answer struct {
		ctype string
		body  []byte
	}
	answers := map[string]answer{}
	for _, r := range s.Routes {
		body, err := os.ReadFile(r.File)
		check(err)
		answers[r.Method+" "+r.Path] = answer{r.Ctype, body}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	fmt.Printf("http://%s\n", ln.Addr())
	os.Stdout.Close()
	check(http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		a, ok := answers[r.Method+" "+r.URL.Path]
		if !ok {
			http.Error(w, "benchharness: nothing canned for "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		if a.ctype != "" {
			w.Header().Set("Content-Type", a.ctype)
		}
		_, _ = w.Write(a.body)
	})))
}
