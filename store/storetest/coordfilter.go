package storetest

import (
	"testing"

	"github.com/gozie/gozie/store"
)

func testCoordJobsByFrequency(t *testing.T, open Opener) {
	s := open(t)
	jobs := []store.CoordJob{
		{ID: "hourly", Frequency: "60", TimeUnit: "MINUTE"},
		{ID: "daily", Frequency: "1", TimeUnit: "DAY"},
		{ID: "two-days", Frequency: "2", TimeUnit: "DAY"},
		{ID: "monthly", Frequency: "1", TimeUnit: "MONTH"},
		{ID: "cron", Frequency: "0 1 * * *", TimeUnit: "CRON"},
	}
	tx(t, s, func(x store.Tx) error {
		for i := range jobs {
			j := jobs[i]
			j.AppName, j.Status, j.CreatedTime, j.StartTime, j.EndTime = "app-"+j.ID, store.JobRunning, t0, t0, t0
			j.ExecutionOrder, j.TimeZone = "FIFO", "UTC"
			if err := x.InsertCoordJob(ctx, &j); err != nil {
				return err
			}
		}
		return nil
	})
	for _, tc := range []struct {
		freq, unit string
		want       []string
	}{
		{"1", "DAY", []string{"daily"}},
		{"1", "", []string{"daily", "monthly"}},
		{"60", "MINUTE", []string{"hourly"}},
		{"", "DAY", []string{"daily", "two-days"}},
		{"3", "DAY", nil},
	} {
		var got []store.CoordJob
		tx(t, s, func(x store.Tx) (err error) {
			got, _, err = x.ListCoordJobs(ctx, store.JobFilter{Frequency: tc.freq, TimeUnit: tc.unit})
			return err
		})
		ids := map[string]bool{}
		for _, j := range got {
			ids[j.ID] = true
		}
		if len(ids) != len(tc.want) {
			t.Errorf("frequency %q unit %q: got %v, want %v", tc.freq, tc.unit, ids, tc.want)
			continue
		}
		for _, w := range tc.want {
			if !ids[w] {
				t.Errorf("frequency %q unit %q: got %v, want %v", tc.freq, tc.unit, ids, tc.want)
			}
		}
	}
}
