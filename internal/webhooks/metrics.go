package webhooks

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the delivery worker's Prometheus metrics.
type metrics struct {
	attempts *prometheus.CounterVec
	duration prometheus.Histogram
	fanned   prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		attempts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sentinel_webhook_attempts_total",
			Help: "Webhook delivery attempts by outcome: succeeded, retry, failed (gave up), interrupted."}, []string{"outcome"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sentinel_webhook_attempt_duration_seconds",
			Help:    "Time from sending a webhook delivery to its answer (or error).",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}}),
		fanned: prometheus.NewCounter(prometheus.CounterOpts{Name: "sentinel_webhook_deliveries_created_total",
			Help: "Deliveries written by the fan-out (one per event and subscribed webhook)."}),
	}
	if reg != nil {
		reg.MustRegister(m.attempts, m.duration, m.fanned)
	}
	return m
}

func (m *metrics) attempt(outcome string, d time.Duration) {
	m.attempts.WithLabelValues(outcome).Inc()
	m.duration.Observe(d.Seconds())
}
