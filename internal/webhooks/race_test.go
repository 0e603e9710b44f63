//go:build race

package webhooks_test

// raceEnabled is true under the race detector, which slows the pure-Go
// SQLite engine about eightfold; the longest tests scale down under it.
const raceEnabled = true
