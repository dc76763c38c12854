package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/server/oozieapi"
)

// Table formats of Oozie's CLI for bundles.
const (
	bundleCoordJobsFormat = "%-41s%-15s%-5s%-13s%-24s%-24s"
	bundleJobsFormat      = "%-41s%-15s%-10s%-20s%-20s%-13s%-13s"
)

// printBundleJob writes `job -info <bundle id>` in Oozie's layout: the bundle, then a
// table of its coordinator jobs. Oozie prints the kick-off time as Java prints a date
// ("Mon Jan 27 09:00:00 GMT 2025"), unlike the other dates; so does this.
func printBundleJob(out io.Writer, job *oozieapi.BundleJob, loc *time.Location) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("Job ID : %s", job.ID)
	p("%s", ruler)
	p("Job Name : %s", maskIfNull(job.AppName))
	p("App Path : %s", maskIfNull(job.AppPath))
	p("Status   : %s", job.Status)
	p("Kickoff time   : %s", javaDate(job.KickoffTime, loc))
	p("%s", ruler)
	p(bundleCoordJobsFormat, "Job ID", "Status", "Freq", "Unit", "Started", "Next Materialized")
	p("%s", ruler)
	for _, c := range job.Coordinators {
		p(bundleCoordJobsFormat, maskIfNull(c.ID), c.Status, c.Frequency, c.TimeUnit, maskDate(c.StartTime, loc, false),
			maskDate(c.NextMaterializedTime, loc, false))
		p("%s", ruler)
	}
	return w.Flush()
}

// javaDate formats a date as Java's Date.toString does ("EEE MMM dd HH:mm:ss zzz yyyy"), in
// loc; a missing date is "null".
func javaDate(d oozieapi.Date, loc *time.Location) string {
	if d.IsZero() {
		return "null"
	}
	return d.In(loc).Format(oozietime.JavaDateLayout)
}

// printBundleJobs writes the `jobs -jobtype bundle` table in Oozie's layout.
func printBundleJobs(out io.Writer, jobs []oozieapi.BundleJob, loc *time.Location, verbose bool) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	switch {
	case len(jobs) == 0:
		p("No Jobs match your criteria!")
	case verbose:
		p("%s", strings.Join([]string{"Job ID", "Bundle Name", "Bundle Path", "User", "Group", "Status", "Kickoff", "Pause",
			"Created", "Console URL"}, verboseDelimiter))
		p("%s", ruler)
		for _, j := range jobs {
			p("%s", strings.Join([]string{maskIfNull(j.ID), maskIfNull(j.AppName), maskIfNull(j.AppPath), maskIfNull(j.User),
				maskIfNull(j.Group), j.Status, maskDate(j.KickoffTime, loc, verbose), maskDate(j.PauseTime, loc, verbose),
				maskDate(j.CreatedTime, loc, verbose), maskIfNull(j.ConsoleURL)}, verboseDelimiter))
			p("%s", ruler)
		}
	default:
		p(bundleJobsFormat, "Job ID", "Bundle Name", "Status", "Kickoff", "Created", "User", "Group")
		p("%s", ruler)
		for _, j := range jobs {
			p(bundleJobsFormat, maskIfNull(j.ID), maskIfNull(j.AppName), j.Status, maskDate(j.KickoffTime, loc, false),
				maskDate(j.CreatedTime, loc, false), maskIfNull(j.User), maskIfNull(j.Group))
			p("%s", ruler)
		}
	}
	return w.Flush()
}
