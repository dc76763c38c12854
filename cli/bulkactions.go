package cli

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/gozie/gozie/server/oozieapi"
)

// bulkFormat is the row of `jobs -bulk`, as Oozie's CLI prints it.
const bulkFormat = "%-13s%-38s%-13s%-41s%-10s%-38s%-21s%-38s"

// printBulkActions prints the answer of `jobs -bulk`: as Oozie's CLI does, each action as a
// table of one row under its own header, or with -verbose as a block of fields.
func printBulkActions(out io.Writer, rs []oozieapi.BulkResponse, loc *time.Location, verbose bool) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	if len(rs) == 0 {
		p("Bulk request criteria did not match any coordinator actions")
	}
	for _, r := range rs {
		b, c, a := &r.Bundle, &r.Coordinator, &r.Action
		if verbose {
			p("")
			p("Bundle Name : %s", maskIfNull(b.AppName))
			p("%s", ruler)
			p("Bundle ID        : %s", maskIfNull(b.ID))
			p("Coordinator Name : %s", maskIfNull(c.AppName))
			p("Coord Action ID  : %s", maskIfNull(a.ID))
			p("Action Status    : %s", a.Status)
			p("External ID      : %s", maskIfNull(a.ExternalID))
			p("Created Time     : %s", maskDate(a.CreatedTime, loc, false))
			p("User             : %s", maskIfNull(b.User))
			p("Error Message    : %s", maskIfNull(a.ErrorMessage))
			p("%s", ruler)
			continue
		}
		p(bulkFormat, "Bundle Name", "Bundle ID", "Coord Name", "Coord Action ID", "Status", "External ID", "Created Time", "Error Message")
		p("%s", ruler)
		p(bulkFormat, maskIfNull(b.AppName), maskIfNull(b.ID), maskIfNull(c.AppName), maskIfNull(a.ID), a.Status,
			maskIfNull(a.ExternalID), maskDate(a.CreatedTime, loc, false), maskIfNull(a.ErrorMessage))
		p("%s", ruler)
	}
	return w.Flush()
}
