// Package replay is the test harness every provider adapter shares. It loads
// the recorded real HTTP traffic kept beside the repository in
// ../shared/testdata/provider-recordings (never copied into the repo), serves
// it from an httptest.Server that flushes the body piece by piece the way a
// live API streams it, and logs every request the adapter sent so tests can
// assert on the wire format. It also provides hand-made fault handlers (error
// statuses, cut streams, malformed chunks, a server that never answers) that
// can be scripted in sequence with recordings.
//
// The checks every adapter's tests repeat live here too, so one change
// reaches all four: Run streams a call into a reply and its chunks;
// CheckReply and its parts assert on a replayed reply; a Target runs tables
// of FaultCases through providers.RetryPolicy and the shared retry-after,
// cancellation and connection-refused checks. What is particular to one
// adapter (its wire format, its recordings, the shape of what it sends)
// stays in that adapter's tests.
//
// The package is test support: it imports "testing" and is only meant to be
// imported from _test.go files.
package replay
