//go:build unix

package intel_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time. The benchmarks report it
// beside wall time because the machines they run on are shared: CPU time
// is what the matcher costs, wall time also counts the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
