package coordinator

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// boundsApp is a coordinator over a one-minute dataset with one data-in whose instances are
// given by body (start/end-instance or instance elements).
func boundsApp(body string) string {
	return appWith("${coord:hours(1)}", `<datasets><dataset name="d" frequency="${coord:minutes(1)}"
  initial-instance="2008-01-01T00:00Z" timezone="UTC"><uri-template>hdfs://nn/d/${YEAR}${MONTH}${DAY}${HOUR}${MINUTE}</uri-template></dataset></datasets>
<input-events><data-in name="input" dataset="d">`+body+`</data-in></input-events>`)
}

// rangeBody is a start-instance/end-instance pair.
func rangeBody(start, end string) string {
	return "<start-instance>" + start + "</start-instance><end-instance>" + end + "</end-instance>"
}

// TestInstanceBound: every way to name instances is measured against Settings.MaxInstances
// (here 100) before anything is built, and a submission over it is refused with E1010 naming
// the data-in; one at the bound is accepted.
func TestInstanceBound(t *testing.T) {
	t.Parallel()
	s := DefaultSettings()
	s.MaxInstances = 100
	tests := []struct {
		name, body string
		ok         bool
	}{
		{"current range at the bound", rangeBody("${coord:current(-99)}", "${coord:current(0)}"), true},
		{"current range over", rangeBody("${coord:current(-100)}", "${coord:current(0)}"), false},
		{"the attack", rangeBody("${coord:current(-3000000)}", "${coord:current(0)}"), false},
		{"latest range over", rangeBody("${coord:latest(-100)}", "${coord:latest(0)}"), false},
		{"latest looking back too far", rangeBody("${coord:latest(-500)}", "${coord:latest(-500)}"), false},
		{"latest at the bound", rangeBody("${coord:latest(-99)}", "${coord:latest(0)}"), true},
		{"future range over", rangeBody("${coord:future(0, '5')}", "${coord:future(200, '300')}"), false},
		{"future limit over", rangeBody("${coord:future(0, '5')}", "${coord:future(2, '100')}"), false},
		{"future within", rangeBody("${coord:future(0, '5')}", "${coord:future(2, '50')}"), true},
		{"offset range over", rangeBody("${coord:offset(-2, 'HOUR')}", "${coord:offset(0, 'HOUR')}"), false},
		{"offset range within", rangeBody("${coord:offset(-90, 'MINUTE')}", "${coord:offset(0, 'MINUTE')}"), true},
		{"absolute range over", rangeBody("${coord:absolute('2008-12-31T00:00Z')}", "${coord:current(0)}"), false},
		{"absolute range within", rangeBody("${coord:absolute('2008-12-31T23:00Z')}", "${coord:current(0)}"), true},
		{"currentRange instance over", "<instance>${coord:currentRange(-200, 0)}</instance>", false},
		{"latestRange instance over", "<instance>${coord:latestRange(-200, 0)}</instance>", false},
		{"futureRange instance over", "<instance>${coord:futureRange(0, 2, 1000)}</instance>", false},
		{"instances add up over", strings.Repeat("<instance>${coord:currentRange(-40, 0)}</instance>", 3), false},
		{"instances add up within", strings.Repeat("<instance>${coord:currentRange(-40, 0)}</instance>", 2), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := submitDoc(boundsApp(tc.body), s)
			if tc.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != oozieerr.E1010 || !strings.HasPrefix(e.Where, "data-in[input]") ||
				!errors.Is(err, ErrTooManyInstances) {
				t.Fatalf("got %v, want E1010 at data-in[input]", err)
			}
		})
	}
}

