//go:build !race

package cmd_test

// raceEnabled: the tests run without the race detector, and so does the
// binary they run.
const raceEnabled = false
