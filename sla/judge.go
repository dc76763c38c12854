package sla

import (
	"strings"
	"time"

	"github.com/gozie/gozie/store"
)

// Progress is what is known of the job or action an SLA registration
// watches, read from its rows.
type Progress struct {
	// Status is the job's or action's own status (RUNNING, SUCCEEDED, ...).
	Status string
	// Start is when it started; zero while it has not.
	Start time.Time
	// End is when it ended; zero while it has not.
	End time.Time
	// Failed reports an end that misses the SLA whatever its time: a job
	// KILLED or FAILED, a coordinator action FAILED, KILLED or TIMEDOUT.
	Failed bool
	// Gone reports that the job or action no longer exists (purged or
	// deleted); nothing more is judged.
	Gone bool
}

// Judgment is the outcome of judging one registration.
type Judgment struct {
	// SLA is the registration with its summary brought up to date.
	SLA store.SLA
	// Events are the events judged now, in start, duration, end order.
	Events []store.SLAEvent
	// Changed reports whether SLA differs from the registration judged.
	Changed bool
	// Next is the next deadline to arm; zero when nothing is left to judge
	// by time alone.
	Next time.Time
}

// Judge brings a registration's summary up to date with the progress of its
// job at now, and returns the events that became due. It is the pure core of
// the deadline calculator: the job's start and end are judged when they are
// known, and the deadlines that passed without them are misses.
//
// Each of the three events (start, duration, end) is judged at most once: a
// registration's EventStatus lists those judged so far. The rules are those
// of Oozie's SLA service, without its grace period:
//   - start: START_MISS when the job started after the expected start, or
//     has not started once it passed; else START_MET.
//   - duration: DURATION_MISS when it ran (or has been running) longer than
//     the expected duration; else DURATION_MET once it ended.
//   - end: END_MISS when the job failed, ended after the expected end, or has
//     not ended once it passed; else END_MET.
//
// The SLA status is NOT_STARTED until the job starts, IN_PROCESS while it
// runs, MISS as soon as END_MISS is judged, and MET when it ended with
// END_MET. Lateness is actual minus expected; for a deadline that passed
// without the job, it is now minus expected. Each event keeps the SLA
// status, job status and times as it was judged (see asJudged).
//
// A registration whose job ended and runs again (a rerun) is not reset here:
// see Reset.
func Judge(reg store.SLA, p Progress, now time.Time) Judgment {
	j := Judgment{SLA: reg}
	s := &j.SLA
	if p.Gone {
		return j
	}
	if p.Status != "" && s.JobStatus != p.Status {
		s.JobStatus = p.Status
	}
	if !p.Start.IsZero() && !s.ActualStart.Equal(p.Start) {
		s.ActualStart = p.Start
	}
	if !p.End.IsZero() && !s.ActualEnd.Equal(p.End) {
		s.ActualEnd = p.End
	}
	s.ActualDuration = -1
	if !s.ActualStart.IsZero() && !s.ActualEnd.IsZero() {
		s.ActualDuration = s.ActualEnd.Sub(s.ActualStart).Milliseconds()
	}
	judged := eventSet(s.EventStatus)
	started, ended := !s.ActualStart.IsZero(), !s.ActualEnd.IsZero()
	add := func(ev store.SLAEventStatus, lateness time.Duration, at time.Time) {
		judged[kindOf(ev)] = ev
		j.Events = append(j.Events, store.SLAEvent{SLAID: s.ID, AppName: s.AppName, EventStatus: ev,
			Lateness: lateness, EventTime: at, SLAStatus: statusOf(judged, started, ended)})
	}

	// Start.
	if _, done := judged[kindStart]; !done && !s.ExpectedStart.IsZero() {
		switch {
		case started && s.ActualStart.After(s.ExpectedStart):
			add(store.SLAStartMiss, s.ActualStart.Sub(s.ExpectedStart), now)
		case started:
			add(store.SLAStartMet, s.ActualStart.Sub(s.ExpectedStart), now)
		case ended:
			// It ended without ever starting (killed while PREP).
			add(store.SLAStartMiss, s.ActualEnd.Sub(s.ExpectedStart), now)
		case now.After(s.ExpectedStart):
			add(store.SLAStartMiss, now.Sub(s.ExpectedStart), now)
		}
	}
	// Duration.
	if _, done := judged[kindDuration]; !done && s.ExpectedDuration >= 0 && started {
		expected := time.Duration(s.ExpectedDuration) * time.Millisecond
		switch {
		case ended && s.ActualEnd.Sub(s.ActualStart) > expected:
			add(store.SLADurationMiss, s.ActualEnd.Sub(s.ActualStart)-expected, now)
		case ended:
			add(store.SLADurationMet, s.ActualEnd.Sub(s.ActualStart)-expected, now)
		case now.Sub(s.ActualStart) > expected:
			add(store.SLADurationMiss, now.Sub(s.ActualStart)-expected, now)
		}
	}
	// End.
	if _, done := judged[kindEnd]; !done {
		switch {
		case ended && s.ExpectedEnd.IsZero():
			if p.Failed {
				add(store.SLAEndMiss, 0, now)
			} else {
				add(store.SLAEndMet, 0, now)
			}
		case ended && (p.Failed || s.ActualEnd.After(s.ExpectedEnd)):
			add(store.SLAEndMiss, s.ActualEnd.Sub(s.ExpectedEnd), now)
		case ended:
			add(store.SLAEndMet, s.ActualEnd.Sub(s.ExpectedEnd), now)
		case !s.ExpectedEnd.IsZero() && now.After(s.ExpectedEnd):
			add(store.SLAEndMiss, now.Sub(s.ExpectedEnd), now)
		}
	}
	s.EventStatus = joinEvents(judged)
	s.SLAStatus = statusOf(judged, started, ended)
	asJudged(j.Events, *s, ended)
	j.Next = nextDeadline(*s, judged)
	j.Changed = s.JobStatus != reg.JobStatus || !s.ActualStart.Equal(reg.ActualStart) ||
		!s.ActualEnd.Equal(reg.ActualEnd) || s.ActualDuration != reg.ActualDuration ||
		s.EventStatus != reg.EventStatus || s.SLAStatus != reg.SLAStatus
	return j
}

