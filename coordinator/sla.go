package coordinator

import (
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// slaEventNames are the SLA event statuses alert-events may name.
var slaEventNames = map[string]bool{
	"START_MET": true, "START_MISS": true, "DURATION_MET": true, "DURATION_MISS": true,
	"END_MET": true, "END_MISS": true,
}

// evaluateSLA evaluates every sla:info field of an action in the sla-create phase.
func (j *Job) evaluateSLA(action *ActionContext, outs []ResolvedEvent) (*SLADef, error) {
	if j.SLA == nil {
		return nil, nil
	}
	c := &ELContext{Format: j.Format, User: j.User, Conf: j.Conf, Action: action, DataOut: eventValues(outs),
		Now: action.ActualTime}
	out := &SLADef{Namespace: j.SLA.Namespace}
	for _, f := range j.SLA.Fields {
		v, err := c.EvalString(PhaseSLACreate, f.Value)
		if err != nil {
			return nil, atWhere(err, "sla:info/"+f.Name)
		}
		out.Fields = append(out.Fields, Property{Name: f.Name, Value: v})
	}
	return out, nil
}

// eventValues indexes resolved events by name for coord:dataIn/dataOut.
func eventValues(events []ResolvedEvent) map[string]DataValue {
	m := make(map[string]DataValue, len(events))
	for _, e := range events {
		m[e.Name] = DataValue{URIs: e.URIs, Unresolved: len(e.Unresolved) > 0}
	}
	return m
}

// slaRegistration builds the SLA registration of a new action from its evaluated sla:info:
// expected start and end are the nominal time plus should-start and should-end minutes, the
// expected duration is max-duration (or end minus start when should-start is given, else -1).
// Alerts are disabled for actions older than the alert horizon and as the job's
// oozie.sla.disable.alerts* properties say.
func (j *Job) slaRegistration(sla *SLADef, jobID, actionID string, number int, now time.Time, s Settings) (*store.SLA, error) {
	if sla == nil {
		return nil, nil
	}
	reg := &store.SLA{ID: actionID, ParentID: jobID, AppName: j.Name, AppType: store.AppCoordinatorAction,
		User: j.User, ExpectedDuration: -1, ActualDuration: -1, SLAStatus: store.SLANotStarted,
		JobStatus: string(store.CoordActionWaiting), AlertsEnabled: true, CreatedTime: now, LastModified: now}
	nominal, _ := sla.Field("nominal-time")
	nt, err := j.Format.Parse(nominal)
	if err != nil {
		return nil, oozieerr.WrapAt(oozieerr.E0302, "sla:info/nominal-time", err, "Invalid parameter [%s]", nominal)
	}
	reg.NominalTime = nt
	minutes := func(name string) (float64, bool, error) {
		v, ok := sla.Field(name)
		if !ok || strings.TrimSpace(v) == "" {
			return 0, false, nil
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 32)
		if err != nil || f < 0 && name != "max-duration" {
			return 0, false, oozieerr.At(oozieerr.E0302, "sla:info/"+name, "Invalid parameter [%s] for SLA %s", v, name)
		}
		return f, true, nil
	}
	offset := func(m float64) time.Time { return nt.Add(time.Duration(int64(m*60*1000)) * time.Millisecond) }
	if m, ok, err := minutes("should-start"); err != nil {
		return nil, err
	} else if ok {
		reg.ExpectedStart = offset(m)
	}
	if m, ok, err := minutes("should-end"); err != nil {
		return nil, err
	} else if ok {
		reg.ExpectedEnd = offset(m)
	}
	if m, ok, err := minutes("max-duration"); err != nil {
		return nil, err
	} else if ok {
		if m > 0 {
			reg.ExpectedDuration = int64(m * 60 * 1000)
		}
	} else if !reg.ExpectedStart.IsZero() && !reg.ExpectedEnd.IsZero() {
		reg.ExpectedDuration = reg.ExpectedEnd.Sub(reg.ExpectedStart).Milliseconds()
	}
	if v, ok := sla.Field("alert-events"); ok {
		var events []string
		for _, e := range strings.Split(v, ",") {
			e = strings.ToUpper(strings.TrimSpace(e))
			if !slaEventNames[e] {
				e = "END_MISS"
			}
			events = append(events, e)
		}
		reg.AlertEvents = strings.Join(events, ",")
	}
	reg.AlertContact, _ = sla.Field("alert-contact")
	reg.NotificationMsg, _ = sla.Field("notification-msg")
	reg.UpstreamApps, _ = sla.Field("upstream-apps")
	reg.AlertsEnabled = !j.slaAlertsDisabled(jobID, number, nt, now, s)
	return reg, nil
}

// slaAlertsDisabled applies oozie.sla.disable.alerts.older.than (hours), .coord (names or
// ids), oozie.sla.disable.alerts and oozie.sla.enable.alerts (ALL, action numbers, number
// ranges a-b, nominal times and date ranges a::b).
func (j *Job) slaAlertsDisabled(jobID string, number int, nominal, now time.Time, s Settings) bool {
	horizon := s.SLADisableAlertsOlderThan
	if v, ok := j.Conf.Get("oozie.sla.disable.alerts.older.than"); ok {
		if h, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			horizon = time.Duration(h) * time.Hour
		}
	}
	if horizon > 0 && int64(now.Sub(nominal)/time.Hour) > int64(horizon/time.Hour) {
		return true
	}
	if v, ok := j.Conf.Get("oozie.sla.disable.alerts.coord"); ok {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c == j.Name || c == jobID {
				return true
			}
		}
	}
	if v, ok := j.Conf.Get("oozie.sla.disable.alerts"); ok && j.scopeMatches(v, number, nominal) {
		return true
	}
	if v, ok := j.Conf.Get("oozie.sla.enable.alerts"); ok && j.scopeMatches(v, number, nominal) {
		return false
	}
	return false
}

// scopeMatches reports whether an action is in an alert scope. Unlike Oozie, whose range test
// matches every action, a range only matches the actions inside it.
func (j *Job) scopeMatches(scope string, number int, nominal time.Time) bool {
	for _, item := range strings.Split(scope, ",") {
		item = strings.TrimSpace(item)
		if strings.EqualFold(item, "ALL") {
			return true
		}
		if a, b, ok := strings.Cut(item, "::"); ok {
			from, err1 := j.Format.Parse(a)
			to, err2 := j.Format.Parse(b)
			if err1 == nil && err2 == nil && !nominal.Before(from) && !nominal.After(to) {
				return true
			}
			continue
		}
		if t, err := j.Format.Parse(item); err == nil {
			if t.Equal(nominal) {
				return true
			}
			continue
		}
		if a, b, ok := strings.Cut(item, "-"); ok {
			lo, err1 := strconv.Atoi(strings.TrimSpace(a))
			hi, err2 := strconv.Atoi(strings.TrimSpace(b))
			if err1 == nil && err2 == nil && number >= lo && number <= hi {
				return true
			}
			continue
		}
		if n, err := strconv.Atoi(item); err == nil && n == number {
			return true
		}
	}
	return false
}
