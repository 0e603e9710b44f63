//go:build !race

package webhooks_test

// raceEnabled is true under the race detector.
const raceEnabled = false
