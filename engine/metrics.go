package engine

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/store"
)

// Metrics are the engine's Prometheus metrics. A nil *Metrics records nothing.
type Metrics struct {
	lag         *prometheus.HistogramVec
	duration    *prometheus.HistogramVec
	outcomes    *prometheus.CounterVec
	claimErrors prometheus.Counter
	batchSizes  *prometheus.HistogramVec
}

// NewMetrics registers the engine's metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		lag: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gozie_trigger_lag_seconds",
			Help:    "Time from a trigger's due time to its claim.",
			Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"kind"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gozie_trigger_handler_seconds",
			Help:    "Time spent in trigger handlers.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 10),
		}, []string{"kind"}),
		outcomes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gozie_triggers_total",
			Help: "Triggers handled, by kind and outcome (ok, error, gave_up: its attempts used up).",
		}, []string{"kind", "outcome"}),
		claimErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gozie_trigger_claim_errors_total",
			Help: "Failed claim statements.",
		}),
		batchSizes: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gozie_trigger_batch_size",
			Help:    "Triggers handed to one call of a batch handler.",
			Buckets: []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000},
		}, []string{"kind"}),
	}
	reg.MustRegister(m.lag, m.duration, m.outcomes, m.claimErrors, m.batchSizes)
	return m
}

func (m *Metrics) claimed(kind store.TriggerKind, lag time.Duration) {
	if m == nil {
		return
	}
	if lag < 0 {
		lag = 0
	}
	m.lag.WithLabelValues(string(kind)).Observe(lag.Seconds())
}

func (m *Metrics) handled(kind store.TriggerKind, err error, d time.Duration) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.outcomes.WithLabelValues(string(kind), outcome).Inc()
	m.duration.WithLabelValues(string(kind)).Observe(d.Seconds())
}

func (m *Metrics) gaveUp(kind store.TriggerKind) {
	if m == nil {
		return
	}
	m.outcomes.WithLabelValues(string(kind), "gave_up").Inc()
}

func (m *Metrics) claimError() {
	if m == nil {
		return
	}
	m.claimErrors.Inc()
}

func (m *Metrics) batch(kind store.TriggerKind, n int) {
	if m == nil {
		return
	}
	m.batchSizes.WithLabelValues(string(kind)).Observe(float64(n))
}
