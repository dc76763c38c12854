package oozietime

import (
	"testing"
	"time"
)

// utc parses an Oozie UTC datetime or fails the test.
func utc(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := UTC.Parse(s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return v
}

// zone loads a time zone or fails the test.
func zone(t testing.TB, id string) *time.Location {
	t.Helper()
	loc, err := LoadZone(id)
	if err != nil {
		t.Fatalf("zone %q: %v", id, err)
	}
	return loc
}

func TestParseDatetime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string // formatted result; "" means a parse error is expected
	}{
		{"S8 valid", "2009-02-01T01:00Z", "2009-02-01T01:00Z"},
		{"S8 no Z", "2009-02-01T01:00", ""},
		{"S8 U instead of T", "2009-02-01U01:00Z", ""},
		{"S14/T14 hour 24", "2009-01-01T24:00Z", ""},
		{"T14 February 30", "2009-02-30T00:00Z", ""},
		{"single digit fields", "2009-1-2T7:00Z", "2009-01-02T07:00Z"},
		{"three digit hour", "2009-03-06T010:00Z", "2009-03-06T10:00Z"},
		{"two digit year is year 9", "09-01-01T00:00Z", "0009-01-01T00:00Z"},
		{"blanks trimmed", "  2009-02-01T01:00Z \n", "2009-02-01T01:00Z"},
		{"seconds rejected", "2009-02-01T01:00:00Z", ""},
		{"trailing characters", "2009-02-01T01:00Zx", ""},
		{"month 13", "2009-13-01T01:00Z", ""},
		{"minute 60", "2009-01-01T01:60Z", ""},
		{"leap day", "2008-02-29T00:00Z", "2008-02-29T00:00Z"},
		{"not a leap year", "2009-02-29T00:00Z", ""},
		{"year zero", "0-01-01T00:00Z", ""},
		{"sign", "+2009-01-01T00:00Z", ""},
		{"empty", "", ""},
		{"huge number", "2009999999999-01-01T00:00Z", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := UTC.Parse(tc.in)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("Parse(%q) = %v, want an error", tc.in, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.in, err)
			}
			if s := UTC.Format(got); s != tc.want {
				t.Fatalf("Parse(%q) formats as %q, want %q", tc.in, s, tc.want)
			}
		})
	}
}

func TestProcessingTimeZone(t *testing.T) {
	t.Parallel()
	f, err := NewFormat("GMT-0300")
	if err != nil {
		t.Fatal(err)
	}
	// T2: a datetime in the processing zone round-trips.
	got, err := f.Parse("2012-08-08T12:42-0300")
	if err != nil {
		t.Fatalf("T2: %v", err)
	}
	if s := f.Format(got); s != "2012-08-08T12:42-0300" {
		t.Fatalf("T2: round trip gave %q", s)
	}
	if want := time.Date(2012, 8, 8, 15, 42, 0, 0, time.UTC); !got.Equal(want) {
		t.Fatalf("T2: instant %v, want %v", got.UTC(), want)
	}
	// T4: trailing characters after the offset.
	if _, err := f.Parse("2012-08-08T12:42-0300x"); err == nil {
		t.Fatal("T4: trailing characters accepted")
	}
	// Another offset than the processing one is a parse error, and so is Z.
	for _, s := range []string{"2012-08-08T12:42-0200", "2012-08-08T12:42Z"} {
		if _, err := f.Parse(s); err == nil {
			t.Fatalf("%q accepted with processing zone GMT-0300", s)
		}
	}
	if f.Mask() != "yyyy-MM-dd'T'HH:mm-0300" || f.Name() != "GMT-0300" {
		t.Fatalf("mask %q name %q", f.Mask(), f.Name())
	}
	for _, bad := range []string{"PST", "GMT+5", "GMT+05:30", "GMT+2400", "utc", ""} {
		if _, err := NewFormat(bad); err == nil {
			t.Fatalf("processing zone %q accepted", bad)
		}
	}
	if f, err := NewFormat("UTC"); err != nil || f != UTC {
		t.Fatalf("UTC: %v %v", f, err)
	}
}

func TestLoadZone(t *testing.T) {
	t.Parallel()
	summer := utc(t, "2012-06-13T00:00Z")
	winter := utc(t, "2012-01-13T00:00Z")
	tests := []struct {
		name         string
		id           string
		valid        bool
		summerOffset int // hours east of UTC in June 2012
		winterOffset int // in January 2012
	}{
		{"T6 region", "America/Los_Angeles", true, -7, -8},
		{"T6 PST observes DST like Java", "PST", true, -7, -8},
		{"T6 GMT", "GMT", true, 0, 0},
		{"UTC", "UTC", true, 0, 0},
		{"EST is fixed", "EST", true, -5, -5},
		{"MST is fixed", "MST", true, -7, -7},
		{"BST is Bangladesh", "BST", true, 6, 6},
		{"IST is India", "IST", true, 5, 5},
		{"CET has DST", "CET", true, 2, 1},
		{"custom with colon", "GMT+05:00", true, 5, 5},
		{"custom without colon is normalized", "GMT-0700", true, -7, -7},
		{"T8 garbage", "This_is_not_a_TimeZone_id", false, 0, 0},
		{"T8 empty (null)", "", false, 0, 0},
		{"short custom", "GMT-7", false, 0, 0},
		{"PDT is no ID", "PDT", false, 0, 0},
		{"typo", "America/Los_Angles", false, 0, 0},
		{"UTZ", "UTZ", false, 0, 0},
		{"zero custom offset is named GMT by Java", "GMT+00:00", false, 0, 0},
		{"Local", "Local", false, 0, 0},
		{"padded", " UTC", false, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			loc, err := LoadZone(tc.id)
			if !tc.valid {
				if err == nil {
					t.Fatalf("LoadZone(%q) accepted", tc.id)
				}
				if _, ok := err.(*ZoneError); !ok || err.Error()[:16] != "Invalid TimeZone" {
					t.Fatalf("LoadZone(%q) error %v, want Invalid TimeZone", tc.id, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadZone(%q): %v", tc.id, err)
			}
			_, s := summer.In(loc).Zone()
			_, w := winter.In(loc).Zone()
			if s/3600 != tc.summerOffset || w/3600 != tc.winterOffset {
				t.Fatalf("%s offsets summer %d winter %d, want %d %d", tc.id, s/3600, w/3600,
					tc.summerOffset, tc.winterOffset)
			}
		})
	}
}
