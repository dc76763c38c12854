package cli

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/server/client"
)

// Defaults of `job -poll`, in minutes, as Oozie's CLI has them.
const (
	defaultPollInterval = 5
	defaultPollTimeout  = 30
)

// pollFlags are the options of `job -poll`.
type pollFlags struct {
	// interval and timeout are minutes, as Oozie's CLI takes them; gozie also takes
	// fractions (-interval 0.05 is every 3 seconds). A timeout of 0 or less means none.
	interval, timeout float64
}

// Statuses after which `job -poll` stops, by the kind of ID polled: Oozie's
// OozieClient.pollJob sets.
var (
	finishedWorkflow = set("SUCCEEDED", "KILLED", "FAILED")
	finishedJob      = set("SUCCEEDED", "KILLED", "FAILED", "DONEWITHERROR", "IGNORED") // coordinators and bundles
	finishedCoordAct = set("SUCCEEDED", "KILLED", "FAILED", "IGNORED", "SKIPPED", "TIMEDOUT")
)

func set(vs ...string) map[string]bool {
	m := make(map[string]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}

// finishedFor returns the statuses that end the polling of id, as Oozie decides them
// from the ID's kind; Oozie polls nothing else (a workflow action, for one).
func finishedFor(id string) (map[string]bool, error) {
	switch {
	case ids.EndsWithKind(id, ids.Workflow):
		return finishedWorkflow, nil
	case isCoordinatorID(id), isBundleID(id):
		return finishedJob, nil
	case ids.HasActionOf(id, ids.Coordinator):
		return finishedCoordAct, nil
	}
	return nil, &plainError{fmt.Sprintf("invalid job type [%s]: -poll takes a workflow, coordinator or bundle job, "+
		"or a coordinator action", id)}
}

// poll is `job -poll ID [-interval M] [-timeout M] [-verbose]`, as Oozie's CLI does it:
// it asks for the status of the job every interval minutes (default 5) until the job
// has finished or timeout minutes (default 30; 0 or less: no timeout) have passed,
// printing every status it gets with -verbose. Like Oozie's, it exits 0 either way: it
// waits, it does not judge; a timeout is only noted on stderr.
func (p pollFlags) poll(ctx context.Context, cl *client.Client, env Env, id string, verbose bool) error {
	if !(p.interval > 0) {
		return &plainError{fmt.Sprintf("-interval must be a positive number of minutes, not %s", formatMinutes(p.interval))}
	}
	finished, err := finishedFor(id)
	if err != nil {
		return err
	}
	interval := time.Duration(p.interval * float64(time.Minute))
	var deadline time.Time
	if p.timeout > 0 {
		deadline = time.Now().Add(time.Duration(p.timeout * float64(time.Minute)))
	}
	for {
		status, err := cl.JobStatus(ctx, id)
		if err != nil {
			return err
		}
		if verbose {
			fmt.Fprintln(env.Stdout, status)
		}
		if finished[status] {
			return nil
		}
		wait := interval
		if !deadline.IsZero() {
			left := time.Until(deadline)
			if left < 0 {
				fmt.Fprintf(env.Stderr, "%s is still %s after %s minutes; stopped polling (-timeout)\n",
					id, status, formatMinutes(p.timeout))
				return nil
			}
			wait = min(wait, left+time.Millisecond)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// formatMinutes writes a number of minutes as it was given.
func formatMinutes(m float64) string { return strconv.FormatFloat(m, 'f', -1, 64) }
