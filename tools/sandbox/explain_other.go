//go:build !linux

package sandbox

// alsoReadOnly adds nothing: only Linux commands have read-only files in
// the workspace.
func alsoReadOnly() string { return "" }

// privateNote explains nothing: only Linux commands get private
// directories.
func privateNote(string, Policy) string { return "" }
