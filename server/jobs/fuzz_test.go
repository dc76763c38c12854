package jobs

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
)

// FuzzParseFilter checks that any filter text either parses or is refused with an E0420
// FilterError, for every job type, and that what parses only holds values from the text.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"", "user=joe;status=RUNNING", "startcreatedtime=-2d", "frequency=1.5;unit=hours",
		"text=a=b", "sortby=lastModifiedTime;;id=x", "endcreatedtime=2025-01-01T00:00Z"} {
		f.Add(s)
	}
	now := time.Date(2025, 3, 10, 12, 30, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		for _, typ := range []JobType{TypeWorkflow, TypeCoordinator, TypeBundle} {
			got, err := ParseFilter(s, typ, now)
			if err != nil {
				var fe *FilterError
				if !errors.As(err, &fe) || fe.Filter != s || fe.Reason == "" {
					t.Fatalf("ParseFilter(%q, %s) error %v is not a FilterError of the filter", s, typ, err)
				}
				continue
			}
			for _, vs := range [][]string{got.Users, got.Names, got.Groups, got.IDs, got.Statuses} {
				for _, v := range vs {
					if !strings.Contains(s, v) {
						t.Fatalf("ParseFilter(%q, %s) invented value %q", s, typ, v)
					}
				}
			}
			if got.Text != "" && !strings.Contains(s, got.Text) {
				t.Fatalf("ParseFilter(%q, %s) invented text %q", s, typ, got.Text)
			}
			if typ != TypeCoordinator && (got.Frequency != "" || got.Unit != "") {
				t.Fatalf("ParseFilter(%q, %s) set a frequency for a non-coordinator", s, typ)
			}
		}
	})
}

// FuzzParseCoordActionFilter checks that any coordinator action filter either parses or is
// refused with a 400 E0421, and that what parses holds only known statuses and whole-minute
// bounds.
func FuzzParseCoordActionFilter(f *testing.F) {
	for _, s := range []string{"", "status=KILLED;status!=WAITING", "nominaltime>=2014-06-01T00:00Z",
		"nominaltime<2014-06-01T00:00Z;nominaltime>2014-05-01T00:00Z", "status=", "=x", "nominaltime<=x", ";;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got store.CoordActionFilter
		err := parseCoordActionFilter(s, &got)
		if err != nil {
			var se *server.Error
			if !errors.As(err, &se) || se.Code != oozieerr.E0421 || se.Status != http.StatusBadRequest {
				t.Fatalf("parseCoordActionFilter(%q) error %v is not a 400 E0421", s, err)
			}
			return
		}
		for _, st := range append(append([]store.CoordActionStatus{}, got.Statuses...), got.NotStatuses...) {
			if !slices.Contains(store.CoordActionStatuses, st) {
				t.Fatalf("parseCoordActionFilter(%q) gave status %q", s, st)
			}
		}
		for _, b := range []time.Time{got.NominalFrom, got.NominalTo} {
			if !b.IsZero() && (b.Second() != 0 || b.Nanosecond() != 0) {
				t.Fatalf("parseCoordActionFilter(%q) gave bound %v", s, b)
			}
		}
	})
}
