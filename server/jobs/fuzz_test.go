package jobs

import (
	"errors"
	"strings"
	"testing"
	"time"
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
