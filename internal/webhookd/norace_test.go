//go:build !race

package webhookd_test

// raceEnabled is true under the race detector.
const raceEnabled = false