// asJudged completes the events of one pass with the figures of the
// registration as they were judged, as Oozie's SLA event message carries
// them. While the job has not ended, events are judged in start, duration,
// end order and each keeps the SLA status reached with it (a START_MISS
// judged together with END_MISS stays NOT_STARTED or IN_PROCESS; the
// END_MISS makes it MISS). Once the job has ended, its end decides MET or
// MISS before any event of the pass is judged, so every one of them carries
// that status.
func asJudged(evs []store.SLAEvent, s store.SLA, ended bool) {
	for i := range evs {
		e := &evs[i]
		if ended {
			e.SLAStatus = s.SLAStatus
		}
		e.JobStatus = s.JobStatus
		e.ExpectedStart, e.ExpectedEnd, e.ExpectedDuration = s.ExpectedStart, s.ExpectedEnd, s.ExpectedDuration
		e.ActualStart, e.ActualEnd, e.ActualDuration = s.ActualStart, s.ActualEnd, s.ActualDuration
	}
}

// Reset reports whether a registration belongs to an earlier run of its job:
// the job ended (as far as the summary knows) and now has not, so it was
// rerun. The caller registers it afresh.
func Reset(reg store.SLA, p Progress) bool {
	return !p.Gone && !reg.ActualEnd.IsZero() && p.End.IsZero()
}

// Delays are the lateness figures of a summary as Oozie's REST API reports
// them, in minutes; ok is false where there is no figure.
type Delays struct {
	Start, End, Duration       int64
	StartOK, EndOK, DurationOK bool
}

