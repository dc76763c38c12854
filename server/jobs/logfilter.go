package jobs

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/server"
)

// paramLogFilter is the query parameter that narrows the log shows.
const paramLogFilter = "logfilter"

// logFilter is Oozie's logfilter parameter of the log shows (show=log,
// errorlog, auditlog): options separated by ';', each name=value, names in
// any case:
//
//	recent=3h | recent=30m     only the last hours (h, or no unit) or minutes (m)
//	                           before the end
//	start=<time> | start=2h    from a time, or an offset after the job's start
//	end=<time> | end=2h        up to a time, or an offset after the start (the
//	                           start's time when it is one, else the job's start)
//	loglevel=WARN|ERROR        lines of exactly these levels (ALL, TRACE, DEBUG,
//	                           INFO, WARN, ERROR, FATAL), as Oozie matches them:
//	                           WARN alone does not show ERROR lines
//	text=<string>              lines that contain the string (plain text, not
//	                           Oozie's regular expression)
//	limit=<n>                  at most n lines, the oldest first
//	debug                      first a line that tells what the filter selects
//
// Times are yyyy-MM-ddTHH:mmZ (UTC), or yyyy-MM-dd HH:mm:ss with or without
// ,SSS as the log lines show them (in the request's time zone). Both ends of
// the window are inclusive. Without start and end every line is shown; recent
// counts back from the end, or from where the show's log ends (see window).
type logFilter struct {
	start, end logBound
	recent     time.Duration
	levels     []string // upper case; nil = every level
	text       string
	limit      int // 0 = no limit
	debug      bool
}

// logBound is one end of a logfilter's time window: a time, or an offset
// after the job's start.
type logBound struct {
	at     time.Time
	offset time.Duration
	set    bool
}

// resolve returns the bound's time, an offset counting from base.
func (b logBound) resolve(base time.Time) time.Time {
	if !b.at.IsZero() {
		return b.at
	}
	return base.Add(b.offset)
}

// logLevels are the levels a logfilter may name.
var logLevels = []string{"ALL", "TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"}

// logFilterError is a logfilter that does not parse.
type logFilterError struct {
	reason string
}

// Error returns the reason.
func (e *logFilterError) Error() string { return e.reason }

// logFilterParam reads the logfilter parameter of a log show; times without
// a zone are read in loc. A bad filter is a 400 E0303 that names the part at
// fault.
func logFilterParam(q url.Values, loc *time.Location) (logFilter, error) {
	raw := q.Get(paramLogFilter)
	f, err := parseLogFilter(raw, loc)
	if err != nil {
		return logFilter{}, server.NewError(http.StatusBadRequest, oozieerr.E0303,
			"Invalid parameter value, [%s] = [%s], %v", paramLogFilter, raw, err)
	}
	return f, nil
}

// parseLogFilter parses a logfilter; times without a zone are read in loc.
func parseLogFilter(s string, loc *time.Location) (logFilter, error) {
	var f logFilter
	bad := func(format string, args ...any) (logFilter, error) {
		return logFilter{}, &logFilterError{reason: fmt.Sprintf(format, args...)}
	}
	for _, opt := range strings.Split(s, ";") {
		if strings.TrimSpace(opt) == "" {
			continue
		}
		name, value, hasValue := strings.Cut(opt, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "text" {
			value = strings.TrimSpace(value)
		}
		if !hasValue && name != "debug" {
			return bad("option [%s] needs a value", name)
		}
		var err error
		switch name {
		case "recent":
			if f.recent, err = logOffset(value); err != nil {
				return bad("recent [%s]: %v", value, err)
			}
		case "start", "end":
			b, err := parseLogBound(value, loc)
			if err != nil {
				return bad("%s [%s]: %v", name, value, err)
			}
			if name == "start" {
				f.start = b
			} else {
				f.end = b
			}
		case "loglevel":
			f.levels = nil
			for _, l := range strings.Split(value, "|") {
				l = strings.ToUpper(strings.TrimSpace(l))
				if !slices.Contains(logLevels, l) {
					return bad("loglevel [%s]: want levels among %s separated by |", value, strings.Join(logLevels, ", "))
				}
				f.levels = append(f.levels, l)
			}
		case "text":
			if value == "" {
				return bad("text is empty")
			}
			f.text = value
		case "limit":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				return bad("limit [%s]: want a positive number of lines", value)
			}
			f.limit = n
		case "debug":
			if hasValue && value != "true" && value != "false" {
				return bad("debug [%s]: give debug alone", value)
			}
			f.debug = !hasValue || value == "true"
		default:
			return bad("unknown option [%s]; options are recent, start, end, loglevel, text, limit and debug", name)
		}
	}
	if f.start.set && f.end.set {
		// Both times, or both offsets from the job's start, can be compared
		// now; an end offset counts from a start time, so it never comes first.
		bothAt := !f.start.at.IsZero() && !f.end.at.IsZero()
		bothOffsets := f.start.at.IsZero() && f.end.at.IsZero()
		if (bothAt && f.end.at.Before(f.start.at)) || (bothOffsets && f.end.offset < f.start.offset) {
			return bad("end is before start")
		}
	}
	return f, nil
}

