package slaapi

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/oozietime"
)

// FuzzParseFilter: any filter text parses or fails with a FilterError,
// never panics, and a parsed filter only holds known statuses.
func FuzzParseFilter(f *testing.F) {
	f.Add("app_name=a;id=b,c;parent_id=p")
	f.Add("created_time_start=2026-01-01T00:00Z;expected_duration_max=60000")
	f.Fuzz(func(t *testing.T, text string) {
		flt, err := ParseFilter(text, oozietime.UTC.Parse)
		if err != nil {
			if _, ok := err.(*FilterError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if !strings.HasPrefix(err.Error(), "E0303: ") {
				t.Fatalf("message %q", err)
			}
			return
		}
		for _, s := range flt.SLAStatuses {
			if s == "" {
				t.Fatal("empty status accepted")
			}
		}
		for _, e := range flt.EventStatuses {
			if !strings.Contains(string(e), "_") {
				t.Fatalf("odd event status %q", e)
			}
		}
	})
}
