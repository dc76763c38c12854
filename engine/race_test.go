//go:build race

package engine_test

// raceEnabled is true when the race detector is on; it slows the pure-Go
// SQLite driver by more than an order of magnitude.
const raceEnabled = true
