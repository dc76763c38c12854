package jobs

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzLogFilter checks that any logfilter (of show=log, errorlog or
// auditlog) either parses or is refused with a logFilterError that gives a
// reason, and that what parses keeps its promises: known levels, a positive
// limit, text from the filter, and a window whose start is not after its end
// unless only the end is a date.
func FuzzLogFilter(f *testing.F) {
	for _, s := range []string{"", "recent=3h", "start=2025-01-27T11:30Z;end=2h", "loglevel=WARN|ERROR;text=x=y;limit=5;debug",
		"start=2025-01-27 03:30:00,250", "start=2025-01-27 03:30:00", "recent=30m", "limit=0", ";=;", "debug=true",
		"start=3h;end=1h"} {
		f.Add(s)
	}
	jobStart := time.Date(2025, 1, 27, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		lf, err := parseLogFilter(s, time.UTC)
		if err != nil {
			var lfe *logFilterError
			if !errors.As(err, &lfe) || lfe.reason == "" {
				t.Fatalf("parseLogFilter(%q) error %v is not a logFilterError with a reason", s, err)
			}
			return
		}
		for _, l := range lf.levels {
			if !strings.Contains(strings.ToUpper(s), l) {
				t.Fatalf("parseLogFilter(%q) invented level %q", s, l)
			}
		}
		if lf.limit < 0 || lf.recent < 0 || (lf.text != "" && !strings.Contains(s, lf.text)) {
			t.Fatalf("parseLogFilter(%q) = %+v", s, lf)
		}
		from, to := lf.window(jobStart, jobStart.Add(time.Hour))
		if lf.start.set && lf.end.set && !(lf.start.at.IsZero() && !lf.end.at.IsZero()) && from.After(to) {
			t.Fatalf("parseLogFilter(%q) gives the window %v – %v", s, from, to)
		}
	})
}
