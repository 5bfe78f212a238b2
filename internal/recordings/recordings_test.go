package recordings

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// outcomeTB records how check ended t instead of ending the test.
type outcomeTB struct {
	testing.TB
	how, msg string
}

func (o *outcomeTB) Helper() {}

func (o *outcomeTB) Skipf(format string, args ...any) {
	o.how, o.msg = "skip", fmt.Sprintf(format, args...)
	panic(o)
}

func (o *outcomeTB) Fatalf(format string, args ...any) {
	o.how, o.msg = "fail", fmt.Sprintf(format, args...)
	panic(o)
}

// run calls check and reports how it ended: "ok", "skip" or "fail".
func run(dir string) (how, msg string) {
	o := &outcomeTB{how: "ok"}
	defer func() {
		if r := recover(); r != nil && r != o {
			panic(r)
		}
		how, msg = o.how, o.msg
	}()
	check(o, dir)
	return
}

func TestCheck(t *testing.T) {
	present, missing := t.TempDir(), filepath.Join(t.TempDir(), "absent")
	tests := []struct {
		dir, require, want string
	}{
		{present, "", "ok"},
		{present, "1", "ok"},
		{missing, "", "skip"},
		{missing, "0", "skip"},
		{missing, "1", "fail"},
		{missing, "true", "fail"},
		{missing, "yes", "fail"}, // not a boolean: said, not taken for no
	}
	for _, tt := range tests {
		t.Setenv(RequireEnv, tt.require)
		how, msg := run(tt.dir)
		if how != tt.want {
			t.Errorf("%s=%q, folder %s: got %s (%s), want %s", RequireEnv, tt.require, tt.dir, how, msg, tt.want)
		}
		if how != "ok" && tt.require != "yes" && !strings.Contains(msg, tt.dir) {
			t.Errorf("%s=%q: the message %q should name the folder %s", RequireEnv, tt.require, msg, tt.dir)
		}
	}
}
