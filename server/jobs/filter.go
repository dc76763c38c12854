package jobs

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// JobType is the kind of job a listing or a filter is about.
type JobType string

// Job types, as the jobtype parameter names them.
const (
	TypeWorkflow    JobType = "wf"
	TypeCoordinator JobType = "coordinator"
	TypeBundle      JobType = "bundle"
)

// ParseJobType reads the jobtype parameter as Oozie does: absent means wf, and otherwise the
// first of "wf", "coord" and "bundle" the value contains decides. It reports false for a
// value that names none of them.
func ParseJobType(s string) (JobType, bool) {
	switch {
	case s == "" || strings.Contains(s, "wf"):
		return TypeWorkflow, true
	case strings.Contains(s, "coord"):
		return TypeCoordinator, true
	case strings.Contains(s, "bundle"):
		return TypeBundle, true
	}
	return "", false
}

// Filter is a parsed jobs filter: the store's job filter plus what only coordinators have.
type Filter struct {
	store.JobFilter
	// Frequency and Unit select coordinators by frequency, normalized the way coordinator
	// rows store it: a frequency in hours becomes minutes, so Unit is MINUTE, DAY or MONTH.
	// Both are empty when the filter names no frequency.
	Frequency string
	Unit      string
}

// FilterError is an invalid jobs filter, Oozie's E0420.
type FilterError struct {
	// Filter is the whole filter text.
	Filter string
	// Reason names the part at fault, e.g. "invalid name [foo]".
	Reason string
}

// Error returns "E0420: Invalid jobs filter [<filter>], <reason>".
func (e *FilterError) Error() string {
	return oozieerr.E0420 + ": Invalid jobs filter [" + e.Filter + "], " + e.Reason
}

// ErrorCode returns E0420.
func (e *FilterError) ErrorCode() string { return oozieerr.E0420 }

// Filter names (lower case; names are matched case-insensitively).
const (
	filterUser      = "user"
	filterName      = "name"
	filterGroup     = "group"
	filterStatus    = "status"
	filterID        = "id"
	filterText      = "text"
	filterStartTime = "startcreatedtime"
	filterEndTime   = "endcreatedtime"
	filterSortBy    = "sortby"
	filterFrequency = "frequency"
	filterUnit      = "unit"
)

// filterNames lists the names each job type accepts.
var filterNames = map[JobType][]string{
	TypeWorkflow: {filterUser, filterName, filterGroup, filterStatus, filterID, filterText,
		filterStartTime, filterEndTime, filterSortBy},
	TypeCoordinator: {filterUser, filterName, filterGroup, filterStatus, filterID, filterText,
		filterStartTime, filterEndTime, filterSortBy, filterFrequency, filterUnit},
	TypeBundle: {filterUser, filterName, filterGroup, filterStatus, filterID, filterText,
		filterStartTime, filterEndTime, filterSortBy},
}

// Sort orders of the sortby filter, as Oozie spells them (matched case-insensitively).
const (
	SortCreatedTime      = "createdTime"
	SortLastModifiedTime = "lastModifiedTime"
)

// timeFormatHint ends the errors about created-time values.
const timeFormatHint = " Specify time either in UTC format (yyyy-MM-dd'T'HH:mm'Z') or a offset value in days/hours/minutes e.g. (-2d/-1h/-5m)"

// ParseFilter parses the filter parameter of a jobs listing for jobs of type t:
//
//	name=value;name=value;...
//
// Names are matched case-insensitively: user, name, group, status, id (a repeated name is
// ORed, different names are ANDed; Oozie 5 ignores group for workflows, gozie applies it), text (part of the app name or user, or the exact id),
// startcreatedtime and endcreatedtime (yyyy-MM-ddTHH:mmZ, or -Nd / -Nh / -Nm before now),
// sortby (createdTime or lastModifiedTime, newest first), and for coordinators frequency and
// unit (months, days, hours, minutes). Statuses must be statuses of t, spelled as Oozie
// spells them. Values are taken as written. Errors are *FilterError (E0420) naming the part
// at fault. Paging is not part of the filter: Offset and Limit are left zero.
func ParseFilter(s string, t JobType, now time.Time) (Filter, error) {
	var f Filter
	bad := func(reason string) (Filter, error) {
		return Filter{}, &FilterError{Filter: s, Reason: reason}
	}
	allowed := filterNames[t]
	if allowed == nil {
		return bad("unknown job type [" + string(t) + "]")
	}
	seen := map[string]bool{}
	var frequency, unit string
	for tok := range strings.SplitSeq(s, ";") {
		if tok == "" {
			continue
		}
		name, value, ok := splitPair(tok)
		if !ok {
			return bad("elements must be semicolon-separated name=value pairs")
		}
		name = strings.ToLower(name)
		if !slices.Contains(allowed, name) {
			return bad("invalid name [" + name + "]")
		}
		switch name {
		case filterUser:
			f.Users = append(f.Users, value)
		case filterName:
			f.Names = append(f.Names, value)
		case filterGroup:
			f.Groups = append(f.Groups, value)
		case filterID:
			f.IDs = append(f.IDs, value)
		case filterStatus:
			if !validStatus(t, value) {
				return bad("invalid status [" + value + "]")
			}
			f.Statuses = append(f.Statuses, value)
		case filterText, filterStartTime, filterEndTime, filterSortBy:
			if seen[name] {
				return bad("cannot specify multiple " + name)
			}
			switch name {
			case filterText:
				f.Text = value
			case filterSortBy:
				sort, ok := parseSortBy(value)
				if !ok {
					return bad("invalid sortby [" + value + "], use " + SortCreatedTime + " or " + SortLastModifiedTime)
				}
				f.SortBy = sort
			default:
				at, reason := parseCreatedTime(value, now)
				if reason != "" {
					return bad(reason)
				}
				if name == filterStartTime {
					f.CreatedFrom = at
				} else {
					f.CreatedTo = at
				}
			}
		case filterFrequency:
			n, err := strconv.ParseFloat(strings.TrimSpace(value), 32)
			if err != nil {
				return bad("invalid value [" + value + "] for frequency. A numerical value is expected")
			}
			frequency = strconv.Itoa(javaInt(n))
		case filterUnit:
			switch strings.ToLower(value) {
			case "months", "days", "hours", "minutes":
				unit = strings.ToLower(value)
			default:
				return bad("invalid value [" + value + "] for time unit. Valid value is one of months, days, hours or minutes")
			}
		}
		seen[name] = true
	}
	switch {
	case unit != "" && frequency == "":
		return bad("time unit should be added only when frequency is specified. Either specify frequency also or else remove the time unit")
	case frequency != "":
		f.Frequency, f.Unit = normalizeFrequency(frequency, unit)
	}
	return f, nil
}

