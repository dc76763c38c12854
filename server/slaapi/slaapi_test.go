package slaapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/slaapi"
	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// setup serves the SLA endpoints on a real store holding three
// registrations and their events; "now" is t0 + 1h.
func setup(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := time.Minute
	rows := []store.SLA{
		// Started 5 min late, ended 10 min early (case A7).
		{ID: "C1@1", ParentID: "C1", AppName: "daily", AppType: store.AppCoordinatorAction, User: "ann", NominalTime: t0,
			ExpectedStart: t0.Add(10 * m), ExpectedEnd: t0.Add(30 * m), ExpectedDuration: (20 * m).Milliseconds(),
			ActualStart: t0.Add(15 * m), ActualEnd: t0.Add(20 * m), ActualDuration: (5 * m).Milliseconds(),
			JobStatus: "SUCCEEDED", SLAStatus: store.SLAMet, EventStatus: "START_MISS,DURATION_MET,END_MET", AlertsEnabled: true},
		// Running past its should-end.
		{ID: "C1@2", ParentID: "C1", AppName: "daily", AppType: store.AppCoordinatorAction, User: "ann", NominalTime: t0.Add(5 * m),
			ExpectedEnd: t0.Add(35 * m), ExpectedDuration: -1, ActualStart: t0.Add(6 * m), ActualDuration: -1,
			JobStatus: "RUNNING", SLAStatus: store.SLAMiss, EventStatus: "END_MISS"},
		// Never started.
		{ID: "W9", AppName: "adhoc", AppType: store.AppWorkflowJob, User: "bob", NominalTime: t0.Add(20 * m),
			ExpectedStart: t0.Add(25 * m), ExpectedEnd: t0.Add(2 * time.Hour), ExpectedDuration: -1, ActualDuration: -1,
			JobStatus: "PREP", SLAStatus: store.SLANotStarted, EventStatus: "START_MISS"},
	}
	err = st.Tx(ctx, func(x store.Tx) error {
		for i := range rows {
			rows[i].CreatedTime, rows[i].LastModified = t0, t0.Add(time.Duration(i)*m)
			if err := x.InsertSLA(ctx, &rows[i]); err != nil {
				return err
			}
		}
		for _, e := range []store.SLAEvent{
			{SLAID: "C1@1", AppName: "daily", EventStatus: store.SLAStartMiss, Lateness: 5 * m, EventTime: t0.Add(15 * m),
				SLAStatus: store.SLAInProcess},
			{SLAID: "W9", AppName: "adhoc", EventStatus: store.SLAStartMiss, Lateness: time.Millisecond, EventTime: t0.Add(25 * m),
				SLAStatus: store.SLANotStarted},
			{SLAID: "C1@2", AppName: "daily", EventStatus: store.SLAEndMiss, Lateness: 0, EventTime: t0.Add(35 * m),
				SLAStatus: store.SLAMiss},
		} {
			if err := x.InsertSLAEvent(ctx, &e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{})
	if err := slaapi.Register(srv, slaapi.Deps{Store: st, Clock: clock.NewFake(t0.Add(time.Hour))}); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return hs.URL + server.ContextPath
}

func get(t *testing.T, u string, out any) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK && out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			t.Fatalf("%s: %v\n%s", u, err, body)
		}
	}
	return resp.StatusCode, resp.Header.Get(server.HeaderErrorCode)
}

func TestSummaryJSON(t *testing.T) {
	t.Parallel()
	base := setup(t)
	var raw struct {
		List []map[string]any `json:"slaSummaryList"`
	}
	if code, _ := get(t, base+"/v2/sla?filter="+url.QueryEscape("id=C1@1"), &raw); code != 200 || len(raw.List) != 1 {
		t.Fatalf("status %d, %d summaries", code, len(raw.List))
	}
	s := raw.List[0]
	want := map[string]any{"id": "C1@1", "parentId": "C1", "appName": "daily", "appType": "COORDINATOR_ACTION",
		"user": "ann", "nominalTime": float64(t0.UnixMilli()), "expectedStart": float64(t0.Add(10 * time.Minute).UnixMilli()),
		"actualStart": float64(t0.Add(15 * time.Minute).UnixMilli()), "startDelay": float64(5), "endDelay": float64(-10),
		"durationDelay": float64(-15), "expectedDuration": float64(1200000), "actualDuration": float64(300000),
		"jobStatus": "SUCCEEDED", "slaStatus": "MET", "eventStatus": "START_MISS,DURATION_MET,END_MET",
		"slaAlertStatus": "Enabled"}
	for k, v := range want {
		if s[k] != v {
			t.Errorf("%s = %v (%T), want %v", k, s[k], s[k], v)
		}
	}
	// A job that never started: no parentId, startDelay now − expected,
	// actualDuration −1, null actual times.
	raw.List = nil
	get(t, base+"/v2/sla?filter=app_name=adhoc&timezone=GMT", &raw)
	s = raw.List[0]
	if _, has := s["parentId"]; has {
		t.Error("parentId present without a parent")
	}
	if s["startDelay"] != float64(35) || s["actualDuration"] != float64(-1) || s["actualStart"] != nil ||
		s["slaAlertStatus"] != "Disabled" || s["nominalTime"] != "Sun, 01 Mar 2026 10:20:00 GMT" {
		t.Errorf("never-started summary: %v", s)
	}
	// A running job: actualDuration is the time so far.
	raw.List = nil
	get(t, base+"/v2/sla?filter=id=C1@2", &raw)
	if s = raw.List[0]; s["actualDuration"] != float64((54*time.Minute).Milliseconds()) || s["endDelay"] != float64(25) {
		t.Errorf("running summary: %v", s)
	}
}

