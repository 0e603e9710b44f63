package sentinel

import "time"

// Job states.
const (
	JobAvailable = "available"
	JobRunning   = "running"
	JobCompleted = "completed"
	JobFailed    = "failed" // gave up after MaxAttempts
)

// Job is one durable unit of work.
type Job struct {
	ID          int64
	Kind        string
	Args        []byte
	UniqueKey   string
	State       string
	Attempts    int
	MaxAttempts int
	RunAfter    time.Time
	LeaseUntil  time.Time
	LastError   string
}

// EnqueueOptions tune one enqueue.
type EnqueueOptions struct {
	// UniqueKey, when set, makes the enqueue a no-op while another job with
	// the same key is available or running.
	UniqueKey string
	// RunAfter delays the first attempt.
	RunAfter time.Time
	// MaxAttempts defaults to 25.
	MaxAttempts int
}
