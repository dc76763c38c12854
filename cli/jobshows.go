package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gozie/gozie/server/client"
)

// jobLog is `job -log ID` and `job -errorlog ID` (cmd is "log" or
// "errorlog"), narrowed by -logfilter and, for a coordinator, to the actions
// of -action or -date; times are in -timezone (or $OOZIE_TIMEZONE, else the
// server's GMT), as for -auditlog. The log is printed as the server sends it.
func (f *jobFlags) jobLog(ctx context.Context, env Env, cl *client.Client, out io.Writer, cmd, id string) error {
	lq := client.LogQuery{Filter: f.audit.logFilter, TimeZone: cmp.Or(f.timezone, env.Getenv("OOZIE_TIMEZONE"))}
	if f.set["action"] || f.set["date"] {
		if !isCoordinatorID(id) {
			return &plainError{"Invalid options provided for log retrieval. action and date are valid only for coordinator job log retrieval"}
		}
		s, err := f.scope("log retrieval")
		if err != nil {
			return err
		}
		lq.Scope = s
	}
	if cmd == "errorlog" {
		return cl.JobErrorLog(ctx, id, lq, out)
	}
	return cl.JobLog(ctx, id, lq, out)
}

// missingDeps is `job -missingdeps ID [-action N|-date D]` (or ID@n): what
// each waiting action of a coordinator still needs, per data-in.
func (f *jobFlags) missingDeps(ctx context.Context, cl *client.Client, out io.Writer, id string) error {
	if f.set["action"] && f.set["date"] {
		return &plainError{"Invalid options provided for missingdeps: either -date or -action expected. Don't use both at the same time."}
	}
	deps, err := cl.MissingDependencies(ctx, id, f.coord.action, f.coord.date)
	if err != nil {
		return err
	}
	if len(deps.MissingDependencies) == 0 {
		fmt.Fprintln(out, "No missing dependencies")
		return nil
	}
	job, _, _ := strings.Cut(id, "@")
	for _, a := range deps.MissingDependencies {
		fmt.Fprintf(out, "CoordAction : %s@%d\n", job, a.ID)
		fmt.Fprintf(out, "Blocked on  : %s\n", a.BlockedOn)
		for _, ds := range a.DataSets {
			fmt.Fprintf(out, "Dataset     : %s\n", maskIfNull(ds.DataSet))
			fmt.Fprintln(out, "Pending Dependencies :")
			for _, u := range ds.MissingDependencies {
				fmt.Fprintf(out, "\t%s\n", u)
			}
		}
		fmt.Fprintln(out, ruler)
	}
	return nil
}