// splitPair splits "name=value" the way Java's String.split("=") does for Oozie: the text
// must hold exactly one '=' (trailing empty pieces do not count) and a name.
func splitPair(tok string) (name, value string, ok bool) {
	parts := strings.Split(tok, "=")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) != 2 {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// validStatus reports whether s is a status of jobs of type t.
func validStatus(t JobType, s string) bool {
	if t == TypeWorkflow {
		return slices.Contains(store.WorkflowStatuses, store.WorkflowStatus(s))
	}
	// PREMATER is a status of Oozie's enum that gozie never gives a job (it materializes
	// without that intermediate step); filtering on it is valid and matches nothing.
	return s == statusPreMater || slices.Contains(store.JobStatuses, store.JobStatus(s))
}

// statusPreMater is Oozie's coordinator status between PREP and RUNNING.
const statusPreMater = "PREMATER"

// parseSortBy matches a sortby value to its canonical spelling.
func parseSortBy(v string) (string, bool) {
	for _, s := range []string{SortCreatedTime, SortLastModifiedTime} {
		if strings.EqualFold(v, s) {
			return s, true
		}
	}
	return "", false
}

// parseCreatedTime reads a startcreatedtime/endcreatedtime value: a UTC datetime ending in
// Z (Oozie's strict parser), or a non-positive offset from now in days, hours or minutes. It
// returns the reason when the value is invalid.
func parseCreatedTime(v string, now time.Time) (time.Time, string) {
	if v == "" {
		return time.Time{}, "The format of time is wrong: " + v + timeFormatHint
	}
	last := v[len(v)-1]
	var unit time.Duration
	switch last {
	case 'Z':
		t, err := oozietime.UTC.Parse(v)
		if err != nil {
			return time.Time{}, "Unsupported time format: " + v + timeFormatHint
		}
		return t, ""
	case 'd':
		unit = 24 * time.Hour
	case 'h':
		unit = time.Hour
	case 'm':
		unit = time.Minute
	default:
		if ('a' <= last && last <= 'z') || ('A' <= last && last <= 'Z') {
			return time.Time{}, "Unsupported time format: " + v + timeFormatHint
		}
		return time.Time{}, "The format of time is wrong: " + v + timeFormatHint
	}
	n, err := strconv.Atoi(v[:len(v)-1])
	if err != nil || n < -1_000_000 {
		return time.Time{}, "Unsupported time format: " + v + timeFormatHint
	}
	if n > 0 {
		return time.Time{}, "offset must be minus from currentTime."
	}
	if last == 'd' {
		// Days are calendar days, as Java's DateUtils.addDays counts them.
		return now.AddDate(0, 0, n), ""
	}
	return now.Add(time.Duration(n) * unit), ""
}

// javaInt converts like Java's (int) cast of a float: NaN is 0 and values out of the int
// range saturate (Go leaves those conversions undefined).
func javaInt(f float64) int {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int(f)
}

// normalizeFrequency turns a frequency filter into the form coordinator rows store: hours
// become minutes; a missing unit means minutes.
func normalizeFrequency(frequency, unit string) (string, string) {
	switch unit {
	case "months":
		return frequency, "MONTH"
	case "days":
		return frequency, "DAY"
	case "hours":
		n, _ := strconv.Atoi(frequency)
		return strconv.Itoa(n * 60), "MINUTE"
	}
	return frequency, "MINUTE"
}
