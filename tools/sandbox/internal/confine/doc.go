// Package confine holds what confines one process on Linux: the
// filesystem view a set of new namespaces gives it (Mount), Landlock,
// the socket filter and the capabilities it keeps (Restrict), and the
// helper that puts them together for a command.
//
// The helper is the executable that links this package, run again under
// the name HelperName with a Config in its arguments (Config.Argv). This
// package's init enters it before main, and before any package that does
// not have to be ready first: the package imports the standard library's
// lowest layer only (no fmt, no reflection, not golang.org/x/sys), so
// that a helper starts in about the time the Go runtime takes, whatever
// else the executable holds. Keep it so: an import that needs reflection
// makes every confined command pay for the executable's other packages.
//
// The tools/sandbox package plans the view and starts the helper; this
// package only carries the plan out.
package confine
