package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gozie/gozie/server/client"
)

// pollFlags are the options of `job -poll`.
type pollFlags struct {
	interval, timeout float64 // minutes, as Oozie's CLI takes them
}

// finished are the statuses after which a job or action changes no more.
var finished = map[string]bool{
	"SUCCEEDED": true, "KILLED": true, "FAILED": true, "DONEWITHERROR": true, "IGNORED": true,
	"TIMEDOUT": true, "SKIPPED": true,
}

// poll is `job -poll ID [-interval M] [-timeout M] [-verbose]`: it asks for
// the job's status every interval until the job has finished, printing each
// status with -verbose, and fails when timeout passes first. Intervals and
// timeouts are in minutes and may be fractions.
func (p pollFlags) poll(ctx context.Context, cl *client.Client, out io.Writer, id string, verbose bool) error {
	if p.interval <= 0 || p.timeout <= 0 {
		return &plainError{"-interval and -timeout must be positive (minutes)"}
	}
	interval := time.Duration(p.interval * float64(time.Minute))
	deadline := time.Now().Add(time.Duration(p.timeout * float64(time.Minute)))
	last := ""
	for {
		status, err := cl.JobStatus(ctx, id)
		if err != nil {
			return err
		}
		if verbose && status != last {
			fmt.Fprintf(out, "%s\t%s\n", id, status)
		}
		last = status
		if finished[status] {
			return nil
		}
		if time.Now().After(deadline) {
			return &plainError{fmt.Sprintf("%s is still %s after %v minutes", id, status, p.timeout)}
		}
		t := time.NewTimer(min(interval, time.Until(deadline)+time.Millisecond))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}
