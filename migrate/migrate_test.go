package migrate

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/migrate/oozie"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/testenv/ooziedb"
	"github.com/gozie/gozie/workflow/wfrun"
	"github.com/gozie/gozie/yarn"
)

// The dry run lists every job with its verdict and writes nothing, to
// Oozie's database or gozie's.
func TestDryRunListsEveryJobAndChangesNothing(t *testing.T) {
	t.Parallel()
	eachSource(t, func(t *testing.T, src sourceKind) {
		o := newOozie(t, src, "hdfs://nn:8020")
		before := o.digest(t)
		dbPath := filepath.Join(t.TempDir(), "gozie.db")
		var out strings.Builder
		cfg, err := parseFlags(o.url, "sqlite:"+dbPath, true, "30d", "refuse", "GMT", "UTC")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Now = fixedNow
		ok, err := Run(bg, cfg, &out)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			t.Error("a dry run with a refused job reported success")
		}
		text := out.String()
		want := map[string]string{o.fx.Hourly.ID: "import", o.fx.Suspended.ID: "import", o.fx.Paused.ID: "import",
			o.fx.Bundle: "import", o.fx.History: "import", o.fx.Launcher.ID: "refuse", o.fx.Finished: "skip"}
		for id, verdict := range want {
			line := lineOf(text, id)
			if !strings.HasPrefix(line, verdict+" ") {
				t.Errorf("job %s: line %q, want verdict %s", id, line, verdict)
			}
		}
		if l := lineOf(text, o.fx.Launcher.ID); !strings.Contains(l, "RUNNING in Oozie launcher "+o.fx.LauncherApp) ||
			!strings.Contains(l, "-running-actions=follow") {
			t.Errorf("refusal does not say what runs and what gozie can do: %q", l)
		}
		if l := lineOf(text, o.fx.Finished); !strings.Contains(l, "before -since") {
			t.Errorf("skip does not say why: %q", l)
		}
		if l := lineOf(text, o.fx.Hourly.ID); !strings.Contains(l, "next materialization 2026-03-10T11:00Z") {
			t.Errorf("import line does not show the next materialization: %q", l)
		}
		if !strings.Contains(text, "7 jobs: 5 import, 1 skip, 1 refuse") {
			t.Errorf("summary missing or wrong:\n%s", text)
		}
		if _, err := os.Stat(dbPath); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the dry run created gozie's database: %v", err)
		}
		if after := o.digest(t); after != before {
			t.Error("the dry run changed Oozie's database")
		}
	})
}

func lineOf(text, id string) string {
	for _, l := range strings.Split(text, "\n") {
		for _, f := range strings.Fields(l) {
			if f == id {
				return l
			}
		}
	}
	return ""
}

