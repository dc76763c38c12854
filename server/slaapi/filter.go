package slaapi

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// FilterError is an invalid SLA filter, answered 400 E0303.
type FilterError struct {
	Filter string
	Reason string
}

// Error returns "E0303: Invalid parameter value, [filter] = [...] (reason)".
func (e *FilterError) Error() string {
	return fmt.Sprintf(string(oozieerr.E0303)+": Invalid parameter value, [filter] = [%s] (%s)", e.Filter, e.Reason)
}

// ErrorCode returns E0303.
func (e *FilterError) ErrorCode() string { return string(oozieerr.E0303) }

// filterKeys maps each filter name (aliases included) to what it sets.
var filterKeys = map[string]func(f *store.SLAFilter, v string, parse func(string) (time.Time, error)) error{
	"app_name": func(f *store.SLAFilter, v string, _ func(string) (time.Time, error)) error {
		f.AppNames = appendList(f.AppNames, v)
		return nil
	},
	"id": func(f *store.SLAFilter, v string, _ func(string) (time.Time, error)) error {
		f.IDs = appendList(f.IDs, v)
		return nil
	},
	"parent_id": func(f *store.SLAFilter, v string, _ func(string) (time.Time, error)) error {
		f.ParentIDs = appendList(f.ParentIDs, v)
		return nil
	},
	"user_name": func(f *store.SLAFilter, v string, _ func(string) (time.Time, error)) error {
		f.Users = appendList(f.Users, v)
		return nil
	},
	"job_status": func(f *store.SLAFilter, v string, _ func(string) (time.Time, error)) error {
		f.JobStatuses = appendList(f.JobStatuses, v)
		return nil
	},
	"bundle": func(f *store.SLAFilter, v string, _ func(string) (time.Time, error)) error {
		if f.BundleID != "" && f.BundleID != v {
			return fmt.Errorf("only one bundle may be given")
		}
		f.BundleID = v
		return nil
	},
	"app_type": func(f *store.SLAFilter, v string, _ func(string) (time.Time, error)) error {
		for _, s := range splitList(v) {
			t := store.AppType(strings.ToUpper(s))
			if !oneOf(t, store.AppTypes) {
				return fmt.Errorf("invalid app_type [%s]", s)
			}
			f.AppTypes = append(f.AppTypes, t)
		}
		return nil
	},
	"sla_status": func(f *store.SLAFilter, v string, _ func(string) (time.Time, error)) error {
		for _, s := range splitList(v) {
			st := store.SLAStatus(strings.ToUpper(s))
			if !oneOf(st, store.SLAStatuses) {
				return fmt.Errorf("invalid sla_status [%s]", s)
			}
			f.SLAStatuses = append(f.SLAStatuses, st)
		}
		return nil
	},
	"event_status": func(f *store.SLAFilter, v string, _ func(string) (time.Time, error)) error {
		for _, s := range splitList(v) {
			e := store.SLAEventStatus(strings.ToUpper(s))
			if !oneOf(e, store.SLAEventStatuses) {
				return fmt.Errorf("invalid event_status [%s]", s)
			}
			f.EventStatuses = append(f.EventStatuses, e)
		}
		return nil
	},
	"nominal_after":        timeKey(func(f *store.SLAFilter) *time.Time { return &f.NominalFrom }),
	"nominal_start":        timeKey(func(f *store.SLAFilter) *time.Time { return &f.NominalFrom }),
	"nominal_before":       timeKey(func(f *store.SLAFilter) *time.Time { return &f.NominalTo }),
	"nominal_end":          timeKey(func(f *store.SLAFilter) *time.Time { return &f.NominalTo }),
	"created_after":        timeKey(func(f *store.SLAFilter) *time.Time { return &f.CreatedFrom }),
	"created_time_start":   timeKey(func(f *store.SLAFilter) *time.Time { return &f.CreatedFrom }),
	"created_before":       timeKey(func(f *store.SLAFilter) *time.Time { return &f.CreatedTo }),
	"created_time_end":     timeKey(func(f *store.SLAFilter) *time.Time { return &f.CreatedTo }),
	"expectedstart_after":  timeKey(func(f *store.SLAFilter) *time.Time { return &f.ExpectedStartFrom }),
	"expectedstart_before": timeKey(func(f *store.SLAFilter) *time.Time { return &f.ExpectedStartTo }),
	"expectedend_after":    timeKey(func(f *store.SLAFilter) *time.Time { return &f.ExpectedEndFrom }),
	"expectedend_before":   timeKey(func(f *store.SLAFilter) *time.Time { return &f.ExpectedEndTo }),
	"actualstart_after":    timeKey(func(f *store.SLAFilter) *time.Time { return &f.ActualStartFrom }),
	"actualstart_before":   timeKey(func(f *store.SLAFilter) *time.Time { return &f.ActualStartTo }),
	"actualend_after":      timeKey(func(f *store.SLAFilter) *time.Time { return &f.ActualEndFrom }),
	"actualend_before":     timeKey(func(f *store.SLAFilter) *time.Time { return &f.ActualEndTo }),
	"actual_duration_min":  msKey(func(f *store.SLAFilter) **int64 { return &f.ActualDurationMin }),
	"actual_duration_max":  msKey(func(f *store.SLAFilter) **int64 { return &f.ActualDurationMax }),
	"expected_duration_min": msKey(func(f *store.SLAFilter) **int64 {
		return &f.ExpectedDurationMin
	}),
	"expected_duration_max": msKey(func(f *store.SLAFilter) **int64 {
		return &f.ExpectedDurationMax
	}),
}

func timeKey(field func(*store.SLAFilter) *time.Time) func(*store.SLAFilter, string, func(string) (time.Time, error)) error {
	return func(f *store.SLAFilter, v string, parse func(string) (time.Time, error)) error {
		t, err := parse(v)
		if err != nil {
			return fmt.Errorf("invalid date [%s]", v)
		}
		*field(f) = t
		return nil
	}
}

func msKey(field func(*store.SLAFilter) **int64) func(*store.SLAFilter, string, func(string) (time.Time, error)) error {
	return func(f *store.SLAFilter, v string, _ func(string) (time.Time, error)) error {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return fmt.Errorf("invalid number [%s]", v)
		}
		*field(f) = &n
		return nil
	}
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func appendList(dst []string, v string) []string { return append(dst, splitList(v)...) }

func oneOf[S comparable](v S, all []S) bool {
	for _, a := range all {
		if a == v {
			return true
		}
	}
	return false
}

// ParseFilter reads the filter parameter of GET /v2/sla: name=value pairs
// separated by ';' (AND); comma lists within a value, and a name repeated,
// are ORed. Names are case-insensitive. parse reads datetimes in Oozie's
// format. At least one pair is required.
func ParseFilter(text string, parse func(string) (time.Time, error)) (store.SLAFilter, error) {
	var f store.SLAFilter
	bad := func(reason string) error { return &FilterError{Filter: text, Reason: reason} }
	n := 0
	for _, pair := range strings.Split(text, ";") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, "=")
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		if !ok || k == "" {
			return f, bad("elements must be name=value pairs")
		}
		set, known := filterKeys[k]
		if !known {
			return f, bad("invalid name [" + k + "]")
		}
		if v == "" {
			return f, bad("empty value for [" + k + "]")
		}
		if err := set(&f, v, parse); err != nil {
			return f, bad(err.Error())
		}
		n++
	}
	if n == 0 {
		return f, bad("no name=value pair")
	}
	return f, nil
}
