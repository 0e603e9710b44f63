//go:build !unix

package intel_test

import "time"

// cpuTime is not measured on this platform; the metric reads 0.
func cpuTime() time.Duration { return 0 }