// The import keeps ids, statuses, definitions, configuration, the
// materialization state and controls, the actions with their workflows,
// finished history within -since and the SLA records.
func TestImportKeepsOozieState(t *testing.T) {
	t.Parallel()
	eachSource(t, func(t *testing.T, src sourceKind) {
		o := newOozie(t, src, "hdfs://nn:8020")
		s := newStore(t)
		units := o.plan(t, since30d)
		im := &Importer{Store: s, Now: fixedNow}
		for _, r := range im.Import(bg, units) {
			if r.Err != nil {
				t.Fatalf("%s: %v", r.Unit.ID, r.Err)
			}
		}
		for _, f := range []ooziedb.CoordFacts{o.fx.Hourly, o.fx.Suspended, o.fx.Paused, o.fx.InBundle} {
			j := coordJob(t, s, f.ID)
			if string(j.Status) != f.Status || j.LastActionNumber != f.LastActionNumber ||
				!j.NextMaterializedTime.Equal(f.NextMatd) || !j.StartTime.Equal(f.Start) {
				t.Errorf("coordinator %s: status %s, last action %d, next %v, start %v; want %s, %d, %v, %v", f.ID,
					j.Status, j.LastActionNumber, j.NextMaterializedTime, j.StartTime, f.Status, f.LastActionNumber,
					f.NextMatd, f.Start)
			}
			if !strings.Contains(j.Definition, "<coordinator-app") || !strings.Contains(j.Conf, "<configuration>") {
				t.Errorf("coordinator %s: definition or configuration lost", f.ID)
			}
			acts := coordActions(t, s, f.ID)
			if len(acts) != len(f.Actions) {
				t.Errorf("coordinator %s: %d actions, want %d", f.ID, len(acts), len(f.Actions))
			}
			for _, a := range acts {
				if string(a.Status) != f.Actions[a.ActionNumber] {
					t.Errorf("action %s: status %s, want %s", a.ID, a.Status, f.Actions[a.ActionNumber])
				}
				if want := f.Start.Add(time.Duration(a.ActionNumber-1) * stepOf(j)); !a.NominalTime.Equal(want) {
					t.Errorf("action %s: nominal %v, want %v", a.ID, a.NominalTime, want)
				}
				if a.Status == store.CoordActionWaiting && !strings.HasSuffix(a.MissingDependencies, "/_SUCCESS") {
					t.Errorf("action %s: missing dependencies %q", a.ID, a.MissingDependencies)
				}
				if wf := f.Workflows[a.ActionNumber]; a.ExternalID != wf {
					t.Errorf("action %s: external id %q, want %q", a.ID, a.ExternalID, wf)
				}
			}
		}
		h := coordJob(t, s, o.fx.Hourly.ID)
		if h.Concurrency != 1 || h.Throttle != 12 || h.Timeout != 120 || h.ExecutionOrder != "FIFO" {
			t.Errorf("hourly controls: %+v", h)
		}
		if p := coordJob(t, s, o.fx.Paused.ID); p.PauseTime.IsZero() || p.Status != store.JobPaused {
			t.Errorf("paused coordinator: status %s, pause %v", p.Status, p.PauseTime)
		}
		if j := coordJob(t, s, o.fx.InBundle.ID); j.BundleID != o.fx.Bundle {
			t.Errorf("bundled coordinator's bundle: %q", j.BundleID)
		}
		_ = s.Tx(bg, func(x store.Tx) error {
			for _, wf := range append([]string{o.fx.History}, o.fx.Hourly.Workflows[o.fx.Hourly.LastActionNumber-3]) {
				j, err := x.GetWorkflowJob(bg, wf)
				if err != nil || !strings.Contains(j.Definition, "<workflow-app") || j.Status != store.WorkflowSucceeded {
					t.Errorf("workflow %s: %v %+v", wf, err, j.Status)
				}
			}
			if _, err := x.GetCoordJob(bg, o.fx.Finished); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("a job finished before -since was imported: %v", err)
			}
			slas, err := x.ListSLAs(bg, store.SLAFilter{})
			if err != nil || len(slas) != len(o.fx.SLAs) {
				t.Errorf("SLA registrations: %d (%v), want %d", len(slas), err, len(o.fx.SLAs))
			}
			for _, r := range slas {
				if r.SLAStatus != store.SLAMet || r.ActualEnd.IsZero() || r.AlertContact != "ops@example.com" {
					t.Errorf("SLA %s: %+v", r.ID, r)
				}
			}
			return nil
		})
	})
}

func stepOf(j store.CoordJob) time.Duration {
	if j.TimeUnit == "DAY" {
		return 24 * time.Hour
	}
	return time.Hour
}

// Running the import again imports nothing; an import stopped midway and
// run again ends with every job imported once.
func TestImportIsIdempotent(t *testing.T) {
	t.Parallel()
	eachSource(t, func(t *testing.T, src sourceKind) {
		o := newOozie(t, src, "hdfs://nn:8020")
		s := newStore(t)
		ctx, cancel := context.WithCancel(bg)
		imported := 0
		im := &Importer{Store: s, Now: fixedNow, hook: func(*oozie.Unit) error {
			imported++
			if imported == 3 {
				cancel() // the process dies in the third job's transaction
				return context.Canceled
			}
			return nil
		}}
		first := im.Import(ctx, o.plan(t, since30d))
		if n := countOutcome(first, Imported); n != 2 {
			t.Fatalf("the stopped run imported %d jobs, want 2", n)
		}
		im.hook = nil
		second := im.Import(bg, o.plan(t, since30d))
		if countOutcome(second, Already) != 2 || countOutcome(second, Imported) != 3 {
			t.Fatalf("the rerun: %d already, %d imported; want 2 and 3", countOutcome(second, Already),
				countOutcome(second, Imported))
		}
		after := counts(t, s)
		third := im.Import(bg, o.plan(t, since30d))
		if countOutcome(third, Imported) != 0 || countOutcome(third, Already) != 5 {
			t.Errorf("a third run imported %d jobs", countOutcome(third, Imported))
		}
		if again := counts(t, s); again != after {
			t.Errorf("rows after a third run %v, before %v", again, after)
		}
		// Every job once: 4 coordinators (one in the bundle), 1 bundle.
		if after[0] != 4 || after[2] != 1 {
			t.Errorf("coordinators %d, bundles %d; want 4 and 1", after[0], after[2])
		}
	})
}

