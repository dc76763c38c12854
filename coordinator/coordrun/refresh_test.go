package coordrun

import (
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

// TestRefreshAction materializes single actions again (rerun -refresh) and
// gets the same number, nominal time and dependencies with the new actual
// time, including the daily cron actions whose nominal time Oozie's
// daylight-saving correction moved off the cron's fire times.
func TestRefreshAction(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, freq, zone string
	}{
		{"hourly", "${coord:hours(1)}", "UTC"},
		{"end of month", "${coord:endOfMonths(1)}", "America/Los_Angeles"},
		{"daily cron across DST", "0 10 * * *", "America/Los_Angeles"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			xml := `<coordinator-app name="r" frequency="` + tc.freq + `" start="2010-01-01T00:00Z" end="2011-01-01T00:00Z"
    timezone="` + tc.zone + `" xmlns="uri:oozie:coordinator:0.4">
  <controls><throttle>500</throttle></controls>
  <datasets><dataset name="h" frequency="${coord:hours(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">
    <uri-template>hdfs://nn/h/${YEAR}${MONTH}${DAY}${HOUR}</uri-template></dataset></datasets>
  <input-events><data-in name="in" dataset="h"><instance>${coord:current(-1)}</instance></data-in></input-events>
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>`
			app, err := coordinator.Parse([]byte(xml))
			if err != nil {
				t.Fatal(err)
			}
			set := coordinator.DefaultSettings()
			def, err := coordinator.Submit(app, coordinator.SubmitRequest{Conf: conf.NewProperties("user.name", "alice"),
				Settings: set, Now: time.Date(2009, 12, 1, 0, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatal(err)
			}
			row := def.Row()
			row.ID, row.Status = "0000001-100101000000000-test-C", store.JobRunning
			materializedAt := time.Date(2011, 2, 1, 0, 0, 0, 0, time.UTC)
			set.Window = 400 * 24 * time.Hour
			res, err := coordinator.Materialize(coordinator.MaterializeRequest{Job: def, JobID: row.ID, Row: row,
				Now: materializedAt, Settings: set})
			if err != nil || len(res.Actions) < 5 {
				t.Fatalf("materialize: %v (%d actions)", err, len(res.Actions))
			}
			later := materializedAt.Add(48 * time.Hour)
			shifted := 0
			for _, na := range res.Actions {
				a := na.Row
				if tc.freq == "0 10 * * *" && a.NominalTime.Hour() != 10 {
					shifted++
				}
				got, err := refreshAction(def, row, a, later, set)
				if err != nil {
					t.Fatalf("%s (%v): %v", a.ID, a.NominalTime, err)
				}
				if got.Row.ActionNumber != a.ActionNumber || !got.Row.NominalTime.Equal(a.NominalTime) ||
					got.Row.MissingDependencies != a.MissingDependencies || !got.Row.CreatedTime.Equal(later) {
					t.Fatalf("%s refreshed as number %d at %v created %v, deps %q; want %d at %v, deps %q",
						a.ID, got.Row.ActionNumber, got.Row.NominalTime, got.Row.CreatedTime, got.Row.MissingDependencies,
						a.ActionNumber, a.NominalTime, a.MissingDependencies)
				}
			}
			if tc.freq == "0 10 * * *" && shifted == 0 {
				t.Fatal("no action had its nominal time shifted for daylight saving; the case is not exercised")
			}
		})
	}
}
