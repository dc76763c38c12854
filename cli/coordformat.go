package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gozie/gozie/server/oozieapi"
)

// Table formats of Oozie's CLI for coordinators. The action format has six columns: Oozie
// passes the last-modified time as a seventh value, which the format leaves out.
const (
	coordActionFormat = "%-43s%-10s%-37s%-10s%-21s%-21s"
	coordJobsFormat   = "%-41s%-15s%-10s%-5s%-13s%-24s%-24s"
)

// printCoordJob writes `job -info <coordinator id>` in Oozie's layout: the job, then a
// table of the page of actions the server returned.
func printCoordJob(out io.Writer, job *oozieapi.CoordinatorJob, loc *time.Location, verbose bool) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("Job ID : %s", maskIfNull(job.ID))
	p("%s", ruler)
	p("Job Name    : %s", maskIfNull(job.AppName))
	p("App Path    : %s", maskIfNull(job.AppPath))
	p("Status      : %s", job.Status)
	p("Start Time  : %s", maskDate(job.StartTime, loc, false))
	p("End Time    : %s", maskDate(job.EndTime, loc, false))
	p("Pause Time  : %s", maskDate(job.PauseTime, loc, false))
	p("Concurrency : %d", job.Concurrency)
	p("%s", ruler)
	if verbose {
		p("%s", strings.Join([]string{"ID", "Action Number", "Console URL", "Error Code", "Error Message", "External ID",
			"External Status", "Job ID", "Tracker URI", "Created", "Nominal Time", "Status", "Last Modified",
			"Missing Dependencies"}, verboseDelimiter))
		p("%s", ruler)
		for _, a := range job.Actions {
			// Oozie's CLI writes the nominal time and the status with no delimiter between
			// them; scripts that split these rows expect it.
			p("%s", strings.Join([]string{maskIfNull(a.ID), fmt.Sprint(a.ActionNumber), maskIfNull(a.ConsoleURL),
				maskIfNull(a.ErrorCode), maskIfNull(a.ErrorMessage), maskIfNull(a.ExternalID), maskIfNull(a.ExternalStatus),
				maskIfNull(a.JobID), maskIfNull(a.TrackerURI), maskDate(a.CreatedTime, loc, verbose),
				maskDate(a.NominalTime, loc, verbose) + a.Status, maskDate(a.LastModifiedTime, loc, verbose),
				maskIfNull(firstMissing(a.MissingDependencies))}, verboseDelimiter))
			p("%s", ruler)
		}
		return w.Flush()
	}
	p(coordActionFormat, "ID", "Status", "Ext ID", "Err Code", "Created", "Nominal Time")
	for _, a := range job.Actions {
		p(coordActionFormat, maskIfNull(a.ID), a.Status, maskIfNull(a.ExternalID), maskIfNull(a.ErrorCode),
			maskDate(a.CreatedTime, loc, false), maskDate(a.NominalTime, loc, false))
		p("%s", ruler)
	}
	return w.Flush()
}

// printCoordAction writes `job -info <coordinator id>@<n>` in Oozie's layout.
func printCoordAction(out io.Writer, a *oozieapi.CoordinatorAction, loc *time.Location) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("ID : %s", maskIfNull(a.ID))
	p("%s", ruler)
	p("Action Number        : %d", a.ActionNumber)
	p("Console URL          : %s", maskIfNull(a.ConsoleURL))
	p("Error Code           : %s", maskIfNull(a.ErrorCode))
	p("Error Message        : %s", maskIfNull(a.ErrorMessage))
	p("External ID          : %s", maskIfNull(a.ExternalID))
	p("External Status      : %s", maskIfNull(a.ExternalStatus))
	p("Job ID               : %s", maskIfNull(a.JobID))
	p("Tracker URI          : %s", maskIfNull(a.TrackerURI))
	p("Created              : %s", maskDate(a.CreatedTime, loc, false))
	p("Nominal Time         : %s", maskDate(a.NominalTime, loc, false))
	p("Status               : %s", a.Status)
	p("Last Modified        : %s", maskDate(a.LastModifiedTime, loc, false))
	p("First Missing Dependency : %s", maskIfNull(firstMissing(a.MissingDependencies)))
	p("%s", ruler)
	return w.Flush()
}