// TestInstanceBoundCostsNothing: the attack's range is refused by arithmetic: submitting it
// allocates a few hundred kilobytes, not the three million dates it names (hundreds of
// megabytes).
func TestInstanceBoundCostsNothing(t *testing.T) { // not parallel: it measures the heap
	doc := boundsApp(rangeBody("${coord:current(-3000000)}", "${coord:current(0)}"))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := submitDoc(doc, DefaultSettings())
	runtime.ReadMemStats(&after)
	if ErrorCode(err) != oozieerr.E1010 || !strings.Contains(err.Error(), "3000001 dataset instances") {
		t.Fatalf("got %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
		t.Fatalf("refusing the range allocated %d bytes", n)
	}
}

// TestInstanceBoundAtMaterialization: a job stored before the bound existed (or with a range
// that grows, absolute to current) fails its materialization with E1010 instead of expanding
// the range; an input check over the bound fails its action.
func TestInstanceBoundAtMaterialization(t *testing.T) {
	t.Parallel()
	s := DefaultSettings()
	job, err := submitDoc(boundsApp(rangeBody("${coord:absolute('2008-12-31T22:00Z')}", "${coord:current(0)}")), s)
	if err != nil {
		t.Fatal(err)
	}
	row := job.Row()
	row.ID = testJobID
	s.MaxInstances = 60 // the range now names 121 instances at the first nominal time
	res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: farFuture, Settings: s})
	if ErrorCode(err) != oozieerr.E1010 || !errors.Is(err, ErrTooManyInstances) || res.Job.Status != store.JobFailed ||
		len(res.Actions) != 0 {
		t.Fatalf("materialization: %v, %s, %d actions", err, res.Job.Status, len(res.Actions))
	}

	// An action whose unresolved latest range is over the bound of the input check.
	job, err = submitDoc(boundsApp(rangeBody("${coord:latest(-50)}", "${coord:latest(0)}")), DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	row = job.Row()
	row.ID = testJobID
	res, err = Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: farFuture, Settings: DefaultSettings()})
	if err != nil || len(res.Actions) == 0 {
		t.Fatalf("materialization: %v", err)
	}
	a := res.Actions[0].Row
	s = DefaultSettings()
	s.MaxInstances = 10
	chk := CheckInputs(InputCheckRequest{Job: job, JobID: testJobID, Row: res.Job, Action: a, RunConf: job.Conf, Timeout: -1,
		Exists: func(string) (bool, error) { return true, nil }, Now: farFuture, Settings: s})
	if chk.Status != store.CoordActionFailed || !errors.Is(chk.Err, ErrTooManyInstances) {
		t.Fatalf("input check: %s %v", chk.Status, chk.Err)
	}
}

// TestLatestWalkIsBounded: coord:latest looks back over at most MaxInstances instances, so
// an input check of a sparse one-minute dataset costs a bounded number of existence checks.
func TestLatestWalkIsBounded(t *testing.T) {
	t.Parallel()
	job, err := submitDoc(boundsApp("<instance>${coord:latest(0)}</instance>"), DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	row := job.Row()
	row.ID = testJobID
	res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: farFuture, Settings: DefaultSettings()})
	if err != nil || len(res.Actions) == 0 {
		t.Fatalf("materialization: %v", err)
	}
	s := DefaultSettings()
	s.MaxInstances = 500
	checks := 0
	chk := CheckInputs(InputCheckRequest{Job: job, JobID: testJobID, Row: res.Job, Action: res.Actions[0].Row,
		RunConf: job.Conf, Timeout: -1, Now: farFuture, Settings: s,
		Exists: func(string) (bool, error) { checks++; return false, nil }})
	if chk.Status != store.CoordActionWaiting || checks != 500 {
		t.Fatalf("input check: %s after %d existence checks, want WAITING after 500", chk.Status, checks)
	}
}

// TestStoredDateRange: dates are accepted only in the range the store holds; 0001-01-01,
// which the store would write as NULL ("not set"), is refused at submission naming the
// attribute, and so are years past 9999.
func TestStoredDateRange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		start, end, where string
	}{
		{"0001-01-01T00:00Z", "2009-01-02T00:00Z", "coordinator-app/@start"},
		{"0999-12-31T23:59Z", "2009-01-02T00:00Z", "coordinator-app/@start"},
		{"2009-01-01T00:00Z", "10000-01-01T00:00Z", "coordinator-app/@end"},
	} {
		_, err := submitDoc(appWith("60", ""), DefaultSettings(), Property{Name: "start", Value: tc.start},
			Property{Name: "end", Value: tc.end})
		var e *Error
		if !errors.As(err, &e) || e.Code != oozieerr.E1003 || e.Where != tc.where ||
			!strings.Contains(err.Error(), "outside the dates gozie stores") {
			t.Errorf("%s..%s: %v", tc.start, tc.end, err)
		}
	}
	if _, err := submitDoc(appWith("60", ""), DefaultSettings(), Property{Name: "start", Value: "1000-01-01T00:00Z"},
		Property{Name: "end", Value: "9999-12-31T23:59Z"}); err != nil {
		t.Fatalf("the range's ends: %v", err)
	}
	if _, err := ParseChange("endtime=0001-01-01T00:00Z", oozietime.UTC); ErrorCode(err) != oozieerr.E1015 {
		t.Fatalf("change to 0001: %v", err)
	}
}

// TestThrottleCountsQueuedActions: a job far behind, whose actions need no input, catches up
// throttle actions at a time: actions READY count against the throttle as WAITING ones do,
// and the pass stops, throttled, when the queue is full.
func TestThrottleCountsQueuedActions(t *testing.T) {
	t.Parallel()
	job, row := newJob(t, jobSpec{freq: "1", unit: oozietime.Minute, start: "2024-01-01T00:00Z", end: "2025-01-01T00:00Z",
		throttle: 12})
	now := farFuture
	for _, tc := range []struct {
		queued, want int
		throttled    bool
	}{{0, 12, false}, {5, 7, true}, {12, 0, true}, {20, 0, true}} {
		res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Queued: tc.queued, Now: now,
			Settings: DefaultSettings()})
		if err != nil || len(res.Actions) != tc.want || (tc.want < 12 && !res.Throttled) {
			t.Fatalf("queued %d: %v, %d actions (throttled %v), want %d", tc.queued, err, len(res.Actions), res.Throttled, tc.want)
		}
		for _, a := range res.Actions {
			if a.Row.Status != store.CoordActionWaiting {
				t.Fatalf("queued %d: action %d is %s", tc.queued, a.Row.ActionNumber, a.Row.Status)
			}
		}
	}
}

