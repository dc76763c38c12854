package sla_test

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store/postgres/pgtest"
	"github.com/gozie/gozie/testenv/smtpsink"
)

func errorsAs[T error](err error, target *T) bool { return errors.As(err, target) }

// waitMails waits until the sink holds n messages.
func waitMails(t *testing.T, s *smtpsink.Sink, n int) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		changed := s.Changed()
		if len(s.Messages()) >= n {
			return
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("%d emails arrived, want %d", len(s.Messages()), n)
		}
	}
}

// waitMetric polls a metric condition with a deadline; cond also returns
// what it saw.
func waitMetric(t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	testwait.WaitForLast(t, 20*time.Second, what, cond)
}

// counterSum sums a counter family's samples over their labels.
func counterSum(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			total += m.GetCounter().GetValue()
		}
	}
	return total
}

// pgtestURL is the test PostgreSQL server, if any.
func pgtestURL() string { return os.Getenv(pgtest.EnvVar) }
