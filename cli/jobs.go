package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gozie/gozie/server/client"
	"github.com/gozie/gozie/server/oozieapi"
)

// runJobs is `gozie jobs`: a table of jobs matching a filter, as Oozie's CLI prints it.
func runJobs(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("jobs", env)
	var c common
	c.register(fs)
	jobType := fs.String("jobtype", "wf", "job type: wf, coordinator or bundle")
	filter := fs.String("filter", "", "`name=value;...` with user, name, group, status, id, text, startcreatedtime, endcreatedtime, sortby")
	offset := fs.Int("offset", 0, "first job shown (1-based; default 1)")
	length := fs.Int("len", 0, "number of jobs shown (default the server's, 50)")
	verbose := fs.Bool("verbose", false, "verbose listing")
	timezone := fs.String("timezone", "", "show dates in the time zone `ID` (default $OOZIE_TIMEZONE, then GMT)")
	localtime := fs.Bool("localtime", false, "show dates in the local time zone (overrides -timezone)")
	kill := fs.Bool("kill", false, "kill the jobs matching -filter (one page, -len default 50)")
	suspend := fs.Bool("suspend", false, "suspend the jobs matching -filter")
	resume := fs.Bool("resume", false, "resume the jobs matching -filter")
	bulkFilter := fs.String("bulk", "", "list the coordinator actions of bundles: "+
		"`'bundle=b;coordinators=c1,c2;actionstatus=KILLED,FAILED;startcreatedtime=…;endscheduledtime=…'`")
	if err := parse(fs, args); err != nil {
		return err
	}
	bulk := ""
	for action, set := range map[string]bool{"kill": *kill, "suspend": *suspend, "resume": *resume} {
		if set {
			if bulk != "" {
				return &plainError{"give only one of -kill, -suspend and -resume"}
			}
			bulk = action
		}
	}
	if bulk != "" && *bulkFilter != "" {
		return &plainError{"-bulk lists coordinator actions; it does not go with -" + bulk}
	}
	if bulk != "" && *filter == "" {
		return &plainError{"-" + bulk + " of jobs needs -filter"}
	}
	loc, err := displayZone(env, *timezone, *localtime)
	if err != nil {
		return err
	}
	cl, err := c.client(env)
	if err != nil {
		return err
	}
	if *bulkFilter != "" {
		l, err := cl.BulkActions(ctx, *bulkFilter, *offset, *length)
		if err != nil {
			return err
		}
		return printBulkActions(env.Stdout, l.Responses, loc, *verbose)
	}
	q := client.JobsQuery{JobType: *jobType, Filter: *filter, Offset: *offset, Len: *length}
	if bulk != "" {
		return bulkJobs(ctx, env, cl, bulk, q, loc, *verbose)
	}
	if strings.HasPrefix(strings.ToLower(*jobType), "bundle") {
		l, err := cl.BundleJobs(ctx, q)
		if err != nil {
			return err
		}
		return printBundleJobs(env.Stdout, l.Jobs, loc, *verbose)
	}
	if strings.Contains(*jobType, "coord") && !strings.Contains(*jobType, "wf") {
		l, err := cl.CoordinatorJobs(ctx, q)
		if err != nil {
			return err
		}
		return printCoordJobs(env.Stdout, l.Jobs, loc, *verbose)
	}
	l, err := cl.Jobs(ctx, q)
	if err != nil {
		return err
	}
	return printJobs(env.Stdout, l.Workflows, loc, *verbose)
}

// bulkJobs is `jobs -kill|-suspend|-resume -filter ...`: Oozie's CLI prints
// which jobs the command reached, then their table.
func bulkJobs(ctx context.Context, env Env, cl *client.Client, action string, q client.JobsQuery, loc *time.Location, verbose bool) error {
	done := map[string]string{"kill": "killed", "suspend": "suspended", "resume": "resumed"}[action]
	if strings.HasPrefix(strings.ToLower(q.JobType), "bundle") {
		var l oozieapi.BundleList
		if err := cl.Bulk(ctx, action, q, &l); err != nil {
			return err
		}
		if len(l.Jobs) > 0 {
			fmt.Fprintf(env.Stdout, "The following jobs have been %s\n", done)
		}
		return printBundleJobs(env.Stdout, l.Jobs, loc, verbose)
	}
	if strings.Contains(q.JobType, "coord") && !strings.Contains(q.JobType, "wf") {
		var l oozieapi.CoordinatorList
		if err := cl.Bulk(ctx, action, q, &l); err != nil {
			return err
		}
		if len(l.Jobs) > 0 {
			fmt.Fprintf(env.Stdout, "The following jobs have been %s\n", done)
		}
		return printCoordJobs(env.Stdout, l.Jobs, loc, verbose)
	}
	var l oozieapi.WorkflowList
	if err := cl.Bulk(ctx, action, q, &l); err != nil {
		return err
	}
	if len(l.Workflows) > 0 {
		fmt.Fprintf(env.Stdout, "The following jobs have been %s\n", done)
	}
	return printJobs(env.Stdout, l.Workflows, loc, verbose)
}
