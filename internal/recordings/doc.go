// Package recordings finds the recorded provider traffic the tests replay:
// ../shared/testdata/provider-recordings beside the module's root
// directory, a folder that is never copied into the repository. A fresh
// clone has no such folder, so a test that needs it skips with one message
// naming the missing path; CI, which has the folder, sets
// LLMRT_REQUIRE_RECORDINGS=1 so that a test that would skip fails instead
// and a misplaced folder cannot pass as green.
//
// The package is test support: it imports "testing" and is only meant to
// be imported from _test.go files and from the replay harness.
package recordings
