package tools

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// notRegular returns a refusal naming what path is when info describes a
// file the file tools must not open: a named pipe blocks a reader until a
// writer comes, a device can be endless or have side effects, a socket
// cannot be opened at all. It returns "" for regular files and
// directories.
func notRegular(path string, info fs.FileInfo) string {
	m := info.Mode()
	var kind string
	switch {
	case m.IsRegular(), m.IsDir():
		return ""
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeCharDevice != 0:
		kind = "a character device"
	case m&fs.ModeDevice != 0:
		kind = "a block device"
	default:
		kind = "not a regular file (" + m.Type().String() + ")"
	}
	return fmt.Sprintf("refused: %s is %s; file tools only read and write regular files", path, kind)
}

// readAllFrom reads a whole file of the workspace through its os.Root.
func readAllFrom(ws *Workspace, abs string) ([]byte, error) {
	f, err := ws.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The caller checked the path; this checks what was opened, which a
	// swap since could have made a device that never ends.
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		if err == nil {
			err = errors.New(notRegular(ws.Rel(abs), info))
		}
		return nil, err
	}
	return io.ReadAll(f)
}

// openNoBlock opens abs for reading without ever blocking: a named pipe
// swapped in after a check opens at once instead of waiting for a writer,
// and the caller checks the opened file's type with Stat.
func openNoBlock(abs string) (*os.File, error) {
	return os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
