package mcp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// nonAuthScenarios are the client scenarios of the pinned suite that do
// not need OAuth; each must run and pass.
var nonAuthScenarios = []string{"initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"}

// TestConformanceSuite runs the official MCP client conformance suite
// (every client scenario, --suite all) against llmrt's client
// (internal/conformanceclient). Every non-auth scenario must pass; an auth
// scenario may fail only if testdata/conformance-baseline.yml lists it,
// and one listed there that passes must be removed from it. A scenario
// that made no checks counts as failed.
func TestConformanceSuite(t *testing.T) {
	dir := npmDir(t)
	bin := filepath.Join(t.TempDir(), "conformanceclient")
	if out, err := exec.Command("go", "build", "-o", bin, "./internal/conformanceclient").CombinedOutput(); err != nil {
		t.Fatalf("build the conformance client: %v\n%s", err, out)
	}
	baselineFile, _ := filepath.Abs(filepath.Join("testdata", "conformance-baseline.yml"))
	results := t.TempDir()
	cmd := exec.Command(filepath.Join(dir, "node_modules", ".bin", "node"),
		filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"),
		"client", "--command", bin, "--suite", "all", "--expected-failures", baselineFile, "-o", results)
	cmd.Dir = t.TempDir()
	out, runErr := cmd.CombinedOutput()

	checks := readChecks(t, results)
	baseline := readBaseline(t, baselineFile)
	for _, s := range nonAuthScenarios {
		if _, ok := checks[s]; !ok {
			t.Errorf("scenario %s did not run; scenarios run: %v", s, keys(checks))
		}
	}
	for s, c := range checks {
		auth := strings.HasPrefix(s, "auth/")
		switch {
		case c.passed+c.failed == 0:
			t.Errorf("scenario %s made no checks, want at least one", s)
		case c.failed > 0 && !auth:
			t.Errorf("scenario %s: %d of %d checks failed (%s), want all to pass", s, c.failed, c.passed+c.failed, strings.Join(c.failures, "; "))
		case c.failed > 0 && !baseline[s]:
			t.Errorf("auth scenario %s regressed: %d checks failed (%s); it is not in the baseline", s, c.failed, strings.Join(c.failures, "; "))
		case c.failed == 0 && baseline[s]:
			t.Errorf("auth scenario %s passes now: remove it from %s", s, baselineFile)
		}
	}
	for s := range baseline {
		if !strings.HasPrefix(s, "auth/") {
			t.Errorf("the baseline lists %s, want auth scenarios only", s)
		}
		if _, ok := checks[s]; !ok {
			t.Errorf("the baseline lists %s, which did not run", s)
		}
	}
	if runErr != nil && !t.Failed() {
		t.Errorf("the suite exited with %v, want 0:\n%s", runErr, out)
	}
	if t.Failed() {
		t.Logf("suite output:\n%s", out)
	}
}

// scenarioChecks counts one scenario's conformance checks (INFO lines are
// not checks).
type scenarioChecks struct {
	passed, failed int
	failures       []string
}

// resultDir is a scenario's results directory: its name, a timestamp.
var resultDir = regexp.MustCompile(`^(.+)-\d{4}-\d{2}-\d{2}T[0-9-]+Z$`)

// readChecks reads every checks.json under dir, by scenario.
func readChecks(t *testing.T, dir string) map[string]scenarioChecks {
	t.Helper()
	out := map[string]scenarioChecks{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.Name() != "checks.json" {
			return err
		}
		rel, _ := filepath.Rel(dir, filepath.Dir(path))
		m := resultDir.FindStringSubmatch(filepath.ToSlash(rel))
		if m == nil {
			t.Errorf("unexpected results directory %s", rel)
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var list []struct {
			ID, Status, ErrorMessage string
		}
		if err := json.Unmarshal(data, &list); err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		c := out[m[1]]
		for _, ck := range list {
			switch ck.Status {
			case "SUCCESS":
				c.passed++
			case "FAILURE", "WARNING":
				c.failed++
				c.failures = append(c.failures, ck.ID+": "+ck.ErrorMessage)
			}
		}
		out[m[1]] = c
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("the suite left no results in %s", dir)
	}
	return out
}

func readBaseline(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Client []string `yaml:"client"`
	}
	if err := yaml.Unmarshal(data, &b); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string]bool{}
	for _, s := range b.Client {
		out[s] = true
	}
	return out
}

func keys(m map[string]scenarioChecks) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
