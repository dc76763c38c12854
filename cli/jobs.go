package cli

import (
	"context"
	"strings"

	"github.com/gozie/gozie/server/client"
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
	if err := parse(fs, args); err != nil {
		return err
	}
	loc, err := displayZone(env, *timezone, *localtime)
	if err != nil {
		return err
	}
	cl, err := c.client(env)
	if err != nil {
		return err
	}
	q := client.JobsQuery{JobType: *jobType, Filter: *filter, Offset: *offset, Len: *length}
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
