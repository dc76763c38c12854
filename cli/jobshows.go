package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gozie/gozie/server/client"
)

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