func countOutcome(rs []Result, o Outcome) int {
	n := 0
	for _, r := range rs {
		if r.Outcome == o {
			n++
		}
	}
	return n
}

// A job whose transaction fails leaves nothing behind: no row, no action,
// no workflow, no trigger; the other jobs are imported.
func TestFailedJobLeavesNothing(t *testing.T) {
	t.Parallel()
	eachSource(t, func(t *testing.T, src sourceKind) {
		o := newOozie(t, src, "hdfs://nn:8020")
		s := newStore(t)
		boom := errors.New("injected failure")
		im := &Importer{Store: s, Now: fixedNow, hook: func(u *oozie.Unit) error {
			if u.ID == o.fx.Hourly.ID {
				return boom
			}
			return nil
		}}
		rs := im.Import(bg, o.plan(t, since30d))
		for _, r := range rs {
			if r.Unit.ID == o.fx.Hourly.ID && (r.Outcome != Failed || !errors.Is(r.Err, boom)) {
				t.Errorf("hourly: %s %v", r.Outcome, r.Err)
			}
		}
		if countOutcome(rs, Imported) != 4 {
			t.Errorf("%d jobs imported beside the failed one, want 4", countOutcome(rs, Imported))
		}
		_ = s.Tx(bg, func(x store.Tx) error {
			if _, err := x.GetCoordJob(bg, o.fx.Hourly.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the failed coordinator is stored: %v", err)
			}
			for n := range o.fx.Hourly.Actions {
				id := o.fx.Hourly.ID + "@" + strconv.Itoa(n)
				if _, err := x.GetCoordAction(bg, id); !errors.Is(err, store.ErrNotFound) {
					t.Errorf("action %s of the failed coordinator is stored: %v", id, err)
				}
				if _, err := x.GetTrigger(bg, coordrun.KindInputCheck, id); !errors.Is(err, store.ErrNotFound) {
					t.Errorf("a trigger of the failed coordinator's action %s is stored: %v", id, err)
				}
			}
			for _, wf := range o.fx.Hourly.Workflows {
				if _, err := x.GetWorkflowJob(bg, wf); !errors.Is(err, store.ErrNotFound) {
					t.Errorf("workflow %s of the failed coordinator is stored: %v", wf, err)
				}
			}
			if _, err := x.GetTrigger(bg, coordrun.KindMaterialize, o.fx.Hourly.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the failed coordinator's materialization is scheduled: %v", err)
			}
			return nil
		})
	})
}

// Bad values are refused per job, naming the job, the column and an Oozie
// error code; the other jobs are still imported.
func TestBadInputRefusedPerJob(t *testing.T) {
	t.Parallel()
	eachSource(t, func(t *testing.T, src sourceKind) {
		o := newOozie(t, src, "hdfs://nn:8020")
		bad := []struct {
			id, column, code string
			row              ooziedb.Row
		}{
			{ooziedb.JobID(91, 'C'), "status", oozieerr.E0303, ooziedb.Row{"status": "RUNNIG"}},
			{ooziedb.JobID(92, 'C'), "conf", oozieerr.E0702, ooziedb.Row{"conf": []byte("OBJ\x00\x00\x00\x01\x00\x00\x00\x01\x00\x05codec\x00\x02gzgarbage")}},
			{ooziedb.JobID(93, 'C'), "job_xml", oozieerr.E0701, ooziedb.Row{"job_xml": []byte("<coordinator-app frequency=")}},
		}
		for _, b := range bad {
			row := ooziedb.Row{"id": b.id, "app_name": "bad", "status": "RUNNING", "user_name": "alice",
				"conf": []byte(ooziedb.ConfXML("user.name", "alice")), "job_xml": []byte("<coordinator-app/>"),
				"last_action_number": 0, "concurrency": 1, "mat_throttling": 1, "time_out": 1, "pending": 0,
				"done_materialization": 0}
			for k, v := range b.row {
				row[k] = v
			}
			if err := o.dialect.Insert(bg, o.db, "coord_jobs", row); err != nil {
				t.Fatal(err)
			}
		}
		units := o.plan(t, since30d)
		for _, b := range bad {
			u := unitByID(t, units, b.id)
			if u.Verdict != oozie.Refuse || u.Err == nil || u.Err.Column != b.column || u.Err.Code != b.code ||
				!strings.Contains(u.Reason, b.id) || !strings.Contains(u.Reason, b.column) || !strings.HasPrefix(u.Reason, b.code) {
				t.Errorf("job %s: verdict %s, reason %q, want refused on %s with %s", b.id, u.Verdict, u.Reason, b.column, b.code)
			}
		}
		s := newStore(t)
		rs := (&Importer{Store: s, Now: fixedNow}).Import(bg, units)
		if n := countOutcome(rs, Imported); n != 5 {
			t.Errorf("%d jobs imported beside the bad ones, want 5", n)
		}
	})
}

