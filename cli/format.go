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

// ruler is the line Oozie's CLI draws between blocks: 132 dashes.
var ruler = strings.Repeat("-", 132)

// Table formats of Oozie's CLI.
const (
	workflowJobsFormat   = "%-41s%-13s%-10s%-10s%-10s%-24s%-24s"
	workflowActionFormat = "%-78s%-10s%-23s%-11s%-10s"
	verboseDelimiter     = "\t"
)

// displayZone returns the zone dates are shown in, chosen as Oozie's CLI does: -localtime
// wins, then -timezone, then $OOZIE_TIMEZONE, then GMT. Zone ids follow Java's rules
// (America/Los_Angeles, UTC, GMT+05:30, PST...).
func displayZone(env Env, timezone string, local bool) (*time.Location, error) {
	if local {
		if env.Local != nil {
			return env.Local, nil
		}
		return time.Local, nil
	}
	id := timezone
	if id == "" && env.Getenv != nil {
		id = env.Getenv("OOZIE_TIMEZONE")
	}
	if id == "" {
		return oozieapi.GMT, nil
	}
	loc, err := oozietime.LoadZone(id)
	if err != nil {
		return nil, fmt.Errorf("invalid time zone %q (see 'oozie info -timezones' for valid ids): %w", id, err)
	}
	return loc, nil
}

// maskDate formats a date as Oozie's CLI does: "yyyy-MM-dd HH:mm zzz" ("...:ss zzz" when
// verbose) in loc, a GMT offset zone shortened to the offset ("-07:00"), and "-" for none.
func maskDate(d oozieapi.Date, loc *time.Location, verbose bool) string {
	if d.IsZero() {
		return "-"
	}
	layout := "2006-01-02 15:04 MST"
	if verbose {
		layout = "2006-01-02 15:04:05 MST"
	}
	s := d.In(loc).Format(layout)
	if i := strings.LastIndexByte(s, ' '); i >= 0 {
		if z := s[i+1:]; len(z) == 9 && strings.HasPrefix(z, "GMT") && (z[3] == '+' || z[3] == '-') && z[6] == ':' {
			s = s[:i+1] + z[3:]
		}
	}
	return s
}

// maskIfNull is s, or "-" when s is empty.
func maskIfNull(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// printJob writes `job -info` of a workflow job in Oozie's layout.
func printJob(out io.Writer, job *oozieapi.WorkflowJob, loc *time.Location, verbose bool) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("Job ID : %s", maskIfNull(job.ID))
	p("%s", ruler)
	p("Workflow Name : %s", maskIfNull(job.AppName))
	p("App Path      : %s", maskIfNull(job.AppPath))
	p("Status        : %s", job.Status)
	p("Run           : %d", job.Run)
	p("User          : %s", maskIfNull(job.User))
	p("Group         : %s", maskIfNull(job.Group))
	p("Created       : %s", maskDate(job.CreatedTime, loc, verbose))
	p("Started       : %s", maskDate(job.StartTime, loc, verbose))
	p("Last Modified : %s", maskDate(job.LastModTime, loc, verbose))
	p("Ended         : %s", maskDate(job.EndTime, loc, verbose))
	p("CoordAction ID: %s", maskIfNull(job.ParentID))
	if len(job.Actions) == 0 {
		p("%s", ruler)
		p("")
		return w.Flush()
	}
	p("")
	p("Actions")
	p("%s", ruler)
	if verbose {
		p("%s", strings.Join([]string{"ID", "Console URL", "Error Code", "Error Message", "External ID", "External Status",
			"Name", "Retries", "Tracker URI", "Type", "Started", "Status", "Ended"}, verboseDelimiter))
		p("%s", ruler)
		for _, a := range job.Actions {
			p("%s", strings.Join([]string{maskIfNull(a.ID), maskIfNull(a.ConsoleURL), maskIfNull(a.ErrorCode),
				maskIfNull(a.ErrorMessage), maskIfNull(a.ExternalID), maskIfNull(a.ExternalStatus), maskIfNull(a.Name),
				fmt.Sprint(a.Retries), maskIfNull(a.TrackerURI), maskIfNull(a.Type), maskDate(a.StartTime, loc, verbose),
				a.Status, maskDate(a.EndTime, loc, verbose)}, verboseDelimiter))
			p("%s", ruler)
		}
	} else {
		p(workflowActionFormat, "ID", "Status", "Ext ID", "Ext Status", "Err Code")
		p("%s", ruler)
		for _, a := range job.Actions {
			p(workflowActionFormat, maskIfNull(a.ID), a.Status, maskIfNull(a.ExternalID), maskIfNull(a.ExternalStatus),
				maskIfNull(a.ErrorCode))
			p("%s", ruler)
		}
	}
	p("")
	return w.Flush()
}

