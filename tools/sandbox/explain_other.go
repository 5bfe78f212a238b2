//go:build !linux

package sandbox

import "errors"

// alsoReadOnly adds nothing: only Linux commands have read-only files in
// the workspace.
func alsoReadOnly() string { return "" }

// privateNote explains nothing: only Linux commands get private
// directories.
func privateNote(string, Policy) string { return "" }

// Namespaces reports nothing: only Linux commands run in namespaces, and
// elsewhere there is nothing to fall back from.
func Namespaces() error { return nil }

// Notice says nothing: see Namespaces.
func Notice() string { return "" }

// NamespacesRefused says why commands run without namespaces: they never
// run in them here.
func NamespacesRefused() error { return errors.New("only Linux runs commands in namespaces") }