// With -running-actions=follow, a workflow action running in an Oozie
// launcher is imported RUNNING with its YARN application and checked at
// once; with rerun it is imported not started and started at once.
func TestRunningActionChoices(t *testing.T) {
	t.Parallel()
	eachSource(t, func(t *testing.T, src sourceKind) {
		o := newOozie(t, src, "hdfs://nn:8020")
		wf := o.fx.Launcher.Workflows[3]
		for _, c := range []struct {
			running oozie.RunningActions
			status  store.ActionStatus
			ext     string
			kind    store.TriggerKind
		}{
			{oozie.FollowRunning, store.ActionRunning, o.fx.LauncherApp, wfrun.KindActionCheck},
			{oozie.RerunRunning, store.ActionPrep, "", wfrun.KindActionStart},
		} {
			s := newStore(t)
			units := o.plan(t, oozie.Options{Since: since30d.Since, Running: c.running})
			u := unitByID(t, units, o.fx.Launcher.ID)
			if u.Verdict != oozie.Import || len(u.Notes) != 1 || !strings.Contains(u.Notes[0], o.fx.LauncherApp) {
				t.Fatalf("%s: verdict %s, notes %q", c.running, u.Verdict, u.Notes)
			}
			(&Importer{Store: s, Now: fixedNow}).Import(bg, units)
			_ = s.Tx(bg, func(x store.Tx) error {
				a, err := x.GetWorkflowAction(bg, wf+"@work")
				if err != nil || a.Status != c.status || a.ExternalID != c.ext {
					t.Errorf("%s: action %+v (%v)", c.running, a, err)
				}
				// The marker of an adopted launcher: Oozie's tag of the action.
				if tag := yarn.OozieTag(o.fx.Launcher.ID + "@3@work"); (c.running == oozie.FollowRunning) != (a.LaunchTag == tag) {
					t.Errorf("%s: launch tag %q, want Oozie's %q only when followed", c.running, a.LaunchTag, tag)
				}
				if _, err := x.GetTrigger(bg, c.kind, wf+"@work"); err != nil {
					t.Errorf("%s: no %s trigger: %v", c.running, c.kind, err)
				}
				return nil
			})
		}
	})
}

// `gozie migrate oozie` end to end: the import prints what it did, a second
// run imports nothing; bad flags are refused with exit status 2.
func TestMigrateCommand(t *testing.T) {
	t.Parallel()
	eachSource(t, func(t *testing.T, src sourceKind) {
		o := newOozie(t, src, "hdfs://nn:8020")
		db := "sqlite:" + filepath.Join(t.TempDir(), "gozie.db")
		run := func(args ...string) (int, string) {
			var out, errOut strings.Builder
			code := Main(bg, append([]string{"oozie", "-from", o.url, "-db", db}, args...), &out, &errOut)
			return code, out.String() + errOut.String()
		}
		code, text := run("-since", "0")
		if code != 1 || !strings.Contains(text, "7 jobs: 6 imported, 1 not imported") {
			t.Errorf("first run: exit %d\n%s", code, text)
		}
		code, text = run("-since", "0")
		if code != 1 || !strings.Contains(text, "7 jobs: 6 already imported, 1 not imported") {
			t.Errorf("second run: exit %d\n%s", code, text)
		}
		code, text = run("-since", "0", "-running-actions", "follow")
		if l := lineOf(text, o.fx.Launcher.ID); code != 0 || !strings.HasPrefix(l, "imported ") {
			t.Errorf("run with follow: exit %d\n%s", code, text)
		}
		for _, bad := range [][]string{{"-since", "ten days"}, {"-running-actions", "adopt"}, {"-oozie-tz", "Mars/Base"}} {
			if code, text := run(bad...); code != 2 || !strings.Contains(text, bad[0]) {
				t.Errorf("%v: exit %d: %s", bad, code, text)
			}
		}
		if code := Main(bg, []string{"oozie", "-from", "oracle://x", "-dry-run"}, io.Discard, io.Discard); code != 2 {
			t.Errorf("an unsupported source: exit %d", code)
		}
	})
}

func TestParseAge(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{"0": 0, "30d": 30 * 24 * time.Hour, "12h": 12 * time.Hour} {
		if got, err := ParseAge(in); err != nil || got != want {
			t.Errorf("%q: %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"-1d", "xd", "soon", "-5h"} {
		if _, err := ParseAge(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}
