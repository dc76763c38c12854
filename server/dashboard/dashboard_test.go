package dashboard_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/dashboard"
	"github.com/gozie/gozie/server/slaapi"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

const (
	bundleID = "0000001-260301100000000-gozie-test-B"
	coordID  = "0000002-260301100000000-gozie-test-C"
	otherID  = "0000009-260301100000000-gozie-test-W"
	yarnURL  = "http://rm.example:8088/proxy/application_1_0002/"
)

// aggregatorXML is the seeded coordinator's definition.
const aggregatorXML = `<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="aggregator" frequency="60" freq_timeunit="MINUTE" end_of_duration="NONE"
    start="2026-03-01T10:00Z" end="2026-03-02T10:00Z" timezone="UTC">
  <action><workflow><app-path>hdfs://localhost:8020/apps/one-op-wf</app-path></workflow></action>
</coordinator-app>
`

// seed stores a bundle "nightly" with the coordinator "aggregator" of three
// hourly actions: #1 met its SLA, #2 ended 15 minutes after should-end
// (END_MISS), #3 runs. A workflow of app "other" never started (START_MISS).
func seed(t testing.TB, st store.Store) {
	t.Helper()
	ctx := context.Background()
	h, m := time.Hour, time.Minute
	err := st.Tx(ctx, func(x store.Tx) error {
		if err := x.InsertBundleJob(ctx, &store.BundleJob{ID: bundleID, AppName: "nightly", Status: store.JobRunning, CreatedTime: t0}); err != nil {
			return err
		}
		if err := x.InsertCoordJob(ctx, &store.CoordJob{ID: coordID, AppName: "aggregator", BundleID: bundleID,
			Status: store.JobRunning, ExecutionOrder: "FIFO", CreatedTime: t0, Definition: aggregatorXML, OrigDefinition: aggregatorXML,
			Frequency: "60", TimeUnit: "MINUTE", TimeZone: "UTC", StartTime: t0, EndTime: t0.Add(24 * h)}); err != nil {
			return err
		}
		statuses := []store.CoordActionStatus{store.CoordActionSucceeded, store.CoordActionSucceeded, store.CoordActionRunning}
		for i, s := range statuses {
			n := i + 1
			nt := t0.Add(time.Duration(i) * h)
			wfID := "000001" + string(rune('0'+n)) + "-260301100000000-gozie-test-W"
			a := store.CoordAction{ID: coordID + "@" + string(rune('0'+n)), JobID: coordID, ActionNumber: n, Status: s,
				NominalTime: nt, ExternalID: wfID, CreatedTime: nt}
			if err := x.InsertCoordAction(ctx, &a); err != nil {
				return err
			}
			wf := store.WorkflowJob{ID: wfID, AppName: "one-op-wf", Status: store.WorkflowSucceeded, ParentID: a.ID,
				CreatedTime: nt, StartTime: nt.Add(2 * m), EndTime: nt.Add(8 * m)}
			reg := store.SLA{ID: a.ID, ParentID: coordID, AppName: "aggregator", AppType: store.AppCoordinatorAction,
				User: "ann", NominalTime: nt, ExpectedStart: nt.Add(m), ExpectedEnd: nt.Add(10 * m), ExpectedDuration: -1,
				ActualStart: nt.Add(2 * m), ActualEnd: nt.Add(8 * m), ActualDuration: (6 * m).Milliseconds(),
				JobStatus: "SUCCEEDED", SLAStatus: store.SLAMet, EventStatus: "START_MISS,END_MET", AlertsEnabled: true,
				CreatedTime: nt}
			switch n {
			case 2:
				wf.EndTime = nt.Add(25 * m)
				reg.ActualEnd, reg.ActualDuration = nt.Add(25*m), (23 * m).Milliseconds()
				reg.SLAStatus, reg.EventStatus = store.SLAMiss, "START_MISS,END_MISS"
			case 3:
				wf.Status, wf.EndTime = store.WorkflowRunning, time.Time{}
				reg.ActualEnd, reg.ActualDuration, reg.JobStatus = time.Time{}, -1, "RUNNING"
				reg.SLAStatus, reg.EventStatus = store.SLAInProcess, "START_MISS"
			}
			if err := x.InsertWorkflowJob(ctx, &wf); err != nil {
				return err
			}
			if err := x.InsertWorkflowAction(ctx, &store.WorkflowAction{ID: wfID + "@action1", JobID: wfID, Name: "action1",
				Type: "shell", Status: store.ActionOK, ConsoleURL: yarnURL, CreatedTime: nt}); err != nil {
				return err
			}
			if err := x.InsertSLA(ctx, &reg); err != nil {
				return err
			}
		}
		if err := x.InsertWorkflowJob(ctx, &store.WorkflowJob{ID: otherID, AppName: "other", Status: store.WorkflowPrep,
			CreatedTime: t0}); err != nil {
			return err
		}
		return x.InsertSLA(ctx, &store.SLA{ID: otherID, AppName: "other", AppType: store.AppWorkflowJob, NominalTime: t0,
			ExpectedStart: t0.Add(5 * m), ExpectedEnd: t0.Add(4 * h), ExpectedDuration: -1, ActualDuration: -1,
			JobStatus: "PREP", SLAStatus: store.SLANotStarted, EventStatus: "START_MISS", CreatedTime: t0})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// serve runs the REST server with the SLA endpoint and the dashboard on a
// seeded store, on a random loopback port; it returns the /oozie URL.
func serve(t *testing.T) string {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	seed(t, st)
	clk := clock.NewFake(t0.Add(3 * time.Hour))
	srv := server.New(server.Config{})
	if err := slaapi.Register(srv, slaapi.Deps{Store: st, Clock: clk}); err != nil {
		t.Fatal(err)
	}
	if err := dashboard.Register(srv, dashboard.Deps{Store: st, Clock: clk}); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return hs.URL + server.ContextPath
}

func getJSON(t *testing.T, u string, out any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %s\n%s", u, resp.Status, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v", u, err)
	}
}

func TestAPI(t *testing.T) {
	t.Parallel()
	base := serve(t)
	var o dashboard.Overview
	getJSON(t, base+"/dashboard/api/overview", &o)
	if len(o.Bundles) != 1 || len(o.Bundles[0].Coordinators) != 1 || o.Bundles[0].Coordinators[0].Misses != 1 ||
		o.Bundles[0].Coordinators[0].Counts["SUCCEEDED"] != 2 || len(o.Coordinators) != 0 || len(o.Workflows) != 4 {
		t.Fatalf("overview: %+v", o)
	}
	var c dashboard.CoordinatorDetail
	getJSON(t, base+"/dashboard/api/coordinator/"+coordID, &c)
	if len(c.Actions) != 3 || c.Actions[0].Number != 1 || c.Actions[1].SLA == nil || c.Actions[1].SLA.SLAStatus != "MISS" ||
		*c.Actions[1].SLA.EndDelay != 15 || c.Actions[2].EndTime != nil || c.Actions[0].ConsoleURL != yarnURL ||
		c.Actions[1].JobURL != "/oozie/v2/job/"+coordID+"@2" {
		t.Fatalf("coordinator detail: %+v", c)
	}
	var l dashboard.SLAList
	getJSON(t, base+"/dashboard/api/sla?filter=app_name=aggregator;sla_status=MISS", &l)
	if len(l.SLASummaryList) != 1 || l.SLASummaryList[0].ConsoleURL != yarnURL || l.SLASummaryList[0].ID != coordID+"@2" {
		t.Fatalf("sla rows: %+v", l)
	}
	resp, err := http.Get(base + "/console/console.js")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "javascript") {
		t.Fatalf("console.js: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	resp, err = http.Get(base + "/dashboard/api/coordinator/nope-C")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 || resp.Header.Get(server.HeaderErrorCode) != "E0604" {
		t.Fatalf("unknown coordinator: %s", resp.Status)
	}
}
