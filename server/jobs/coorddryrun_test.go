package jobs_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gozie/gozie/server/oozieapi"
)

// datasetCoordApp is an hourly coordinator of wfPath over 2025-01-27 00:00–02:00 with
// one dataset (initial instance initial) read by data-in "in" at inInstance and written
// by data-out "out" at outInstance.
func datasetCoordApp(wfPath, initial, inInstance, outInstance string) string {
	return `<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="ds-coord" frequency="${coord:hours(1)}"
    start="2025-01-27T00:00Z" end="2025-01-27T02:00Z" timezone="UTC">
    <datasets>
        <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="` + initial + `" timezone="UTC">
            <uri-template>file:///data/logs/${YEAR}${MONTH}${DAY}${HOUR}</uri-template>
        </dataset>
    </datasets>
    <input-events><data-in name="in" dataset="logs"><instance>` + inInstance + `</instance></data-in></input-events>
    <output-events><data-out name="out" dataset="logs"><instance>` + outInstance + `</instance></data-out></output-events>
    <action>
        <workflow><app-path>` + wfPath + `</app-path></workflow>
    </action>
</coordinator-app>
`
}

// TestCoordinatorDryRunJudgesAsSubmit: a dry run refuses exactly what a submission
// refuses, with the same code, and accepts what it accepts. Coordinators that Oozie's
// submission accepts although their first materialization fails them (coord:future or
// coord:latest in a data-out: E1006; a data-out instance that is no date: E1012) are
// accepted by both; the dry run says what the materialization would do.
func TestCoordinatorDryRunJudgesAsSubmit(t *testing.T) {
	t.Parallel()
	f := setup(t)
	wf := f.appPath(appNoOp)
	const initial = "2025-01-01T00:00Z"
	tests := []struct {
		name, app string
		code      string // the refusal of both, "" when both accept
		text      string // in the dry run's text when accepted
	}{
		{"future in data-out", datasetCoordApp(wf, initial, "${coord:current(0)}", "${coord:future(0, 2)}"), "",
			"the first materialization would fail the job: E1006"},
		{"latest in data-out", datasetCoordApp(wf, initial, "${coord:latest(0)}", "${coord:latest(-1)}"), "",
			"the first materialization would fail the job: E1006"},
		{"data-out instance not a date",
			datasetCoordApp(wf, initial, "${coord:current(0)}", "${coord:formatTime(coord:current(0), 'yyyy-MM-dd')}"), "",
			"the first materialization would fail the job: E1012"},
		{"plain", datasetCoordApp(wf, initial, "${coord:current(0)}", "${coord:current(0)}"), "",
			`action-nominal-time="2025-01-27T00:00Z"`},
		{"initial instance before 1970", datasetCoordApp(wf, "1969-12-31T00:00Z", "${coord:current(0)}", "${coord:current(0)}"),
			"E1021", ""},
		// A dataset no filesystem of the server reaches is refused before anything is
		// looked at, with Oozie's URIHandlerService words (E0904 "Scheme [foo] not
		// supported in uri [...]").
		{"dataset on an unknown scheme", strings.Replace(datasetCoordApp(wf, initial, "${coord:current(0)}", "${coord:current(0)}"),
			"file:///data/logs/", "foo://x/y/", 1), "E0904", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			app := f.WriteCoordApp(t, strings.ReplaceAll(tc.name, " ", "-"), tc.app)
			dry := f.call(t, http.MethodPost, "/oozie/v1/jobs?action=dryrun", "application/xml", coordConf(t, app))
			sub := f.call(t, http.MethodPost, "/oozie/v1/jobs", "application/xml", coordConf(t, app))
			if tc.code != "" {
				for what, r := range map[string]response{"dry run": dry, "submission": sub} {
					if r.status != http.StatusBadRequest || r.header.Get("oozie-error-code") != tc.code {
						t.Errorf("%s: %d %s %s, want 400 %s", what, r.status, r.header.Get("oozie-error-code"),
							r.header.Get("oozie-error-message"), tc.code)
					}
				}
				return
			}
			if sub.status != http.StatusCreated {
				t.Fatalf("submission: %d %s", sub.status, sub.header.Get("oozie-error-message"))
			}
			var out oozieapi.JobID
			if dry.status != http.StatusCreated {
				t.Fatalf("dry run: %d %s", dry.status, dry.header.Get("oozie-error-message"))
			}
			decode(t, dry.body, &out)
			if !strings.HasPrefix(out.ID, "<coordinator-app") || !strings.Contains(out.ID, "***actions for instance***") ||
				!strings.Contains(out.ID, tc.text) {
				t.Errorf("dry-run text lacks %q:\n%s", tc.text, out.ID)
			}
		})
	}
}

// TestCoordinatorInitialInstanceBefore1970: Oozie's submission refuses a dataset
// initial-instance before 1970-01-01T00:00Z with E1021, naming the instance.
func TestCoordinatorInitialInstanceBefore1970(t *testing.T) {
	t.Parallel()
	f := setup(t)
	app := f.WriteCoordApp(t, "old", datasetCoordApp(f.appPath(appNoOp), "1960-02-01T01:00Z", "${coord:current(0)}",
		"${coord:current(0)}"))
	r := f.call(t, http.MethodPost, "/oozie/v1/jobs", "application/xml", coordConf(t, app))
	checkError(t, r, http.StatusBadRequest, "E1021", "E1021: dataset[logs]/@initial-instance: Dataset initial-instance "+
		"1960-02-01T01:00Z is earlier than the default initial instance 1970-01-01T00:00Z")
}
