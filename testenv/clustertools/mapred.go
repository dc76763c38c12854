package clustertools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// MapReduce names of the stand-in.
const (
	// ApplicationTypeMapReduce is the YARN application type of submitted jobs.
	ApplicationTypeMapReduce = "MAPREDUCE"
	// jobFileLink is the job file's name in the AM container.
	jobFileLink = "job.xml"
	// defaultStagingDir is yarn.app.mapreduce.am.staging-dir's default.
	defaultStagingDir = "/tmp/hadoop-yarn/staging"
	// defaultAMMemoryMB is yarn.app.mapreduce.am.resource.mb's default.
	defaultAMMemoryMB = 1536
)

// mapred runs `mapred job ...` and the stand-in's `mapred appmaster`.
func (t *tool) mapred(ctx context.Context, args []string) int {
	usage := func() int {
		t.errorf("usage: mapred job -submit <job-file> | -status <job-id> | -kill <job-id> | -list")
		return exitUsage
	}
	if len(args) == 0 {
		return usage()
	}
	switch args[0] {
	case "appmaster":
		if len(args) != 2 {
			return usage()
		}
		return t.appMaster(ctx, args[1])
	case "version":
		fmt.Fprintln(t.env.Stdout, "Hadoop 3.3.6 (gozie stand-in)")
		return exitOK
	case "pipes":
		return t.pipesRefused()
	case "job":
	default:
		return usage()
	}
	switch {
	case len(args) == 3 && args[1] == "-submit":
		return t.submitJob(ctx, args[2])
	case len(args) == 3 && (args[1] == "-status" || args[1] == "-kill"):
		return t.jobControl(ctx, args[1], args[2])
	case len(args) == 2 && args[1] == "-list":
		return t.listJobs(ctx)
	}
	return usage()
}

// readJobFile reads a job configuration file.
func (t *tool) readJobFile(path string) (map[string]string, error) {
	b, err := os.ReadFile(t.localPath(path))
	if err != nil {
		return nil, err
	}
	p, err := conf.ReadConfigurationXML(bytes.NewReader(b), path)
	if err != nil {
		return nil, err
	}
	return p.Map(), nil
}

// submitJob is `mapred job -submit FILE`: the checks JobSubmitter makes,
// the job file staged, and the application submitted.
func (t *tool) submitJob(ctx context.Context, file string) int {
	props, err := t.readJobFile(file)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	appID, ok := t.submit(ctx, props)
	if !ok {
		return exitFail
	}
	fmt.Fprintf(t.env.Stdout, "Created job %s\n", jobIDOf(appID))
	return exitOK
}