// TestLastOnlyCatchUpSkipsInBatches: a LAST_ONLY or NONE job two months behind creates the
// actions it would skip as SKIPPED, outside the throttle, a batch at a time, and the throttle
// still holds the ones that wait: LAST_ONLY's last one, and NONE's within its tolerance (an
// hour here: six actions, of which the throttle lets three wait).
func TestLastOnlyCatchUpSkipsInBatches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		exec             Execution
		skipped, waiting int
	}{{LastOnly, 8640, 1}, {None, 8635, 3}} {
		job, row := newJob(t, jobSpec{freq: "10", unit: oozietime.Minute, start: "2024-01-01T00:00Z", end: "2026-01-01T00:00Z",
			throttle: 3, execution: tc.exec})
		now := utc(t, "2024-03-01T00:00Z").Add(time.Second) // 60 days × 144 actions behind, and the one now
		s := DefaultSettings()
		s.ActionBatchSize, s.NoneTolerance = 500, time.Hour
		skipped, waiting, passes := 0, 0, 0
		for ; passes < 100; passes++ {
			res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Queued: waiting, Now: now, Settings: s})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Ran {
				break
			}
			n := 0
			for _, a := range res.Actions {
				if a.Row.Status == store.CoordActionSkipped {
					n++
				} else {
					waiting++
				}
			}
			if n > s.ActionBatchSize || waiting > row.Throttle {
				t.Fatalf("%s pass %d: %d skipped, %d waiting", tc.exec, passes, n, waiting)
			}
			skipped += n
			row = res.Job
			if res.Throttled {
				break
			}
		}
		if skipped != tc.skipped || waiting != tc.waiting || passes < tc.skipped/s.ActionBatchSize {
			t.Fatalf("%s: %d skipped in %d passes, %d waiting; want %d skipped in batches of %d, %d waiting",
				tc.exec, skipped, passes, waiting, tc.skipped, s.ActionBatchSize, tc.waiting)
		}
	}
}

// TestThrottleProperty: for random jobs, states and settings, a pass never queues more than
// throttle − Queued actions, creates SKIPPED ones only for LAST_ONLY and NONE and at most
// the batch size of them, and creates actions in order with no gap; and a backfill driven
// pass after pass, with queued actions starting in between, never holds more than throttle
// queued actions.
func TestThrottleProperty(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	execs := []Execution{FIFO, LIFO, LastOnly, None}
	for i := 0; i < 150; i++ {
		freq := 1 + rng.IntN(90)
		throttle := 1 + rng.IntN(20)
		exec := execs[rng.IntN(len(execs))]
		start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.IntN(300*24*60)) * time.Minute)
		end := start.Add(time.Duration(1+rng.IntN(400*24*60)) * time.Minute)
		now := start.Add(time.Duration(rng.IntN(500*24*60)) * time.Minute)
		job, row := newJob(t, jobSpec{freq: fmt.Sprint(freq), unit: oozietime.Minute, tz: "UTC", start: oozietime.UTC.Format(start),
			end: oozietime.UTC.Format(end), throttle: throttle, execution: exec})
		s := DefaultSettings()
		s.ActionBatchSize = 1 + rng.IntN(50)
		queued := 0
		for pass := 0; pass < 15; pass++ {
			res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Queued: queued, Now: now, Settings: s})
			if err != nil {
				t.Fatal(err)
			}
			created, skipped := 0, 0
			for k, a := range res.Actions {
				if a.Row.ActionNumber != row.LastActionNumber+k+1 {
					t.Fatalf("case %d: action number %d after %d", i, a.Row.ActionNumber, row.LastActionNumber+k)
				}
				switch a.Row.Status {
				case store.CoordActionSkipped:
					skipped++
					if exec != LastOnly && exec != None {
						t.Fatalf("case %d: %s job created a SKIPPED action", i, exec)
					}
				case store.CoordActionWaiting:
					created++
				default:
					t.Fatalf("case %d: created %s", i, a.Row.Status)
				}
			}
			if created > max(0, throttle-queued) || skipped > s.ActionBatchSize {
				t.Fatalf("case %d (%s, throttle %d, queued %d, batch %d): %d queued and %d skipped created",
					i, exec, throttle, queued, s.ActionBatchSize, created, skipped)
			}
			queued += created
			if queued > throttle {
				t.Fatalf("case %d: %d queued with throttle %d", i, queued, throttle)
			}
			row = res.Job
			queued -= rng.IntN(queued + 1) // some start
			now = now.Add(time.Duration(rng.IntN(120)) * time.Minute)
		}
	}
}