// logSecondLayout is a log time without milliseconds, which Oozie's own
// parser reads (it ignores what follows the seconds).
const logSecondLayout = "2006-01-02 15:04:05"

// parseLogBound reads a time or an offset.
func parseLogBound(s string, loc *time.Location) (logBound, error) {
	if t, err := time.Parse(oozietime.Layout, s); err == nil {
		return logBound{at: t, set: true}, nil
	}
	for _, layout := range []string{logTimeLayout, logSecondLayout} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return logBound{at: t, set: true}, nil
		}
	}
	d, err := logOffset(s)
	if err != nil {
		return logBound{}, fmt.Errorf("want yyyy-MM-ddTHH:mmZ, yyyy-MM-dd HH:mm:ss[,SSS] or an offset: %w", err)
	}
	return logBound{offset: d, set: true}, nil
}

// logOffset reads "3h", "3" (hours) or "30m", a positive whole number.
func logOffset(s string) (time.Duration, error) {
	unit := time.Hour
	digits := s
	if s != "" {
		switch s[len(s)-1] {
		case 'h', 'H':
			digits = s[:len(s)-1]
		case 'm', 'M':
			digits, unit = s[:len(s)-1], time.Minute
		}
	}
	n, err := strconv.Atoi(digits)
	const most = 100 * 365 * 24 // hours: a century, far from overflowing a Duration
	if err != nil || n < 1 || (unit == time.Hour && n > most) || n > most*60 {
		return 0, fmt.Errorf("want a positive number of hours (3h, 3) or minutes (30m)")
	}
	return time.Duration(n) * unit, nil
}

// window returns the time bounds of the lines to show (zero: unbounded), for
// a log whose offsets count from jobStart and which ends at last: recent
// counts back from the end option, else from last (the show says what that
// is: now for the audit log, a finished job's end for its log). As in Oozie,
// an end offset counts from the start option when that is a time.
func (f logFilter) window(jobStart, last time.Time) (from, to time.Time) {
	if f.start.set {
		from = f.start.resolve(jobStart)
	}
	if f.end.set {
		base := jobStart
		if !f.start.at.IsZero() {
			base = f.start.at
		}
		to = f.end.resolve(base)
	}
	if f.recent > 0 {
		end := to
		if end.IsZero() {
			end = last
		}
		if r := end.Add(-f.recent); r.After(from) {
			from = r
		}
	}
	return from, to
}

// showsLevel reports whether lines of level are shown.
func (f logFilter) showsLevel(level string) bool {
	return f.levels == nil || slices.Contains(f.levels, "ALL") || slices.Contains(f.levels, level)
}

// describe is the line that debug prints first.
func (f logFilter) describe(from, to time.Time, loc *time.Location) string {
	at := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.In(loc).Format(logTimeLayout)
	}
	levels := "ALL"
	if f.levels != nil {
		levels = strings.Join(f.levels, "|")
	}
	limit := "-"
	if f.limit > 0 {
		limit = strconv.Itoa(f.limit)
	}
	return fmt.Sprintf("Log filter: start [%s], end [%s], loglevel [%s], text [%s], limit [%s]",
		at(from), at(to), levels, dash(f.text), limit)
}
