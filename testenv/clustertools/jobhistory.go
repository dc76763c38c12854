package clustertools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/minijhs"
)

// jobRun is what the AM knows of a job it ran, for its history.
type jobRun struct {
	jobID        string
	user         string
	start, end   time.Time
	counters     *jobCounters
	status, diag string // SUCCEEDED or FAILED, and why
}

// setting reads a key of the job's configuration, else of the cluster's
// (the AM's configuration is both: job.xml over the node's *-site.xml).
func (t *tool) setting(c *cluster, j *job, key string) string {
	if v := j.get(key, ""); v != "" {
		return v
	}
	return c.conf.GetDefault(key, "")
}

// writeHistory leaves the job's history where the JobHistory server reads
// it, as JobHistoryEventHandler does when the job ends: into
// <intermediate done dir>/<user>/ (the directory made drwxrwxrwt if it is
// missing, the user's drwxrwx---), the summary, the configuration and last
// the .jhist file, each written as <name>_tmp and renamed.
func (t *tool) writeHistory(ctx context.Context, c *cluster, fsys hadoop.FileSystem, j *job, r jobRun) error {
	root := t.qualify(c, minijhs.IntermediateDoneDir(func(k string) string { return t.setting(c, j, k) }))
	if _, err := fsys.Stat(ctx, root); errors.Is(err, fs.ErrNotExist) {
		if err := fsys.MkdirAll(ctx, root, 0o777); err != nil {
			return fmt.Errorf("creating the intermediate history directory %s: %w", root, err)
		}
		if err := fsys.Chmod(ctx, root, minijhs.IntermediateDoneDirPerm); err != nil {
			return fmt.Errorf("creating the intermediate history directory %s: %w", root, err)
		}
	} else if err != nil {
		return fmt.Errorf("checking the intermediate history directory %s: %w", root, err)
	}
	dir := root + "/" + r.user
	if err := fsys.MkdirAll(ctx, dir, minijhs.IntermediateUserDirPerm); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	if err := fsys.Chmod(ctx, dir, minijhs.IntermediateUserDirPerm); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	conf, err := j.encode()
	if err != nil {
		return err
	}
	h := t.history(c, j, r)
	jhist, err := h.Encode()
	if err != nil {
		return err
	}
	maps, reduces := r.counters.launched()
	name := minijhs.DoneFileName(minijhs.IndexInfo{JobID: r.jobID, SubmitTime: r.start.UnixMilli(),
		LaunchTime: r.start.UnixMilli(), FinishTime: r.end.UnixMilli(), User: r.user, JobName: h.Submitted.JobName,
		Queue: h.Submitted.JobQueueName, Status: r.status, Maps: maps, Reduces: reduces})
	files := []struct {
		name string
		data []byte
	}{
		{r.jobID + minijhs.SummarySuffix, []byte(summary(h, r, maps, reduces))},
		{r.jobID + minijhs.ConfSuffix, conf},
		{name, jhist},
	}
	for _, f := range files {
		tmp := dir + "/" + f.name + minijhs.TmpSuffix
		if err := fsys.WriteFile(ctx, tmp, f.data, minijhs.IntermediateFilePerm); err != nil {
			return fmt.Errorf("writing %s: %w", tmp, err)
		}
		if err := fsys.Chmod(ctx, tmp, minijhs.IntermediateFilePerm); err != nil {
			return fmt.Errorf("writing %s: %w", tmp, err)
		}
		if err := fsys.Rename(ctx, tmp, dir+"/"+f.name); err != nil {
			return fmt.Errorf("moving %s into place: %w", tmp, err)
		}
	}
	return nil
}

// history is the job's history events: JOB_SUBMITTED (with the job's ACLs
// when ACLs are on, JobImpl's constructJobACLs), then JOB_FINISHED with the
// counters or JOB_FAILED with the diagnostics.
func (t *tool) history(c *cluster, j *job, r jobRun) *minijhs.History {
	sub := minijhs.JobSubmitted{JobID: r.jobID, UserName: r.user, SubmitTime: r.start.UnixMilli(),
		JobName:      j.get("mapreduce.job.name", j.get("mapred.job.name", "gozie stand-in job")),
		JobQueueName: j.get("mapreduce.job.queuename", j.get("mapred.job.queue.name", "default")),
		JobConfPath:  r.jobID + minijhs.ConfSuffix, ACLs: map[string]string{}}
	if t.setting(c, j, minijhs.ACLsEnabledKey) == "true" {
		for _, k := range []string{minijhs.ViewACLKey, minijhs.ModifyACLKey} {
			// An unset job ACL is " ": nobody beyond the owner and admins.
			sub.ACLs[k] = j.get(k, " ")
		}
	}
	h := &minijhs.History{Submitted: sub}
	maps, reduces := r.counters.launched()
	if r.status == "SUCCEEDED" {
		h.Finished = &minijhs.JobFinished{JobID: r.jobID, FinishTime: r.end.UnixMilli(), FinishedMaps: maps,
			FinishedReduces: reduces, TotalCounters: r.counters.history("TOTAL_COUNTERS", nil),
			MapCounters:    r.counters.history("MAP_COUNTERS", func(c *counter) int64 { return c.mapValue }),
			ReduceCounters: r.counters.history("REDUCE_COUNTERS", func(c *counter) int64 { return c.redValue })}
		return h
	}
	h.Unsuccessful = &minijhs.JobUnsuccessfulCompletion{JobID: r.jobID, FinishTime: r.end.UnixMilli(),
		JobStatus: r.status, Diagnostics: r.diag}
	return h
}

// history converts the counters for a history event: value picks a
// phase's part, nil the total; counters a phase did not count are left out.
func (jc *jobCounters) history(name string, value func(*counter) int64) minijhs.Counters {
	out := minijhs.Counters{Name: name, Groups: []minijhs.CounterGroup{}}
	for _, g := range jc.groups {
		hg := minijhs.CounterGroup{Name: g.name, DisplayName: displayName(g.name), Counts: []minijhs.Counter{}}
		for _, c := range g.counters {
			v := c.total()
			if value != nil {
				if v = value(c); v == 0 {
					continue
				}
			}
			hg.Counts = append(hg.Counts, minijhs.Counter{Name: c.name, DisplayName: displayName(c.name), Value: v})
		}
		if len(hg.Counts) > 0 {
			out.Groups = append(out.Groups, hg)
		}
	}
	return out
}

// launched is the number of map and reduce tasks the job ran.
func (jc *jobCounters) launched() (maps, reduces int) {
	return int(jc.value(GroupJobCounter, CounterLaunchedMaps)), int(jc.value(GroupJobCounter, CounterLaunchedReduces))
}

// summary is the job's one-line summary (JobSummary.getJobSummaryString).
func summary(h *minijhs.History, r jobRun, maps, reduces int) string {
	fields := []string{
		"jobId=" + r.jobID,
		fmt.Sprintf("submitTime=%d", r.start.UnixMilli()),
		fmt.Sprintf("launchTime=%d", r.start.UnixMilli()),
		fmt.Sprintf("finishTime=%d", r.end.UnixMilli()),
		fmt.Sprintf("numMaps=%d", maps),
		fmt.Sprintf("numReduces=%d", reduces),
		"user=" + r.user,
		"queue=" + h.Submitted.JobQueueName,
		"status=" + r.status,
		"jobName=" + strings.ReplaceAll(h.Submitted.JobName, ",", "\\,"),
	}
	return strings.Join(fields, ",") + "\n"
}
