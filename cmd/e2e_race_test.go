//go:build race

package cmd_test

// raceEnabled: the tests run under the race detector, so TestMain builds
// the binary they run with it too, and the host's, the chat's and the
// recorder's goroutines are checked end to end.
const raceEnabled = true
