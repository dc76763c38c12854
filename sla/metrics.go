package sla

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/store"
)

// metrics are the SLA service's Prometheus metrics.
type metrics struct {
	events        *prometheus.CounterVec
	misses        *prometheus.CounterVec
	lateness      *prometheus.HistogramVec
	notifications *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		events: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gozie_sla_events_total",
			Help: "SLA events judged, by event.",
		}, []string{"event"}),
		misses: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gozie_sla_misses_total",
			Help: "SLA misses (START_MISS, DURATION_MISS, END_MISS), by application name and event.",
		}, []string{"app_name", "event"}),
		lateness: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gozie_sla_lateness_seconds",
			Help:    "Lateness of judged SLA events (actual minus expected; early events count as 0), by event.",
			Buckets: []float64{0, 30, 60, 300, 600, 1800, 3600, 2 * 3600, 6 * 3600, 24 * 3600},
		}, []string{"event"}),
		notifications: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gozie_sla_notifications_total",
			Help: "SLA notifications sent, by notifier and outcome (sent, failed).",
		}, []string{"notifier", "outcome"}),
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.events, m.misses, m.lateness, m.notifications} {
			if err := reg.Register(c); err != nil {
				return nil, fmt.Errorf("sla metrics: %w", err)
			}
		}
	}
	return m, nil
}

// observe counts one delivered event.
func (m *metrics) observe(reg store.SLA, e store.SLAEvent) {
	m.events.WithLabelValues(string(e.EventStatus)).Inc()
	if IsMiss(e.EventStatus) {
		m.misses.WithLabelValues(reg.AppName, string(e.EventStatus)).Inc()
	}
	late := e.Lateness.Seconds()
	if late < 0 {
		late = 0
	}
	m.lateness.WithLabelValues(string(e.EventStatus)).Observe(late)
}