// firstMissing is the first dependency of Oozie's missing-dependencies text: resolved URIs
// joined by '#', then "!!" and the unresolved EL, if any.
func firstMissing(deps string) string {
	deps, _, _ = strings.Cut(deps, "!!")
	first, _, _ := strings.Cut(deps, "#")
	return first
}

// printCoordActions writes the actions a rerun or a kill of some actions answered, as
// Oozie's CLI does: their ids and nominal times (in GMT, whatever -timezone says).
func printCoordActions(out io.Writer, acts []oozieapi.CoordinatorAction) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	if len(acts) == 0 {
		p("No Actions match your criteria!")
		return w.Flush()
	}
	p("Action ID%sNominal Time", verboseDelimiter)
	p("%s", ruler)
	for _, a := range acts {
		p("%s%s%s", maskIfNull(a.ID), verboseDelimiter, maskDate(a.NominalTime, oozieapi.GMT, false))
	}
	return w.Flush()
}

// printCoordActionsStatus writes the actions an ignore answered, with their statuses;
// nothing when there are none, as Oozie's CLI does.
func printCoordActionsStatus(out io.Writer, acts []oozieapi.CoordinatorAction) error {
	if len(acts) == 0 {
		return nil
	}
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("Action ID%[1]sNominal Time%[1]sStatus", verboseDelimiter)
	p("%s", ruler)
	for _, a := range acts {
		p("%s%s%s%s%s", maskIfNull(a.ID), verboseDelimiter, maskDate(a.NominalTime, oozieapi.GMT, false),
			verboseDelimiter, maskIfNull(a.Status))
	}
	return w.Flush()
}

// coordDryRunSeparator separates the parsed coordinator from each action's document in the
// text of a coordinator dry run.
const coordDryRunSeparator = "action for new instance"

// printDryRun writes the answer of `job -dryrun`: "OK" for a workflow; for a coordinator,
// the parsed definition, the number of actions and each action's document, in Oozie's
// layout.
func printDryRun(out io.Writer, res string) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	if res == dryRunOK {
		p("%s", res)
		return w.Flush()
	}
	parts := strings.Split(res, coordDryRunSeparator)
	p("***coordJob after parsing: ***")
	p("%s", parts[0])
	p("***total coord actions is %d ***", len(parts)-1)
	for i, part := range parts[1:] {
		p("%s", ruler)
		p("coordAction instance: %d:", i+1)
		p("%s", part)
	}
	return w.Flush()
}

// dryRunOK is what a workflow dry run answers.
const dryRunOK = "OK"

// printCoordJobs writes the `jobs -jobtype coordinator` table in Oozie's layout.
func printCoordJobs(out io.Writer, jobs []oozieapi.CoordinatorJob, loc *time.Location, verbose bool) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	switch {
	case len(jobs) == 0:
		p("No Jobs match your criteria!")
	case verbose:
		p("%s", strings.Join([]string{"Job ID", "App Name", "App Path", "Console URL", "User", "Group", "Concurrency",
			"Frequency", "Time Unit", "Time Zone", "Time Out", "Started", "Next Materialize", "Status", "Last Action",
			"Ended"}, verboseDelimiter))
		p("%s", ruler)
		for _, j := range jobs {
			p("%s", strings.Join([]string{maskIfNull(j.ID), maskIfNull(j.AppName), maskIfNull(j.AppPath),
				maskIfNull(j.ConsoleURL), maskIfNull(j.User), maskIfNull(j.Group), fmt.Sprint(j.Concurrency),
				maskIfNull(j.Frequency), maskIfNull(j.TimeUnit), maskIfNull(j.TimeZone), fmt.Sprint(j.Timeout),
				maskDate(j.StartTime, loc, verbose), maskDate(j.NextMaterializedTime, loc, verbose), j.Status,
				maskDate(j.LastAction, loc, verbose), maskDate(j.EndTime, loc, verbose)}, verboseDelimiter))
			p("%s", ruler)
		}
	default:
		p(coordJobsFormat, "Job ID", "App Name", "Status", "Freq", "Unit", "Started", "Next Materialized")
		p("%s", ruler)
		for _, j := range jobs {
			p(coordJobsFormat, maskIfNull(j.ID), maskIfNull(j.AppName), j.Status, j.Frequency, j.TimeUnit,
				maskDate(j.StartTime, loc, verbose), maskDate(j.NextMaterializedTime, loc, verbose))
			p("%s", ruler)
		}
	}
	return w.Flush()
}
