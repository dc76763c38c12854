package purge

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/store"
)

// metrics are the purge's Prometheus metrics.
type metrics struct {
	removedJobs *prometheus.CounterVec
	batches     prometheus.Counter
	lastDone    *prometheus.GaugeVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		removedJobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gozie_purge_removed_total",
			Help: "Jobs removed by the purge, by kind (workflow, coord_action, coordinator, bundle).",
		}, []string{"kind"}),
		batches: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gozie_purge_batches_total",
			Help: "Purge batches run, each one transaction.",
		}),
		lastDone: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gozie_purge_last_completed_timestamp_seconds",
			Help: "When a purge last went through every pass, by origin (schedule, admin).",
		}, []string{"origin"}),
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.removedJobs, m.batches, m.lastDone} {
			if err := reg.Register(c); err != nil {
				return nil, fmt.Errorf("purge metrics: %w", err)
			}
		}
	}
	return m, nil
}

// removed counts what one batch removed.
func (m *metrics) removed(r store.PurgeResult) {
	for kind, n := range map[string]int{"workflow": r.Workflows, "coord_action": r.CoordActions,
		"coordinator": r.Coordinators, "bundle": r.Bundles} {
		if n > 0 {
			m.removedJobs.WithLabelValues(kind).Add(float64(n))
		}
	}
}

// completed records a purge that went through every pass at now.
func (m *metrics) completed(origin string, now time.Time) {
	m.lastDone.WithLabelValues(origin).Set(float64(now.UnixNano()) / 1e9)
}
