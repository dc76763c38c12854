package sla

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// Keys of the value of an SLA change (PUT job?action=sla-change, the CLI's
// -slachange), as Oozie names them.
const (
	ChangeNominalTime = "sla-nominal-time"
	ChangeShouldStart = "sla-should-start"
	ChangeShouldEnd   = "sla-should-end"
	ChangeMaxDuration = "sla-max-duration"
)

// Change is a parsed SLA change: the fields given, EL resolved. Minutes may
// be written ${10 * MINUTES}.
type Change struct {
	NominalTime             time.Time
	ShouldStart, ShouldEnd  *time.Duration
	MaxDuration             *time.Duration
	HasNominal, HasDuration bool
}

// ParseChange reads "sla-should-end=30;sla-max-duration=${2 * HOURS}".
func ParseChange(value string, parse func(string) (time.Time, error)) (Change, error) {
	var c Change
	env := &el.Env{Vars: el.MapVars(el.SLAConstants())}
	minutes := func(k, v string) (*time.Duration, error) {
		s, err := env.EvalString(v)
		if err != nil {
			return nil, changeError(k, v)
		}
		d, _, err := parseMinutes(s)
		if err != nil {
			return nil, changeError(k, v)
		}
		return &d, nil
	}
	if strings.TrimSpace(value) == "" {
		return c, changeError("value", value)
	}
	for _, part := range strings.Split(value, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || v == "" {
			return c, changeError(k, v)
		}
		var err error
		switch k {
		case ChangeNominalTime:
			if c.NominalTime, err = parse(v); err != nil {
				return c, changeError(k, v)
			}
			c.HasNominal = true
		case ChangeShouldStart:
			c.ShouldStart, err = minutes(k, v)
		case ChangeShouldEnd:
			c.ShouldEnd, err = minutes(k, v)
		case ChangeMaxDuration:
			c.MaxDuration, err = minutes(k, v)
			c.HasDuration = true
		default:
			return c, changeError(k, v)
		}
		if err != nil {
			return c, err
		}
	}
	return c, nil
}

func changeError(k, v string) error {
	return &Error{Code: oozieerr.E1015, Node: k, Msg: fmt.Sprintf("Invalid coordinator job change value, [%s] = [%s]", k, v)}
}

// parseMinutes reads a number of minutes (fractions allowed, not negative).
func parseMinutes(s string) (time.Duration, bool, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < 0 || f > maxMinutes {
		return 0, false, fmt.Errorf("bad minutes %q", s)
	}
	return time.Duration(f * float64(time.Minute)).Truncate(time.Millisecond), true, nil
}

// Apply changes a registration's expectations: the nominal time, then
// expected start and end as the (new) nominal time plus the minutes given,
// and the expected duration. The events whose expectation changed are
// judged again (the history keeps the earlier judgments).
func (c Change) Apply(reg store.SLA) store.SLA {
	judged := eventSet(reg.EventStatus)
	if c.HasNominal {
		shiftStart, shiftEnd := reg.ExpectedStart.Sub(reg.NominalTime), reg.ExpectedEnd.Sub(reg.NominalTime)
		if !reg.ExpectedStart.IsZero() && c.ShouldStart == nil {
			reg.ExpectedStart = c.NominalTime.Add(shiftStart)
			delete(judged, kindStart)
		}
		if !reg.ExpectedEnd.IsZero() && c.ShouldEnd == nil {
			reg.ExpectedEnd = c.NominalTime.Add(shiftEnd)
			delete(judged, kindEnd)
		}
		reg.NominalTime = c.NominalTime
	}
	if c.ShouldStart != nil {
		reg.ExpectedStart = reg.NominalTime.Add(*c.ShouldStart)
		delete(judged, kindStart)
	}
	if c.ShouldEnd != nil {
		reg.ExpectedEnd = reg.NominalTime.Add(*c.ShouldEnd)
		delete(judged, kindEnd)
	}
	if c.MaxDuration != nil {
		reg.ExpectedDuration = c.MaxDuration.Milliseconds()
		if reg.ExpectedDuration <= 0 {
			reg.ExpectedDuration = -1
		}
		delete(judged, kindDuration)
	}
	reg.EventStatus = joinEvents(judged)
	return reg
}

// Change applies an SLA change to the registrations of id: the job or
// action itself, or, when it has none, the registrations whose parent it is
// (a coordinator's actions). The deadlines are armed again. It fails
// with E0604 when id has no registration at all.
func (s *Service) Change(ctx context.Context, id, value string) error {
	c, err := ParseChange(value, s.cfg.ParseTime)
	if err != nil {
		return err
	}
	return s.forEach(ctx, id, true, func(x store.Tx, reg store.SLA) error {
		reg = c.Apply(reg)
		p, err := progressOf(ctx, x, reg, nil)
		if err != nil {
			return err
		}
		reg.LastModified = s.now()
		if err := x.UpdateSLA(ctx, &reg); err != nil {
			return err
		}
		return s.apply(ctx, x, reg, p)
	})
}

// SetAlerts enables or disables the email alerts of the registrations of id
// (itself and those whose parent it is).
func (s *Service) SetAlerts(ctx context.Context, id string, enabled bool) error {
	return s.forEach(ctx, id, false, func(x store.Tx, reg store.SLA) error {
		if reg.AlertsEnabled == enabled {
			return nil
		}
		reg.AlertsEnabled = enabled
		reg.LastModified = s.now()
		return x.UpdateSLA(ctx, &reg)
	})
}

// forEach runs fn on the registrations of id in one transaction: its own
// and those whose parent it is, or with ownFirst only its own when it has
// one.
func (s *Service) forEach(ctx context.Context, id string, ownFirst bool, fn func(x store.Tx, reg store.SLA) error) error {
	return s.tx(ctx, func(x store.Tx) error {
		own, err := x.ListSLAs(ctx, store.SLAFilter{IDs: []string{id}})
		if err != nil {
			return err
		}
		all := own
		if !ownFirst || len(own) == 0 {
			children, err := x.ListSLAs(ctx, store.SLAFilter{ParentIDs: []string{id}})
			if err != nil {
				return err
			}
			all = append(all, children...)
		}
		if len(all) == 0 {
			return &Error{Code: oozieerr.E0604, Msg: fmt.Sprintf("Job does not exist [%s]", id)}
		}
		for _, reg := range all {
			if err := fn(x, reg); err != nil {
				return fmt.Errorf("SLA of %s: %w", reg.ID, err)
			}
		}
		return nil
	})
}
