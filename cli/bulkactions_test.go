package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// seedBundle stores a bundle "nightly" with a coordinator "load" of three hourly actions:
// KILLED, SUCCEEDED and FAILED (with an error message).
func seedBundle(t *testing.T, f *cliFixture) string {
	t.Helper()
	ctx := context.Background()
	base := time.Date(2025, 1, 27, 0, 0, 0, 0, time.UTC)
	const bundle, coord = "0000001-250127000000000-gozie-B", "0000002-250127000000000-gozie-C"
	err := f.Store.Tx(ctx, func(x store.Tx) error {
		if err := x.InsertBundleJob(ctx, &store.BundleJob{ID: bundle, AppName: "nightly", User: "joe",
			Status: store.JobRunningWithError, CreatedTime: base, LastModified: base}); err != nil {
			return err
		}
		if err := x.InsertCoordJob(ctx, &store.CoordJob{ID: coord, AppName: "load", User: "joe", BundleID: bundle,
			Status: store.JobRunningWithError, ExecutionOrder: "FIFO", Frequency: "60", TimeUnit: "MINUTE", TimeZone: "UTC",
			StartTime: base, EndTime: base.Add(3 * time.Hour), CreatedTime: base, LastModified: base}); err != nil {
			return err
		}
		for n, st := range []store.CoordActionStatus{store.CoordActionKilled, store.CoordActionSucceeded, store.CoordActionFailed} {
			at := base.Add(time.Duration(n) * time.Hour)
			a := &store.CoordAction{ID: fmt.Sprintf("%s@%d", coord, n+1), JobID: coord, ActionNumber: n + 1, Status: st,
				NominalTime: at, CreatedTime: at, LastModified: at}
			if st == store.CoordActionFailed {
				a.ExternalID, a.ErrorMessage = "0000003-250127000000000-gozie-W", "Workflow failed"
			}
			if err := x.InsertCoordAction(ctx, a); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return bundle
}

func TestJobsBulkListing(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	seedBundle(t, f)
	golden(t, "jobs_bulk", f.mustRun(t, "jobs", "-bulk", "bundle=nightly"), nil)
	golden(t, "jobs_bulk_verbose", f.mustRun(t, "jobs", "-bulk", "bundle=nightly;actionstatus=FAILED", "-verbose", "-localtime"), nil)
	if out := f.mustRun(t, "jobs", "-bulk", "bundle=nightly;actionstatus=RUNNING"); out != "Bulk request criteria did not match any coordinator actions\n" {
		t.Errorf("no match printed %q", out)
	}
	_, errOut, code := f.run(t, "jobs", "-bulk", "bundle=nobody")
	if code == 0 || !strings.Contains(errOut, "E0420") {
		t.Errorf("unknown bundle: exit %d %q", code, errOut)
	}
	_, errOut, code = f.run(t, "jobs", "-bulk", "bundle=nightly", "-kill")
	if code == 0 || !strings.Contains(errOut, "does not go with -kill") {
		t.Errorf("-bulk with -kill: exit %d %q", code, errOut)
	}
}
