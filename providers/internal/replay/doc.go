// Package replay is the test harness every provider adapter shares. It loads
// the recorded real HTTP traffic kept beside the repository in
// ../shared/testdata/provider-recordings (never copied into the repo), serves
// it from an httptest.Server that flushes the body piece by piece the way a
// live API streams it, and logs every request the adapter sent so tests can
// assert on the wire format. It also provides hand-made fault handlers (error
// statuses, cut streams, malformed chunks, a server that never answers) that
// can be scripted in sequence with recordings.
//
// The package is test support: it imports "testing" and is only meant to be
// imported from _test.go files.
package replay
