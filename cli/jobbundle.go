package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/server/client"
)

// isBundleID reports whether id names a bundle job.
func isBundleID(id string) bool { return ids.EndsWithKind(id, ids.Bundle) }

// bundleInfo is `job -info <bundle id>`: the bundle and its coordinator jobs.
func (f *jobFlags) bundleInfo(ctx context.Context, env Env, cl *client.Client, id string, loc *time.Location) error {
	if f.filter != "" {
		return &plainError{"Filter option is not supported for a Bundle job"}
	}
	job, err := cl.BundleInfo(ctx, id)
	if err != nil {
		return err
	}
	return printBundleJob(env.Stdout, &job, loc)
}

// bundleRerun is `job -rerun <bundle id> [-coordinator c1,c2] [-date d1::d2,d3] [-refresh]
// [-nocleanup]`; it says which coordinators are scheduled to rerun, as Oozie's CLI does.
func (f *jobFlags) bundleRerun(ctx context.Context, env Env, cl *client.Client, id string) error {
	if f.set["action"] {
		return &plainError{"Invalid options provided for bundle rerun. -action is not valid for bundle rerun"}
	}
	o := client.BundleRerunOptions{Coordinators: f.coord.coordinators, Dates: f.coord.date, Refresh: f.coord.refresh,
		NoCleanup: f.coord.noCleanup}
	if err := cl.BundleRerun(ctx, id, o); err != nil {
		return err
	}
	if o.Coordinators != "" {
		fmt.Fprintf(env.Stdout, "Coordinators [%s] of bundle %s are scheduled to rerun on date ranges [%s].\n", o.Coordinators, id, nullIfEmpty(o.Dates))
	} else {
		fmt.Fprintf(env.Stdout, "All coordinators of bundle %s are scheduled to rerun on the date ranges [%s].\n", id, nullIfEmpty(o.Dates))
	}
	return nil
}

// nullIfEmpty is s, or "null" (what Java prints for a missing string) when s is empty.
func nullIfEmpty(s string) string {
	if s == "" {
		return "null"
	}
	return s
}
