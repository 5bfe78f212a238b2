package config

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ReadRegular reads the regular file at path and refuses anything else
// without reading it. Opening a named pipe for reading waits for a writer,
// so a project holding one under a name llmrt reads at start-up (.env,
// .llmrt/config.json, .mcp.json) would hang it before the run begins; the
// open here never blocks, and the file's type is checked on what was
// opened. A missing file is an fs.ErrNotExist error; a file of another
// kind is a *FileError naming the kind.
func ReadRegular(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &FileError{Path: path, Msg: "is " + fileKind(info.Mode()) + ", not a regular file; llmrt does not read it"}
	}
	return io.ReadAll(f)
}

// fileKind names a file type that is not a regular file.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// fileError is err as a *FileError about path, unless it is one already.
func fileError(path string, err error) error {
	var fe *FileError
	if errors.As(err, &fe) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &FileError{Path: path, Msg: err.Error()}
}