// DelaysOf computes a summary's delays at now: actual minus expected start
// and end (now minus expected while they have not happened, only once
// positive), and actual minus expected duration.
func DelaysOf(s store.SLA, now time.Time) Delays {
	var d Delays
	minutes := func(x time.Duration) int64 { return int64(x / time.Minute) }
	if !s.ExpectedStart.IsZero() {
		if !s.ActualStart.IsZero() {
			d.Start, d.StartOK = minutes(s.ActualStart.Sub(s.ExpectedStart)), true
		} else if now.After(s.ExpectedStart) {
			d.Start, d.StartOK = minutes(now.Sub(s.ExpectedStart)), true
		}
	}
	if !s.ExpectedEnd.IsZero() {
		if !s.ActualEnd.IsZero() {
			d.End, d.EndOK = minutes(s.ActualEnd.Sub(s.ExpectedEnd)), true
		} else if now.After(s.ExpectedEnd) {
			d.End, d.EndOK = minutes(now.Sub(s.ExpectedEnd)), true
		}
	}
	if s.ExpectedDuration >= 0 && s.ActualDuration >= 0 {
		d.Duration, d.DurationOK = (s.ActualDuration-s.ExpectedDuration)/60000, true
	}
	return d
}

// eventKind groups the two outcomes of one judged event.
type eventKind int

const (
	kindStart eventKind = iota
	kindDuration
	kindEnd
)

func kindOf(e store.SLAEventStatus) eventKind {
	switch e {
	case store.SLAStartMet, store.SLAStartMiss:
		return kindStart
	case store.SLADurationMet, store.SLADurationMiss:
		return kindDuration
	}
	return kindEnd
}

// IsMiss reports whether e is one of the three misses.
func IsMiss(e store.SLAEventStatus) bool {
	return e == store.SLAStartMiss || e == store.SLADurationMiss || e == store.SLAEndMiss
}

// eventSet reads a comma-joined EventStatus.
func eventSet(s string) map[eventKind]store.SLAEventStatus {
	m := map[eventKind]store.SLAEventStatus{}
	for _, part := range strings.Split(s, ",") {
		e := store.SLAEventStatus(strings.TrimSpace(part))
		switch e {
		case store.SLAStartMet, store.SLAStartMiss, store.SLADurationMet, store.SLADurationMiss,
			store.SLAEndMet, store.SLAEndMiss:
			m[kindOf(e)] = e
		}
	}
	return m
}

// joinEvents writes the judged events in start, duration, end order.
func joinEvents(m map[eventKind]store.SLAEventStatus) string {
	var parts []string
	for _, k := range []eventKind{kindStart, kindDuration, kindEnd} {
		if e, ok := m[k]; ok {
			parts = append(parts, string(e))
		}
	}
	return strings.Join(parts, ",")
}

// statusOf is the SLA status for the judged events.
func statusOf(judged map[eventKind]store.SLAEventStatus, started, ended bool) store.SLAStatus {
	switch judged[kindEnd] {
	case store.SLAEndMiss:
		return store.SLAMiss
	case store.SLAEndMet:
		return store.SLAMet
	}
	if ended || started {
		return store.SLAInProcess
	}
	return store.SLANotStarted
}

// nextDeadline is the earliest moment at which an event not yet judged
// becomes a miss by time alone: one millisecond after the expected time,
// since a job that starts or ends exactly on time meets it.
func nextDeadline(s store.SLA, judged map[eventKind]store.SLAEventStatus) time.Time {
	var next time.Time
	consider := func(t time.Time) {
		if t.IsZero() {
			return
		}
		t = t.Add(time.Millisecond)
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	if !s.ActualEnd.IsZero() {
		return next
	}
	if _, done := judged[kindStart]; !done && s.ActualStart.IsZero() {
		consider(s.ExpectedStart)
	}
	if _, done := judged[kindEnd]; !done {
		consider(s.ExpectedEnd)
	}
	if _, done := judged[kindDuration]; !done && !s.ActualStart.IsZero() && s.ExpectedDuration >= 0 {
		consider(s.ActualStart.Add(time.Duration(s.ExpectedDuration) * time.Millisecond))
	}
	return next
}
