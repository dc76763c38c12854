package coordinator

import (
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// ActionScope parses an action scope ("1-3,7") into action ids of the job, in order and
// without duplicates; numbers that have no action are the caller's to skip.
func ActionScope(jobID, scope string) ([]string, error) {
	if strings.TrimSpace(scope) == "" {
		return nil, oozieerr.At(oozieerr.E0302, "scope", "scope cannot be empty")
	}
	seen := map[int]bool{}
	var ids []string
	add := func(n int) {
		if !seen[n] {
			seen[n] = true
			ids = append(ids, ActionID(jobID, n))
		}
	}
	for _, item := range strings.Split(scope, ",") {
		item = strings.TrimSpace(item)
		if a, b, ok := strings.Cut(item, "-"); ok {
			if strings.Contains(b, "-") {
				return nil, oozieerr.At(oozieerr.E0302, "scope", "format is wrong for action's range '%s', an example of correct format is 1-5", item)
			}
			lo, err1 := strconv.Atoi(strings.TrimSpace(a))
			hi, err2 := strconv.Atoi(strings.TrimSpace(b))
			if err1 != nil || err2 != nil {
				return nil, oozieerr.At(oozieerr.E0302, "scope", "could not parse range '%s' into integers", item)
			}
			if lo > hi {
				return nil, oozieerr.At(oozieerr.E0302, "scope", "format is wrong for action's range '%s', starting action "+
					"number of the range should be less than ending action number, an example will be 1-4", item)
			}
			for n := lo; n <= hi; n++ {
				add(n)
			}
			continue
		}
		n, err := strconv.Atoi(item)
		if err != nil {
			return nil, oozieerr.At(oozieerr.E0302, "scope", "format is wrong for action id'%s'. Integer only.", item)
		}
		add(n)
	}
	return ids, nil
}

// DateRange is one item of a date scope: a single nominal time (From equals To) or an
// inclusive range "from::to".
type DateRange struct {
	From, To time.Time
}

// Contains reports whether t is in the range, both ends included.
func (r DateRange) Contains(t time.Time) bool { return !t.Before(r.From) && !t.After(r.To) }

// DateScope parses a date scope ("2009-12-15T01:00Z::2009-12-16T01:00Z,2009-12-20T01:00Z").
func DateScope(scope string, f oozietime.Format) ([]DateRange, error) {
	if strings.TrimSpace(scope) == "" {
		return nil, oozieerr.At(oozieerr.E0302, "scope", "scope cannot be empty")
	}
	var out []DateRange
	for _, item := range strings.Split(scope, ",") {
		item = strings.TrimSpace(item)
		a, b, isRange := strings.Cut(item, "::")
		from, err := f.Parse(a)
		if err != nil {
			return nil, oozieerr.WrapAt(oozieerr.E0302, "scope", err, "invalid date %q", a)
		}
		to := from
		if isRange {
			if to, err = f.Parse(b); err != nil {
				return nil, oozieerr.WrapAt(oozieerr.E0302, "scope", err, "invalid date %q", b)
			}
		}
		out = append(out, DateRange{From: from, To: to})
	}
	return out, nil
}

// InDateScope returns the actions whose nominal time is in one of the ranges, in the order
// given.
func InDateScope(actions []store.CoordAction, ranges []DateRange) []store.CoordAction {
	var out []store.CoordAction
	for _, a := range actions {
		for _, r := range ranges {
			if r.Contains(a.NominalTime) {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

// ActionFilter is the filter parameter of a coordinator's action listing
// ("status=RUNNING;status=KILLED;nominaltime>=2014-06-01T00:00Z"): repeated equalities are an
// OR (SQL IN), != excludes, and the nominal time comparisons are ANDed.
type ActionFilter struct {
	Status    []store.CoordActionStatus
	NotStatus []store.CoordActionStatus
	// NominalTime holds comparisons of the nominal time: comparator (<, <=, >, >=, =, !=)
	// and time.
	NominalTime []TimeComparison
}

// TimeComparison is one nominal-time condition of an ActionFilter.
type TimeComparison struct {
	Op   string
	Time time.Time
}

// Matches reports whether an action passes the filter.
func (f ActionFilter) Matches(a store.CoordAction) bool {
	if len(f.Status) > 0 && !containsStatus(f.Status, a.Status) {
		return false
	}
	if containsStatus(f.NotStatus, a.Status) {
		return false
	}
	for _, c := range f.NominalTime {
		nt := a.NominalTime
		ok := map[string]bool{"<": nt.Before(c.Time), "<=": !nt.After(c.Time), ">": nt.After(c.Time),
			">=": !nt.Before(c.Time), "=": nt.Equal(c.Time), "!=": !nt.Equal(c.Time)}[c.Op]
		if !ok {
			return false
		}
	}
	return true
}

// ParseActionFilter parses a coordinator action filter; keys are status and nominaltime.
func ParseActionFilter(filter string, f oozietime.Format) (ActionFilter, error) {
	var out ActionFilter
	for _, item := range strings.Split(filter, ";") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, op, value, ok := cutComparator(item)
		if !ok {
			return ActionFilter{}, oozieerr.At(oozieerr.E0302, "filter", "filter elements must be key<comparator>value pairs: %s", item)
		}
		switch strings.ToLower(key) {
		case "status":
			s := store.CoordActionStatus(strings.ToUpper(value))
			if !containsStatus(store.CoordActionStatuses, s) {
				return ActionFilter{}, oozieerr.At(oozieerr.E0302, "filter", "invalid status value %s", value)
			}
			switch op {
			case "=":
				out.Status = append(out.Status, s)
			case "!=":
				out.NotStatus = append(out.NotStatus, s)
			default:
				return ActionFilter{}, oozieerr.At(oozieerr.E0302, "filter", "status only supports = and !=")
			}
		case "nominaltime":
			t, err := f.Parse(value)
			if err != nil {
				return ActionFilter{}, oozieerr.WrapAt(oozieerr.E0302, "filter", err, "invalid nominal time %s", value)
			}
			out.NominalTime = append(out.NominalTime, TimeComparison{Op: op, Time: t})
		default:
			return ActionFilter{}, oozieerr.At(oozieerr.E0302, "filter", "invalid filter key %s, must be status or nominaltime", key)
		}
	}
	return out, nil
}

// cutComparator splits "key<op>value" on the first comparator.
func cutComparator(s string) (key, op, value string, ok bool) {
	for i := 0; i < len(s); i++ {
		for _, c := range []string{"!=", "<=", ">=", "=", "<", ">"} {
			if strings.HasPrefix(s[i:], c) {
				return strings.TrimSpace(s[:i]), c, strings.TrimSpace(s[i+len(c):]), i > 0
			}
		}
	}
	return "", "", "", false
}

// containsStatus reports whether list holds s.
func containsStatus(list []store.CoordActionStatus, s store.CoordActionStatus) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