// printAction writes `job -info <job id>@<node>` in Oozie's layout.
func printAction(out io.Writer, a *oozieapi.WorkflowAction, loc *time.Location, verbose bool) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("ID : %s", maskIfNull(a.ID))
	p("%s", ruler)
	p("Console URL       : %s", maskIfNull(a.ConsoleURL))
	p("Error Code        : %s", maskIfNull(a.ErrorCode))
	p("Error Message     : %s", maskIfNull(a.ErrorMessage))
	p("External ID       : %s", maskIfNull(a.ExternalID))
	p("External Status   : %s", maskIfNull(a.ExternalStatus))
	p("Name              : %s", maskIfNull(a.Name))
	p("Retries           : %d", a.UserRetryCount)
	p("Tracker URI       : %s", maskIfNull(a.TrackerURI))
	p("Type              : %s", maskIfNull(a.Type))
	p("Started           : %s", maskDate(a.StartTime, loc, verbose))
	p("Status            : %s", a.Status)
	p("Ended             : %s", maskDate(a.EndTime, loc, verbose))
	if verbose {
		// Oozie prints these two unmasked, so an absent value reads "null".
		p("External Stats    : %s", javaString(a.Stats))
		p("External ChildIDs : %s", javaString(a.ExternalChildIDs))
	}
	p("%s", ruler)
	return w.Flush()
}

// javaString is how Java prints a string that may be null (empty here).
func javaString(s string) string {
	if s == "" {
		return "null"
	}
	return s
}

// printJobs writes the `jobs` table of workflow jobs in Oozie's layout.
func printJobs(out io.Writer, jobs []oozieapi.WorkflowJob, loc *time.Location, verbose bool) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	switch {
	case len(jobs) == 0:
		p("No Jobs match your criteria!")
	case verbose:
		p("%s", strings.Join([]string{"Job ID", "App Name", "App Path", "Console URL", "User", "Group", "Run", "Created",
			"Started", "Status", "Last Modified", "Ended"}, verboseDelimiter))
		p("%s", ruler)
		for _, j := range jobs {
			p("%s", strings.Join([]string{maskIfNull(j.ID), maskIfNull(j.AppName), maskIfNull(j.AppPath),
				maskIfNull(j.ConsoleURL), maskIfNull(j.User), maskIfNull(j.Group), fmt.Sprint(j.Run),
				maskDate(j.CreatedTime, loc, verbose), maskDate(j.StartTime, loc, verbose), j.Status,
				maskDate(j.LastModTime, loc, verbose), maskDate(j.EndTime, loc, verbose)}, verboseDelimiter))
			p("%s", ruler)
		}
	default:
		p(workflowJobsFormat, "Job ID", "App Name", "Status", "User", "Group", "Started", "Ended")
		p("%s", ruler)
		for _, j := range jobs {
			p(workflowJobsFormat, maskIfNull(j.ID), maskIfNull(j.AppName), j.Status, maskIfNull(j.User),
				maskIfNull(j.Group), maskDate(j.StartTime, loc, verbose), maskDate(j.EndTime, loc, verbose))
			p("%s", ruler)
		}
	}
	return w.Flush()
}
