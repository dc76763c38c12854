package sla

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// Def is one sla:info block with its EL resolved, the values as text.
type Def struct {
	NominalTime     string
	ShouldStart     string // minutes after the nominal time
	ShouldEnd       string // minutes after the nominal time
	MaxDuration     string // minutes
	AlertEvents     string // comma list of start_miss, end_miss, duration_miss
	AlertContact    string // comma list of email addresses
	NotificationMsg string
	UpstreamApps    string
}

// Error is a bad sla:info value with the Oozie error code it is reported
// with: oozieerr's one coded error, whose Node names the sla:info element at
// fault (kept out of the text, "<code>: <message>", as in Oozie).
type Error = oozieerr.Error

// maxMinutes bounds SLA minutes (a century), so that a duration never
// overflows.
const maxMinutes = 100 * 366 * 24 * 60

// alertEventNames are the events alert-events may name.
var alertEventNames = map[string]bool{"START_MISS": true, "END_MISS": true, "DURATION_MISS": true,
	"START_MET": true, "END_MET": true, "DURATION_MET": true}

// Build fills the registration fields of base (whose ID, ParentID, AppName,
// AppType and User the caller sets) from a resolved definition at now:
// expected start and end are the nominal time plus should-start and
// should-end minutes; the expected duration is max-duration, else end minus
// start when should-start is given, else -1 (not tracked). Unknown
// alert-events become END_MISS, as in Oozie. parse reads the nominal time.
func Build(def Def, base store.SLA, parse func(string) (time.Time, error), now time.Time) (store.SLA, error) {
	reg := base
	reg.ExpectedDuration, reg.ActualDuration = -1, -1
	reg.SLAStatus = store.SLANotStarted
	reg.AlertsEnabled = true
	reg.CreatedTime, reg.LastModified = now, now
	nt, err := parse(strings.TrimSpace(def.NominalTime))
	if err != nil {
		return reg, &Error{Code: oozieerr.E0302, Node: "nominal-time", Err: err,
			Msg: fmt.Sprintf("Invalid parameter [%s] for SLA nominal-time", def.NominalTime)}
	}
	reg.NominalTime = nt
	minutes := func(field, v string, negativeOK bool) (time.Duration, bool, error) {
		v = strings.TrimSpace(v)
		if v == "" {
			return 0, false, nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || (f < 0 && !negativeOK) || f > maxMinutes || f < -maxMinutes {
			return 0, false, &Error{Code: oozieerr.E0302, Node: field, Err: err,
				Msg: fmt.Sprintf("Invalid parameter [%s] for SLA %s", v, field)}
		}
		return time.Duration(f * float64(time.Minute)).Truncate(time.Millisecond), true, nil
	}
	if d, ok, err := minutes("should-start", def.ShouldStart, false); err != nil {
		return reg, err
	} else if ok {
		reg.ExpectedStart = nt.Add(d)
	}
	if d, ok, err := minutes("should-end", def.ShouldEnd, false); err != nil {
		return reg, err
	} else if ok {
		reg.ExpectedEnd = nt.Add(d)
	}
	if d, ok, err := minutes("max-duration", def.MaxDuration, true); err != nil {
		return reg, err
	} else if ok {
		if d > 0 {
			reg.ExpectedDuration = d.Milliseconds()
		}
	} else if !reg.ExpectedStart.IsZero() && !reg.ExpectedEnd.IsZero() {
		reg.ExpectedDuration = reg.ExpectedEnd.Sub(reg.ExpectedStart).Milliseconds()
	}
	reg.AlertEvents = NormalizeAlertEvents(def.AlertEvents)
	reg.AlertContact = strings.TrimSpace(def.AlertContact)
	reg.NotificationMsg = def.NotificationMsg
	reg.UpstreamApps = strings.TrimSpace(def.UpstreamApps)
	return reg, nil
}

// NormalizeAlertEvents upper-cases a comma list of alert events; names it
// does not know become END_MISS, as in Oozie. Empty stays empty (the
// server's default applies).
func NormalizeAlertEvents(v string) string {
	if strings.TrimSpace(v) == "" {
		return ""
	}
	var out []string
	seen := map[string]bool{}
	for _, e := range strings.Split(v, ",") {
		e = strings.ToUpper(strings.TrimSpace(e))
		if !alertEventNames[e] {
			e = string(store.SLAEndMiss)
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return strings.Join(out, ",")
}

// AlertsFor reports whether an event is alerted by email: alerts are
// enabled, a contact is given, and the event is in the registration's
// alert-events (or in defaults when it names none).
func AlertsFor(reg store.SLA, e store.SLAEventStatus, defaults string) bool {
	if !reg.AlertsEnabled || strings.TrimSpace(reg.AlertContact) == "" {
		return false
	}
	list := reg.AlertEvents
	if strings.TrimSpace(list) == "" {
		list = defaults
	}
	for _, x := range strings.Split(list, ",") {
		if strings.EqualFold(strings.TrimSpace(x), string(e)) {
			return true
		}
	}
	return false
}
