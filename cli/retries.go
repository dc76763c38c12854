package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/gozie/gozie/server/client"
	"github.com/gozie/gozie/server/oozieapi"
)

// retries is `job -retries <workflow id>@<action>`: the attempts of a workflow
// action that its user-retry policy ran again, in Oozie's layout. Like Oozie,
// it prints the dates as the server sent them (GMT) whatever -timezone says,
// and "null" for one the server did not send.
func retries(ctx context.Context, cl *client.Client, out io.Writer, id string) error {
	rs, err := cl.ActionRetries(ctx, id)
	if err != nil {
		return err
	}
	printRetries(out, id, rs)
	return nil
}

// printRetries writes the attempts rs of action id.
func printRetries(out io.Writer, id string, rs []oozieapi.ActionRetry) {
	fmt.Fprintf(out, "ID : %s\n", maskIfNull(id))
	if len(rs) == 0 {
		fmt.Fprintln(out, "No Retries")
	}
	for _, r := range rs {
		fmt.Fprintln(out, ruler)
		fmt.Fprintf(out, "Attempt        : %d\n", r.Attempt)
		fmt.Fprintf(out, "Start Time     : %s\n", sentDate(r.StartTime))
		fmt.Fprintf(out, "End Time       : %s\n", sentDate(r.EndTime))
		if r.ConsoleURL != "" {
			fmt.Fprintf(out, "Console URL    : %s\n", r.ConsoleURL)
		}
		if r.ExternalChildIDs != "" {
			fmt.Fprintf(out, "Child URL      : %s\n", r.ExternalChildIDs)
		}
	}
	fmt.Fprintln(out, ruler)
}

// sentDate writes a date in the zone it was sent in, "null" when it was not
// sent.
func sentDate(d oozieapi.Date) string {
	if d.IsZero() {
		return "null"
	}
	return d.Format(oozieapi.DateLayout)
}