// submit submits the job of props as JobSubmitter does (the checks, the
// job file staged, the application submitted) and returns its
// application; ok is false when it printed why it could not.
func (t *tool) submit(ctx context.Context, props map[string]string) (appID yarn.ApplicationID, ok bool) {
	c, err := t.cluster()
	if err != nil {
		t.errorf("%v", err)
		return appID, false
	}
	fsys, err := t.filesystem(c)
	if err != nil {
		t.errorf("%v", err)
		return appID, false
	}
	defer fsys.Close()
	yc, err := t.yarnClient(c)
	if err != nil {
		t.errorf("%v", err)
		return appID, false
	}
	j := newJob(props)
	if err := t.checkSpecs(ctx, c, fsys, j); err != nil {
		fmt.Fprintf(t.env.Stderr, "Exception in thread \"main\" %v\n", err)
		return appID, false
	}
	na, err := yc.NewApplication(ctx)
	if err != nil {
		t.errorf("%v", err)
		return appID, false
	}
	appID = na.ApplicationID
	jobID := jobIDOf(appID)
	fmt.Fprintf(t.env.Stderr, "INFO mapreduce.JobSubmitter: Submitting tokens for job: %s\n", jobID)
	// The AM reads paths exactly as the submitter resolved them.
	j.qualifyPaths(func(p string) string { return t.qualify(c, p) })
	j.props["mapreduce.job.user.name"] = t.user()
	jobXML, err := j.encode()
	if err != nil {
		t.errorf("%v", err)
		return appID, false
	}
	staging := t.qualify(c, j.get("yarn.app.mapreduce.am.staging-dir", defaultStagingDir)) + "/" + t.user() + "/.staging/" + jobID
	jobURI := staging + "/" + jobFileLink
	if err := fsys.WriteFile(ctx, jobURI, jobXML, 0o644); err != nil {
		t.errorf("staging the job file: %v", err)
		return appID, false
	}
	fi, err := fsys.Stat(ctx, jobURI)
	if err != nil {
		t.errorf("staging the job file: %v", err)
		return appID, false
	}
	memory, _ := strconv.Atoi(j.get("yarn.app.mapreduce.am.resource.mb", ""))
	if memory <= 0 {
		memory = defaultAMMemoryMB
	}
	creds, err := t.jobCredentials()
	if err != nil {
		t.errorf("reading the container's tokens: %v", err)
		return appID, false
	}
	sc := yarn.ApplicationSubmissionContext{
		ApplicationID:   appID,
		ApplicationName: j.get("mapreduce.job.name", j.get("mapred.job.name", "gozie stand-in job")),
		Queue:           j.get("mapreduce.job.queuename", j.get("mapred.job.queue.name", "default")),
		AMContainerSpec: yarn.ContainerLaunchContext{
			LocalResources: yarn.EntryMap[yarn.LocalResource]{jobFileLink: {
				Resource: jobURI, Type: yarn.ResourceFile, Visibility: yarn.VisibilityApplication,
				Size: fi.Size, Timestamp: fi.ModTime.UnixMilli(),
			}},
			Commands:    yarn.Commands{"mapred appmaster " + jobFileLink + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"},
			Credentials: creds,
		},
		// The tokens are the launcher's too: the RM must not cancel them
		// when the job ends (Oozie sets
		// mapreduce.job.complete.cancel.delegation.tokens=false).
		CancelTokensWhenComplete: noCancel(creds),
		// The stand-in's job is not restartable half-way: one attempt.
		MaxAppAttempts:  1,
		Resource:        &yarn.Resource{MemoryMB: int64(memory), VCores: 1},
		ApplicationType: ApplicationTypeMapReduce,
		ApplicationTags: splitComma(j.get("mapreduce.job.tags", "")),
	}
	if err := yc.Submit(ctx, sc); err != nil {
		t.errorf("submitting %s: %v", jobID, err)
		return appID, false
	}
	fmt.Fprintf(t.env.Stderr, "INFO impl.YarnClientImpl: Submitted application %s\n", appID)
	return appID, true
}

// checkSpecs makes JobSubmitter's checks: the output directory must not
// exist, and every input path must match something.
func (t *tool) checkSpecs(ctx context.Context, c *cluster, fsys hadoop.FileSystem, j *job) error {
	if out := j.output(); out != "" {
		uri := t.qualify(c, out)
		if _, err := fsys.Stat(ctx, uri); err == nil {
			return fmt.Errorf("org.apache.hadoop.mapred.FileAlreadyExistsException: Output directory %s already exists", uri)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	for _, in := range j.inputs() {
		uri := t.qualify(c, in)
		matches, err := fsys.Glob(ctx, uri)
		if err != nil {
			return err
		}
		if len(matches) == 0 {
			return fmt.Errorf("org.apache.hadoop.mapreduce.lib.input.InvalidInputException: Input path does not exist: %s", uri)
		}
	}
	return nil
}

// jobIDOf is the MapReduce job id of an application: job_<ts>_<seq>.
func jobIDOf(id yarn.ApplicationID) string {
	return "job_" + strings.TrimPrefix(id.String(), "application_")
}

// appIDOf is the application id of a job id.
func appIDOf(jobID string) (yarn.ApplicationID, error) {
	return yarn.ParseApplicationID("application_" + strings.TrimPrefix(strings.TrimSpace(jobID), "job_"))
}

// jobControl is `mapred job -status|-kill JOB`.
func (t *tool) jobControl(ctx context.Context, op, jobID string) int {
	id, err := appIDOf(jobID)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	c, err := t.cluster()
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	yc, err := t.yarnClient(c)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	if op == "-kill" {
		if err := yc.Kill(ctx, id); err != nil {
			t.errorf("killing %s: %v", jobID, err)
			return exitFail
		}
		fmt.Fprintf(t.env.Stdout, "Killed job %s\n", jobID)
		return exitOK
	}
	r, err := yc.App(ctx, id)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	fmt.Fprintf(t.env.Stdout, "Job: %s\nJob name: %s\nJob state: %s\nFinal status: %s\nTracking URL: %s\n",
		jobID, r.Name, jobState(r), r.FinalStatus, r.TrackingURL)
	return exitOK
}

// jobState is a MapReduce job's state from its application's report.
func jobState(r yarn.AppReport) string {
	if !r.Done() {
		if r.State == yarn.StateRunning {
			return "RUNNING"
		}
		return "PREP"
	}
	switch r.FinalStatus {
	case yarn.FinalSucceeded:
		return "SUCCEEDED"
	case yarn.FinalKilled:
		return "KILLED"
	}
	if r.State == yarn.StateKilled {
		return "KILLED"
	}
	return "FAILED"
}

// listJobs is `mapred job -list`: the running MapReduce jobs.
func (t *tool) listJobs(ctx context.Context) int {
	c, err := t.cluster()
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	yc, err := t.yarnClient(c)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	reps, err := yc.Apps(ctx, yarn.AppsFilter{ApplicationTypes: []string{ApplicationTypeMapReduce},
		States: []yarn.AppState{yarn.StateNew, yarn.StateNewSaving, yarn.StateSubmitted, yarn.StateAccepted, yarn.StateRunning}})
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	fmt.Fprintf(t.env.Stdout, "Total jobs:%d\n", len(reps))
	rows := make([][]string, 0, len(reps))
	for _, r := range reps {
		rows = append(rows, []string{jobIDOf(r.ID), jobState(r), r.User, r.Queue, r.Name})
	}
	printTable(t.env.Stdout, []string{"JobId", "State", "UserName", "Queue", "JobName"}, rows)
	return exitOK
}

// noCancel is cancel-tokens-when-complete=false for a job with tokens.
func noCancel(creds *yarn.Credentials) *bool {
	if creds == nil {
		return nil
	}
	no := false
	return &no
}
