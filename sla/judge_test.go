package sla

import (
	"reflect"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

var n0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func min(m int) time.Duration { return time.Duration(m) * time.Minute }

// reg is a registration with nominal time n0, should-start 10, should-end
// 30 and the given max-duration in minutes (-1: none).
func reg(maxDuration int) store.SLA {
	r := store.SLA{ID: "W1", AppName: "app", AppType: store.AppWorkflowJob, NominalTime: n0,
		ExpectedStart: n0.Add(min(10)), ExpectedEnd: n0.Add(min(30)), ExpectedDuration: -1, ActualDuration: -1,
		SLAStatus: store.SLANotStarted}
	if maxDuration >= 0 {
		r.ExpectedDuration = min(maxDuration).Milliseconds()
	}
	return r
}

type ev struct {
	status store.SLAEventStatus
	late   time.Duration
	sla    store.SLAStatus // the SLA status the event was judged with
}

const (
	notStarted = store.SLANotStarted
	inProcess  = store.SLAInProcess
	met        = store.SLAMet
	miss       = store.SLAMiss
)

func TestJudge(t *testing.T) {
	cases := []struct {
		name       string
		reg        store.SLA
		p          Progress
		now        time.Time
		wantEvents []ev
		wantStatus store.SLAStatus
		wantEvSt   string
		wantNext   time.Time
	}{
		{"registered, nothing due", reg(-1), Progress{Status: "PREP"}, n0, nil,
			store.SLANotStarted, "", n0.Add(min(10) + time.Millisecond)},
		{"exactly at should-start is not late", reg(-1), Progress{Status: "PREP"}, n0.Add(min(10)), nil,
			store.SLANotStarted, "", n0.Add(min(10) + time.Millisecond)},
		{"never started: START_MISS when should-start passes", reg(-1), Progress{Status: "PREP"},
			n0.Add(min(12)), []ev{{store.SLAStartMiss, min(2), notStarted}}, store.SLANotStarted, "START_MISS", n0.Add(min(30) + time.Millisecond)},
		{"never started, both deadlines passed in one pass: the START_MISS keeps NOT_STARTED", reg(-1),
			Progress{Status: "PREP"}, n0.Add(min(45)),
			[]ev{{store.SLAStartMiss, min(35), notStarted}, {store.SLAEndMiss, min(15), miss}}, store.SLAMiss,
			"START_MISS,END_MISS", time.Time{}},
		{"started on time", reg(-1), Progress{Status: "RUNNING", Start: n0.Add(min(8))}, n0.Add(min(8)),
			[]ev{{store.SLAStartMet, -min(2), inProcess}}, store.SLAInProcess, "START_MET", n0.Add(min(30) + time.Millisecond)},
		{"A7: started late, ended early", reg(-1),
			Progress{Status: "SUCCEEDED", Start: n0.Add(min(15)), End: n0.Add(min(20))}, n0.Add(min(20)),
			[]ev{{store.SLAStartMiss, min(5), met}, {store.SLAEndMet, -min(10), met}}, store.SLAMet, "START_MISS,END_MET", time.Time{}},
		{"A5: killed is END_MISS whatever the time", reg(-1),
			Progress{Status: "KILLED", Start: n0.Add(min(1)), End: n0.Add(min(2)), Failed: true}, n0.Add(min(2)),
			[]ev{{store.SLAStartMet, -min(9), miss}, {store.SLAEndMiss, -min(28), miss}}, store.SLAMiss, "START_MET,END_MISS", time.Time{}},
		{"still running past should-end: END_MISS at once", reg(-1), Progress{Status: "RUNNING", Start: n0.Add(min(5))},
			n0.Add(min(31)), []ev{{store.SLAStartMet, -min(5), inProcess}, {store.SLAEndMiss, min(1), miss}}, store.SLAMiss,
			"START_MET,END_MISS", time.Time{}},
		{"ended late", reg(-1), Progress{Status: "SUCCEEDED", Start: n0.Add(min(5)), End: n0.Add(min(45))},
			n0.Add(min(45)), []ev{{store.SLAStartMet, -min(5), miss}, {store.SLAEndMiss, min(15), miss}}, store.SLAMiss,
			"START_MET,END_MISS", time.Time{}},
		{"duration exceeded while running", reg(10), Progress{Status: "RUNNING", Start: n0.Add(min(5))},
			n0.Add(min(16)), []ev{{store.SLAStartMet, -min(5), inProcess}, {store.SLADurationMiss, min(1), inProcess}}, store.SLAInProcess,
			"START_MET,DURATION_MISS", n0.Add(min(30) + time.Millisecond)},
		{"duration met at the end", reg(10), Progress{Status: "SUCCEEDED", Start: n0.Add(min(5)), End: n0.Add(min(12))},
			n0.Add(min(12)), []ev{{store.SLAStartMet, -min(5), met}, {store.SLADurationMet, -min(3), met}, {store.SLAEndMet, -min(18), met}},
			store.SLAMet, "START_MET,DURATION_MET,END_MET", time.Time{}},
		{"running: next deadline is the duration's", reg(10), Progress{Status: "RUNNING", Start: n0.Add(min(5))},
			n0.Add(min(5)), []ev{{store.SLAStartMet, -min(5), inProcess}}, store.SLAInProcess, "START_MET",
			n0.Add(min(15) + time.Millisecond)},
		{"killed before starting", reg(-1), Progress{Status: "KILLED", End: n0.Add(min(3)), Failed: true}, n0.Add(min(3)),
			[]ev{{store.SLAStartMiss, -min(7), miss}, {store.SLAEndMiss, -min(27), miss}}, store.SLAMiss, "START_MISS,END_MISS", time.Time{}},
		{"gone: nothing judged", reg(-1), Progress{Gone: true}, n0.Add(time.Hour), nil, store.SLANotStarted, "", time.Time{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := Judge(tc.reg, tc.p, tc.now)
			var got []ev
			for _, e := range j.Events {
				if e.SLAID != tc.reg.ID || e.AppName != tc.reg.AppName || !e.EventTime.Equal(tc.now) {
					t.Errorf("event %+v does not name the registration or now", e)
				}
				// The figures of the pass go with each of its events.
				s := j.SLA
				if e.JobStatus != s.JobStatus || !e.ExpectedStart.Equal(s.ExpectedStart) || !e.ExpectedEnd.Equal(s.ExpectedEnd) ||
					e.ExpectedDuration != s.ExpectedDuration || !e.ActualStart.Equal(s.ActualStart) ||
					!e.ActualEnd.Equal(s.ActualEnd) || e.ActualDuration != s.ActualDuration {
					t.Errorf("event %+v does not carry the figures judged, %+v", e, s)
				}
				got = append(got, ev{e.EventStatus, e.Lateness, e.SLAStatus})
			}
			if !reflect.DeepEqual(got, tc.wantEvents) {
				t.Errorf("events %v, want %v", got, tc.wantEvents)
			}
			if j.SLA.SLAStatus != tc.wantStatus || j.SLA.EventStatus != tc.wantEvSt {
				t.Errorf("status %s [%s], want %s [%s]", j.SLA.SLAStatus, j.SLA.EventStatus, tc.wantStatus, tc.wantEvSt)
			}
			if !j.Next.Equal(tc.wantNext) {
				t.Errorf("next deadline %v, want %v", j.Next, tc.wantNext)
			}
			// Judging again at the same moment adds nothing: each event is judged once.
			again := Judge(j.SLA, tc.p, tc.now)
			if len(again.Events) != 0 || again.Changed {
				t.Errorf("judging twice gave %+v (changed %v)", again.Events, again.Changed)
			}
		})
	}
}

// TestJudgeLifecycle follows one registration through its life, judged at
// each step as the engine would, and checks the summary Oozie's REST API
// reports (case A7 of the conformance cases).
func TestJudgeLifecycle(t *testing.T) {
	r := reg(-1)
	r.JobStatus = "PREP"
	j := Judge(r, Progress{Status: "PREP"}, n0)
	if j.Changed {
		t.Fatalf("a fresh registration changed: %+v", j.SLA)
	}
	j = Judge(j.SLA, Progress{Status: "PREP"}, n0.Add(min(11)))
	if j.SLA.EventStatus != "START_MISS" || j.SLA.SLAStatus != store.SLANotStarted || j.Events[0].Lateness != min(1) {
		t.Fatalf("after should-start: %+v", j)
	}
	j = Judge(j.SLA, Progress{Status: "RUNNING", Start: n0.Add(min(15))}, n0.Add(min(15)))
	if len(j.Events) != 0 || j.SLA.SLAStatus != store.SLAInProcess || !j.SLA.ActualStart.Equal(n0.Add(min(15))) {
		t.Fatalf("after the late start: %+v", j)
	}
	j = Judge(j.SLA, Progress{Status: "SUCCEEDED", Start: n0.Add(min(15)), End: n0.Add(min(20))}, n0.Add(min(20)))
	if j.SLA.EventStatus != "START_MISS,END_MET" || j.SLA.SLAStatus != store.SLAMet || j.SLA.ActualDuration != min(5).Milliseconds() {
		t.Fatalf("after the end: %+v", j.SLA)
	}
	d := DelaysOf(j.SLA, n0.Add(time.Hour))
	if !d.StartOK || d.Start != 5 || !d.EndOK || d.End != -10 || d.DurationOK {
		t.Fatalf("delays %+v, want start 5, end -10, no duration", d)
	}
}

// TestResetOnRerun is case A3: a rerun registration starts over.
func TestResetOnRerun(t *testing.T) {
	done := Judge(reg(-1), Progress{Status: "SUCCEEDED", Start: n0.Add(min(1)), End: n0.Add(min(2))}, n0.Add(min(2))).SLA
	if Reset(done, Progress{Status: "SUCCEEDED", Start: n0.Add(min(1)), End: n0.Add(min(2))}) {
		t.Fatal("a finished job's registration was reset")
	}
	if !Reset(done, Progress{Status: "RUNNING", Start: n0.Add(time.Hour)}) {
		t.Fatal("a rerun's registration was not reset")
	}
	fresh := resetSummary(done)
	if fresh.SLAStatus != store.SLANotStarted || fresh.ActualDuration != -1 || !fresh.ActualStart.IsZero() ||
		!fresh.ActualEnd.IsZero() || fresh.EventStatus != "" {
		t.Fatalf("reset summary: %+v", fresh)
	}
}

func TestDelaysWhileWaiting(t *testing.T) {
	r := reg(-1)
	if d := DelaysOf(r, n0.Add(min(5))); d.StartOK || d.EndOK {
		t.Fatalf("delays before any deadline: %+v", d)
	}
	d := DelaysOf(r, n0.Add(min(40)))
	if !d.StartOK || d.Start != 30 || !d.EndOK || d.End != 10 {
		t.Fatalf("delays of a job that never started: %+v", d)
	}
}