func TestFilters(t *testing.T) {
	t.Parallel()
	base := setup(t)
	cases := []struct {
		query string
		want  []string
	}{
		{"filter=app_name=daily", []string{"C1@1", "C1@2"}},
		{"filter=event_status=START_MISS", []string{"C1@1", "W9"}},
		{"filter=event_status=END_MISS,END_MET;app_name=daily", []string{"C1@1", "C1@2"}},
		{"filter=sla_status=MISS,NOT_STARTED", []string{"C1@2", "W9"}},
		{"filter=parent_id=C1;nominal_start=2026-03-01T10:05Z", []string{"C1@2"}},
		{"filter=nominal_after=2026-03-01T10:00Z;nominal_before=2026-03-01T10:05Z", []string{"C1@1", "C1@2"}},
		{"filter=job_status=RUN%25", []string{"C1@2"}},
		{"filter=user_name=bob", []string{"W9"}},
		{"filter=app_type=workflow_job", []string{"W9"}},
		{"filter=actual_duration_min=0", []string{"C1@1"}},
		{"filter=created_time_start=2026-03-01T10:00Z&len=2", []string{"C1@1", "C1@2"}},
		{"filter=created_time_start=2026-03-01T10:00Z&len=1&offset=2", []string{"C1@2"}},
		{"filter=app_name=daily,adhoc&sortby=lastModifiedTS&order=desc", []string{"W9", "C1@2", "C1@1"}},
		{"filter=app_name=nope", nil},
	}
	for _, tc := range cases {
		var l slaapi.List
		if code, ec := get(t, base+"/v2/sla?"+tc.query, &l); code != 200 {
			t.Errorf("%s: %d %s", tc.query, code, ec)
			continue
		}
		var ids []string
		for _, s := range l.SLASummaryList {
			ids = append(ids, s.ID)
		}
		if !slices.Equal(ids, tc.want) {
			t.Errorf("%s: %v, want %v", tc.query, ids, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	base := setup(t)
	cases := []struct {
		query  string
		status int
		code   string
	}{
		{"", 400, "E0305"},
		{"filter=", 400, "E0303"},
		{"filter=nope=1", 400, "E0303"},
		{"filter=sla_status=LATE", 400, "E0303"},
		{"filter=nominal_start=yesterday", 400, "E0303"},
		{"filter=app_name=a&order=up", 400, "E0303"},
		{"filter=app_name=a&sortby=size", 400, "E0303"},
		{"filter=app_name=a&len=0", 400, "E0303"},
		{"filter=app_name=a&timezone=Mars/Base", 400, "E0303"},
	}
	for _, tc := range cases {
		code, ec := get(t, base+"/v2/sla?"+tc.query, nil)
		if code != tc.status || ec != tc.code {
			t.Errorf("%q: %d %s, want %d %s", tc.query, code, ec, tc.status, tc.code)
		}
	}
}

func TestEventHistory(t *testing.T) {
	t.Parallel()
	base := setup(t)
	var l slaapi.EventList
	get(t, base+"/v2/sla/events?app_name=daily", &l)
	if len(l.Events) != 2 || l.Events[0].ID != "C1@2" || l.Events[1].LatenessMinutes != 5 {
		t.Fatalf("daily events, newest first: %+v", l.Events)
	}
	get(t, base+"/v2/sla/events?event_status=start_miss&from=2026-03-01T10:20Z", &l)
	if len(l.Events) != 1 || l.Events[0].ID != "W9" || l.Events[0].LatenessMs != 1 {
		t.Fatalf("filtered events: %+v", l.Events)
	}
	if code, ec := get(t, base+"/v2/sla/events?event_status=LATE", nil); code != 400 || ec != "E0303" {
		t.Fatalf("bad event status: %d %s", code, ec)
	}
}

// TestEventsKeepTheirJudgedStatus: GET /v2/sla/events reports each event
// with the SLA status it was judged with. A coordinator action that never
// started is judged once both its should-start and should-end have passed:
// its START_MISS stays NOT_STARTED although the registration is MISS.
func TestEventsKeepTheirJudgedStatus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	const coordID = "0000001-260301100000000-gozie-test-C"
	actionID := coordID + "@1"
	err = st.Tx(ctx, func(x store.Tx) error {
		if err := x.InsertCoordJob(ctx, &store.CoordJob{ID: coordID, AppName: "daily", Status: store.JobRunning,
			ExecutionOrder: "FIFO", CreatedTime: t0}); err != nil {
			return err
		}
		if err := x.InsertCoordAction(ctx, &store.CoordAction{ID: actionID, JobID: coordID, ActionNumber: 1,
			Status: store.CoordActionWaiting, NominalTime: t0, CreatedTime: t0}); err != nil {
			return err
		}
		return x.InsertSLA(ctx, &store.SLA{ID: actionID, ParentID: coordID, AppName: "daily",
			AppType: store.AppCoordinatorAction, NominalTime: t0, ExpectedStart: t0.Add(time.Minute),
			ExpectedEnd: t0.Add(10 * time.Minute), ExpectedDuration: -1, ActualDuration: -1,
			JobStatus: "WAITING", SLAStatus: store.SLANotStarted, AlertsEnabled: true, CreatedTime: t0})
	})
	if err != nil {
		t.Fatal(err)
	}
	now := clock.NewFake(t0.Add(time.Hour))
	svc, err := sla.New(sla.Config{Store: st, Clock: now})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Tx(ctx, func(x store.Tx) error { return svc.Track(ctx, x, actionID) }); err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{})
	if err := slaapi.Register(srv, slaapi.Deps{Store: st, Clock: now}); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	var l slaapi.EventList
	if code, ec := get(t, hs.URL+server.ContextPath+"/v2/sla/events?app_name=daily", &l); code != 200 {
		t.Fatalf("GET events: %d %s", code, ec)
	}
	got := map[string]slaapi.Event{}
	for _, e := range l.Events {
		got[e.EventStatus] = e
	}
	if len(l.Events) != 2 || got["START_MISS"].SLAStatus != "NOT_STARTED" || got["START_MISS"].JobStatus != "WAITING" ||
		got["END_MISS"].SLAStatus != "MISS" {
		t.Fatalf("events: %+v", l.Events)
	}
	var sum slaapi.List
	get(t, hs.URL+server.ContextPath+"/v2/sla?filter=id="+actionID, &sum)
	if len(sum.SLASummaryList) != 1 || sum.SLASummaryList[0].SLAStatus != "MISS" {
		t.Fatalf("summary: %+v", sum.SLASummaryList)
	}
}

func TestControl(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.Tx(ctx, func(x store.Tx) error {
		return x.InsertSLA(ctx, &store.SLA{ID: "C1@1", ParentID: "C1", AppName: "daily", AppType: store.AppCoordinatorAction,
			NominalTime: t0, ExpectedEnd: t0.Add(time.Hour), ExpectedDuration: -1, ActualDuration: -1,
			SLAStatus: store.SLANotStarted, AlertsEnabled: true, CreatedTime: t0})
	})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := sla.New(sla.Config{Store: st, Clock: clock.NewFake(t0)})
	if err != nil {
		t.Fatal(err)
	}
	get := func() store.SLA {
		var r store.SLA
		if err := st.Tx(ctx, func(x store.Tx) (err error) { r, err = x.GetSLA(ctx, "C1@1"); return }); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if err := slaapi.Control(ctx, svc, "C1", slaapi.ActionSLADisable, ""); err != nil || get().AlertsEnabled {
		t.Fatalf("sla-disable of the coordinator: %v", err)
	}
	if err := slaapi.Control(ctx, svc, "C1", slaapi.ActionSLAChange, "sla-should-end=90"); err != nil ||
		!get().ExpectedEnd.Equal(t0.Add(90*time.Minute)) {
		t.Fatalf("sla-change: %v %+v", err, get())
	}
	for _, tc := range []struct{ action, value, code string }{
		{slaapi.ActionSLAChange, "nope=1", "E1015"},
		{slaapi.ActionSLAEnable, "", "E0604"},
		{"sla-other", "", "E0303"},
	} {
		id := "C1"
		if tc.code == "E0604" {
			id = "C404"
		}
		err := slaapi.Control(ctx, svc, id, tc.action, tc.value)
		var c interface{ ErrorCode() string }
		if !errors.As(err, &c) || c.ErrorCode() != tc.code {
			var se *server.Error
			if !errors.As(err, &se) || se.Code != tc.code {
				t.Errorf("%s %q: %v, want %s", tc.action, tc.value, err, tc.code)
			}
		}
	}
}
