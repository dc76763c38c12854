package coordrun

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// TestSubmitErrors: a bad submission is refused with Oozie's code and
// stores nothing.
func TestSubmitErrors(t *testing.T) {
	t.Parallel()
	w := setup(t, options{noStart: true})
	good := coordXML("${coord:hours(1)}", "${start}", "2010-01-02T00:00Z", "", false)
	app := w.app("good", good)
	writeApp := func(name, xml string, extra map[string]string) string {
		p := w.app(name, xml)
		for f, body := range extra {
			if err := os.WriteFile(filepath.Join(w.local(p), f), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	reserved := writeApp("reserved", good, map[string]string{"coord-config-default.xml": `<configuration>
  <property><name>YEAR</name><value>2010</value></property></configuration>`})
	for _, tc := range []struct {
		name  string
		props *conf.Properties
		code  oozieerr.Code
	}{
		{"no user", conf.NewProperties(PropAppPath, app, "start", "2010-01-01T00:00Z"), oozieerr.E0401},
		{"no app path", conf.NewProperties("user.name", "alice"), oozieerr.E0302},
		{"no app directory", w.props(w.nn+"/nowhere", "start", "2010-01-01T00:00Z"), oozieerr.E0504},
		{"no coordinator.xml", w.props(w.nn+"/apps", "start", "2010-01-01T00:00Z"), oozieerr.E0505},
		{"not XML", w.props(writeApp("notxml", "<coordinator-app", nil), "start", "2010-01-01T00:00Z"), "E0700"},
		{"schema", w.props(writeApp("schema", strings.Replace(good, "<action>", "<bogus/><action>", 1), nil),
			"start", "2010-01-01T00:00Z"), "E0701"},
		{"start after end", w.props(app, "start", "2010-01-03T00:00Z"), "E1003"},
		{"bad date", w.props(app, "start", "2010-01-01T24:00Z"), "E1003"},
		{"undefined variable", w.props(app), "E1004"},
		{"reserved default", w.props(reserved, "start", "2010-01-01T00:00Z"), oozieerr.E0804},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := w.coords.Submit(bg, tc.props, SubmitOptions{})
			if ErrorCode(err) != tc.code {
				t.Fatalf("error %v, want %s", err, tc.code)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T does not carry ErrorCode for the server", err)
			}
		})
	}
	var jobs []store.CoordJob
	if err := w.store.Tx(bg, func(x store.Tx) (err error) { jobs, _, err = x.ListCoordJobs(bg, store.JobFilter{}); return }); err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 0 {
		t.Fatalf("%d jobs stored by failed submissions", len(jobs))
	}
	if n := countTriggers(t, w); n != 0 {
		t.Fatalf("%d triggers left by failed submissions", n)
	}
}

func countTriggers(t *testing.T, w *world) int {
	t.Helper()
	var n int
	if err := w.store.Tx(bg, func(x store.Tx) (err error) { n, err = x.CountTriggers(bg); return }); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSubmitStoresJob: a submission with an included dataset file and
// coord-config-default.xml stores the job in PREP with its original and
// resolved definitions, defaults under the job configuration, and its first
// materialization due a look-ahead before its start.
func TestSubmitStoresJob(t *testing.T) {
	t.Parallel()
	now := time.Date(2009, 12, 31, 0, 0, 0, 0, time.UTC)
	w := setup(t, options{now: now, noStart: true})
	xml := `<coordinator-app name="${appName}" frequency="${coord:days(1)}" start="2010-01-01T00:00Z" end="2010-01-05T00:00Z"
    timezone="America/Los_Angeles" xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <include>datasets.xml</include>
  </datasets>
  <input-events><data-in name="in" dataset="daily"><instance>${coord:current(0)}</instance></data-in></input-events>
  <action><workflow><app-path>${wfApp}</app-path></workflow></action>
</coordinator-app>`
	app := w.app("include", xml)
	dir := w.local(app)
	files := map[string]string{
		"datasets.xml": `<datasets xmlns="uri:oozie:coordinator:0.4">
  <dataset name="daily" frequency="${coord:days(1)}" initial-instance="2009-01-01T08:00Z" timezone="America/Los_Angeles">
    <uri-template>${nameNode}/daily/${YEAR}${MONTH}${DAY}</uri-template><done-flag></done-flag>
  </dataset>
</datasets>`,
		"coord-config-default.xml": `<configuration>
  <property><name>appName</name><value>from-defaults</value></property>
  <property><name>queue</name><value>low</value></property>
</configuration>`,
	}
	for f, body := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	id := w.submit(w.props(app, "queue", "high", "oozie.job.acl", "etl"))
	j := w.job(id)
	if j.Status != store.JobPrep || j.AppName != "from-defaults" || j.User != "alice" || j.Group != "etl" ||
		j.Frequency != "1" || j.TimeUnit != "DAY" || j.TimeZone != "America/Los_Angeles" || j.Concurrency != 1 ||
		j.Throttle != 12 || j.Timeout != 120 || j.ExecutionOrder != "FIFO" || j.AppPath != app {
		t.Fatalf("stored job: %+v", j)
	}
	if j.OrigDefinition != xml || !strings.Contains(j.Definition, "/daily/") {
		t.Fatalf("definitions:\norig %s\nresolved %s", j.OrigDefinition, j.Definition)
	}
	cp, err := conf.ReadConfigurationXML(strings.NewReader(j.Conf), "conf")
	if err != nil {
		t.Fatal(err)
	}
	if cp.Value("queue") != "high" || cp.Value("appName") != "from-defaults" {
		t.Fatalf("configuration: queue %q appName %q", cp.Value("queue"), cp.Value("appName"))
	}
	due, ok := w.triggerDue(KindMaterialize, id)
	if want := time.Date(2009, 12, 31, 23, 55, 0, 0, time.UTC); !ok || !due.Equal(want) {
		t.Fatalf("first materialization due %v (%v), want %v", due, ok, want)
	}
	// Run it: the first action (2010-01-01T00:00Z, still Dec 31 in Los
	// Angeles) waits for the daily instance of 2009-12-31T08:00Z (local
	// midnight), its directory itself (empty done-flag).
	w.start()
	w.advance(24 * time.Hour)
	acts := w.actions(id)
	if len(acts) == 0 || acts[0].MissingDependencies != w.nn+"/daily/20091231" {
		t.Fatalf("first action: %+v", acts)
	}
}

// TestDryRun lists the first window's actions of the aggregator example (gozie's, and
// Oozie's when GOZIE_OOZIE_EXAMPLES names them) with nominal times and resolved URIs and
// creates nothing.
func TestDryRun(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		tc := aggregatorCases[testapps.Source(apps)]
		w := setup(t, options{noStart: true})
		w.installExample(apps, "aggregator")
		res, err := w.coords.DryRun(bg, w.exampleProps(apps, "aggregator", "job.properties"), SubmitOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Actions) != 1 || res.Job.Status != store.JobPrep {
			t.Fatalf("dry run: %d actions, job %s", len(res.Actions), res.Job.Status)
		}
		a := res.Actions[0]
		in, out := w.uris(tc.inputs[0]), w.uris(tc.outputs[:1])
		if !a.NominalTime.Equal(tc.nominal[0]) || a.Number != 1 ||
			!slices.Equal(a.DataIn[tc.dataIn], in) || !slices.Equal(a.DataOut[tc.dataOut], out) {
			t.Fatalf("dry-run action: %+v, want data-in %s %v and data-out %s %v", a, tc.dataIn, in, tc.dataOut, out)
		}
		if !strings.Contains(res.Text, "***actions for instance***") || !strings.Contains(res.Text, in[len(in)-1]) {
			t.Fatalf("dry-run text:\n%s", res.Text)
		}
		var jobs []store.CoordJob
		if err := w.store.Tx(bg, func(x store.Tx) (err error) { jobs, _, err = x.ListCoordJobs(bg, store.JobFilter{}); return }); err != nil {
			t.Fatal(err)
		}
		if len(jobs) != 0 || countTriggers(t, w) != 0 {
			t.Fatalf("dry run stored %d jobs and %d triggers", len(jobs), countTriggers(t, w))
		}
	})
}
