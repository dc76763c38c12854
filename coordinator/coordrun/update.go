package coordrun

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// Update replaces a coordinator's definition and configuration with the
// application's current coordinator.xml read again from its app path, under
// props (or, when props is empty, the job's own configuration; the job's
// user stays). The job keeps its id, status and actions, and its existing
// actions keep the configuration they were materialized with (rerun them
// with -refresh to take the new one). Name, frequency, start, end and time
// zone may not change (use change for the end). It returns the differences
// of the definition and of the configuration; with dryRun nothing is
// written.
func (r *Runner) Update(ctx context.Context, id string, props *conf.Properties, dryRun bool) (string, error) {
	var job store.CoordJob
	err := r.tx(ctx, func(x store.Tx) (err error) {
		job, err = x.GetCoordJob(ctx, id)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return "", oozieerr.New(oozieerr.E0604, "Job does not exist [%s]", id)
	}
	if err != nil {
		return "", err
	}
	if job.Status.Terminal() {
		return "", oozieerr.New(oozieerr.E1023, "Coord Job update Error: [job %s is %s, only unfinished jobs can be updated]", id, job.Status)
	}
	old, err := conf.ReadConfigurationXML(strings.NewReader(job.Conf), "coordinator job "+id+" configuration")
	if err != nil {
		return "", fmt.Errorf("reading the configuration of %s: %w", id, err)
	}
	next := old
	if props != nil && props.Len() > 0 {
		next = props.Clone()
		if v, _ := next.Get(PropAppPath); v == "" {
			next.Set(PropAppPath, job.AppPath)
		}
	}
	next.Set(PropUser, job.User)
	opts := SubmitOptions{BundleID: job.BundleID}
	if job.BundleID != "" {
		opts.BundleCoordName = job.AppName
	}
	p, err := r.Prepare(ctx, next, opts)
	if err != nil {
		return "", err
	}
	nr := p.row
	var fixed []string
	for _, c := range []struct {
		name     string
		was, now string
	}{
		{"name", job.AppName, nr.AppName}, {"frequency", job.Frequency + " " + job.TimeUnit, nr.Frequency + " " + nr.TimeUnit},
		{"start", job.StartTime.String(), nr.StartTime.String()}, {"end", job.EndTime.String(), nr.EndTime.String()},
		{"timezone", job.TimeZone, nr.TimeZone},
	} {
		if c.was != c.now {
			fixed = append(fixed, c.name)
		}
	}
	if len(fixed) > 0 {
		return "", oozieerr.New(oozieerr.E1023, "Coord Job update Error: [%s cannot be updated; change the end time with -change]",
			strings.Join(fixed, ", "))
	}
	diff := "**********Job definition changes**********\n" + lineDiff(job.Definition, nr.Definition) +
		"**********Job conf changes**********\n" + lineDiff(job.Conf, nr.Conf)
	if dryRun {
		return diff, nil
	}
	err = r.tx(ctx, func(x store.Tx) error {
		cur, err := lockJob(ctx, x, id)
		if err != nil {
			return err
		}
		if !cur.EndTime.Equal(job.EndTime) || cur.Status.Terminal() {
			return oozieerr.New(oozieerr.E1023, "Coord Job update Error: [job %s changed while it was being updated, try again]", id)
		}
		cur.Definition, cur.OrigDefinition, cur.Conf, cur.AppPath = nr.Definition, nr.OrigDefinition, nr.Conf, nr.AppPath
		cur.Concurrency, cur.Timeout, cur.Throttle, cur.ExecutionOrder = nr.Concurrency, nr.Timeout, nr.Throttle, nr.ExecutionOrder
		cur.LastModified = r.now()
		if err := x.UpdateCoordJob(ctx, &cur); err != nil {
			return err
		}
		// New controls may let more actions materialize or start.
		for _, kind := range []store.TriggerKind{KindMaterialize, KindStart} {
			if err := x.Schedule(ctx, kind, id, r.now(), ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	r.log.Info("coordinator job updated", "coord_job_id", id)
	return diff, nil
}

// lineDiff lists the lines only in a ("-") and only in b ("+") in order,
// from a longest common subsequence of the lines; "No changes" when equal.
func lineDiff(a, b string) string {
	x, y := strings.Split(strings.TrimRight(a, "\n"), "\n"), strings.Split(strings.TrimRight(b, "\n"), "\n")
	if a == b {
		return "No changes\n"
	}
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			i, j = i+1, j+1
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			out.WriteString("+" + y[j] + "\n")
			j++
		default:
			out.WriteString("-" + x[i] + "\n")
			i++
		}
	}
	return out.String()
}
