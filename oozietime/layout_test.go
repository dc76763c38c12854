package oozietime

import (
	"testing"
	"time"
)

// TestLayoutsMatchFormat checks that the Go layouts print what the processing zone's Format
// prints, so that code using time.Format with them writes Oozie's mask.
func TestLayoutsMatchFormat(t *testing.T) {
	t.Parallel()
	at := time.Date(2009, 9, 8, 23, 59, 0, 0, time.UTC)
	if got, want := at.Format(Layout), UTC.Format(at); got != want {
		t.Errorf("Layout prints %q, UTC.Format %q", got, want)
	}
	f, err := NewFormat("GMT+0530")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := at.In(f.Location()).Format(OffsetLayout), f.Format(at); got != want {
		t.Errorf("OffsetLayout prints %q, GMT+0530 Format %q", got, want)
	}
	if got := at.Format(ZonedLayout); got != "2009-09-08T23:59Z" {
		t.Errorf("ZonedLayout in UTC prints %q", got)
	}
	if got := at.In(zone(t, "America/Los_Angeles")).Format(ZonedLayout); got != "2009-09-08T16:59-07:00" {
		t.Errorf("ZonedLayout in Los Angeles prints %q", got)
	}
	if got := at.Format(JavaDateLayout); got != "Tue Sep 08 23:59:00 UTC 2009" {
		t.Errorf("JavaDateLayout prints %q", got)
	}
}

// TestStepIndex checks the series index over a daylight-saving change and across month ends.
func TestStepIndex(t *testing.T) {
	t.Parallel()
	la := zone(t, "America/Los_Angeles")
	tests := []struct {
		name  string
		start string
		unit  Unit
		freq  int
		loc   *time.Location
		at    string
		want  int
	}{
		{"on a step", "2009-03-06T10:00Z", Day, 1, la, "2009-03-08T09:00Z", 2},
		{"just before a step after the spring gap", "2009-03-06T10:00Z", Day, 1, la, "2009-03-08T08:59Z", 1},
		{"clamped months", "2009-01-31T00:00Z", Month, 1, time.UTC, "2009-02-28T00:00Z", 1},
		{"before the start", "2009-01-31T00:00Z", Month, 1, time.UTC, "2009-01-30T00:00Z", -1},
		{"no frequency", "2009-01-31T00:00Z", Month, 0, time.UTC, "2010-01-30T00:00Z", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := StepIndex(utc(t, tc.start), tc.unit, tc.freq, tc.loc, utc(t, tc.at)); got != tc.want {
				t.Fatalf("StepIndex = %d, want %d", got, tc.want)
			}
		})
	}
}
