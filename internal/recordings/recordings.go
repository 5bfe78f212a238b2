package recordings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// RequireEnv names the variable that turns a missing recordings folder
// from a skip into a failure: set to 1 (any value strconv.ParseBool takes
// as true), every test that needs the recordings fails without them.
// .ci/run sets it.
const RequireEnv = "LLMRT_REQUIRE_RECORDINGS"

// Dir returns the recordings folder. When the folder is absent it skips t,
// or fails t when RequireEnv is set.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := path()
	if err != nil {
		t.Fatalf("recordings: %v", err)
	}
	return check(t, dir)
}

// check returns dir when it exists, and otherwise skips or fails t as Dir
// does.
func check(t testing.TB, dir string) string {
	t.Helper()
	missing, err := absent(dir)
	if err != nil {
		t.Fatalf("recordings: %v", err)
	}
	if !missing {
		return dir
	}
	required, err := required()
	if err != nil {
		t.Fatalf("recordings: %v", err)
	}
	if required {
		t.Fatalf("provider recordings not found at %s, and %s is set: the folder belongs in ../shared beside the repository", dir, RequireEnv)
	}
	t.Skipf("provider recordings not found at %s; they live in ../shared beside the repository", dir)
	return ""
}

// Main runs a package's tests (call it from TestMain) and, when the
// recordings are absent and not required, says once on stderr that the
// tests needing them were skipped, instead of a skip per test that only
// -v shows. When they are required, those tests failed and said why.
func Main(m *testing.M) int {
	code := m.Run()
	dir, err := path()
	if err != nil {
		return code
	}
	if missing, _ := absent(dir); missing {
		if req, err := required(); err == nil && !req {
			fmt.Fprintf(os.Stderr, "recordings: %s not found: the tests of this package that replay recorded provider traffic were skipped (the recordings live in ../shared beside the repository; CI sets %s=1 to fail instead)\n", dir, RequireEnv)
		}
	}
	return code
}

// path is where the recordings live: shared/testdata beside the module's
// root directory, the nearest directory above the working directory that
// holds go.mod (go test runs a package's tests in its own directory).
func path() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "", fmt.Errorf("no go.mod in %s or above", wd)
		}
		root = parent
	}
	return filepath.Join(filepath.Dir(root), "shared", "testdata", "provider-recordings"), nil
}

// absent reports whether dir does not exist; another error reading it is
// returned, not taken for absence.
func absent(dir string) (bool, error) {
	_, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	return false, err
}

// required reports whether RequireEnv asks for the recordings.
func required() (bool, error) {
	v := os.Getenv(RequireEnv)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q: want 1 or 0", RequireEnv, v)
	}
	return b, nil
}
