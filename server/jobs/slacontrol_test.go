package jobs_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
)

// slaOf reads the SLA registration of id.
func (f *fixture) slaOf(t *testing.T, id string) store.SLA {
	t.Helper()
	var regs []store.SLA
	err := f.Store.Tx(context.Background(), func(x store.Tx) error {
		var err error
		regs, err = x.ListSLAs(context.Background(), store.SLAFilter{IDs: []string{id}})
		return err
	})
	if err != nil || len(regs) != 1 {
		t.Fatalf("SLA of %s: %v (%d registrations)", id, err, len(regs))
	}
	return regs[0]
}

func TestSLACommands(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.StartEngine(t)
	id := f.submitCoord(t, f.WriteCoordApp(t, "sla", jobstest.SLACoordApp(f.appPath(appNoOp))))
	f.waitCoordStatus(t, id, "SUCCEEDED")
	for n := 1; n <= 5; n++ {
		if reg := f.slaOf(t, actionID(id, n)); !reg.AlertsEnabled {
			t.Fatalf("action %d registered with alerts off", n)
		}
	}

	steps := []struct {
		query  string
		status int
		code   string
	}{
		{"?action=sla-disable&action-list=1-2", 200, ""},
		{"?action=sla-change&date=2025-01-27T02:00Z&value=sla-should-end%3D90", 200, ""},
		{"?action=sla-disable&action-list=5", 200, ""},
		{"?action=sla-enable&action-list=5", 200, ""},
		{"?action=sla-change", 400, "E0305"},
		{"?action=sla-change&value=sla-should-end%3Dsoon", 400, "E1015"},
		{"?action=sla-enable&action-list=1&date=2025-01-27T00:00Z", 400, "E0302"},
		{"?action=sla-enable&coordinators=a", 400, "E0302"},
		{"?action=sla-enable&action-list=x", 400, "E0302"},
	}
	for _, s := range steps {
		r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+s.query, "", "")
		if r.status != s.status || r.header.Get("oozie-error-code") != s.code {
			t.Errorf("%s: %d %q (%s), want %d %q", s.query, r.status, r.header.Get("oozie-error-code"),
				r.header.Get("oozie-error-message"), s.status, s.code)
		}
	}
	for n, want := range map[int]bool{1: false, 2: false, 3: true, 4: true, 5: true} {
		if got := f.slaOf(t, actionID(id, n)).AlertsEnabled; got != want {
			t.Errorf("action %d alerts enabled %v, want %v", n, got, want)
		}
	}
	nominal := time.Date(2025, 1, 27, 2, 0, 0, 0, time.UTC)
	if got := f.slaOf(t, actionID(id, 3)).ExpectedEnd; !got.Equal(nominal.Add(90 * time.Minute)) {
		t.Errorf("action 3 expected end %v after sla-change, want %v", got, nominal.Add(90*time.Minute))
	}
	if got := f.slaOf(t, actionID(id, 4)).ExpectedEnd; !got.Equal(nominal.Add(time.Hour + 30*time.Minute)) {
		t.Errorf("action 4 expected end %v changed by a change of action 3", got)
	}

	// Without a scope the command reaches every action of the coordinator.
	if r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=sla-disable", "", ""); r.status != 200 {
		t.Fatalf("sla-disable of the job: %d %s", r.status, r.body)
	}
	for n := 1; n <= 5; n++ {
		if f.slaOf(t, actionID(id, n)).AlertsEnabled {
			t.Errorf("action %d still alerting after sla-disable of its job", n)
		}
	}
	r := f.call(t, http.MethodPut, "/oozie/v2/job/0000009-250127091857123-gozie-C?action=sla-enable", "", "")
	checkError(t, r, 404, "E0604", "E0604: Job does not exist [0000009-250127091857123-gozie-C]")
}

// actionID is the id of action n of coordinator job id.
func actionID(id string, n int) string { return id + "@" + strconv.Itoa(n) }
