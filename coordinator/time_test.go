package coordinator

import (
	"testing"
	"time"

	"github.com/gozie/gozie/oozietime"
)

// utc parses an Oozie UTC datetime or fails the test.
func utc(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := oozietime.UTC.Parse(s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return v
}

// zone loads a time zone or fails the test.
func zone(t testing.TB, id string) *time.Location {
	t.Helper()
	loc, err := oozietime.LoadZone(id)
	if err != nil {
		t.Fatalf("zone %q: %v", id, err)
	}
	return loc
}
