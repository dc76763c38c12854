package clustertools

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// amHeartbeat is the stand-in AM's heartbeat interval.
const amHeartbeat = time.Second

// Job-end notification retries (mapreduce.job.end-notification.*): the
// configured attempts, capped as Hadoop caps them.
const (
	maxNotifyAttempts = 5
	maxNotifyInterval = 5 * time.Second
)

// appMaster is `mapred appmaster FILE`, the AM container of a submitted
// job: register, run the job while heartbeating, unregister with its
// outcome, then notify. A kill (SIGTERM) ends it without unregistering, as
// the RM has already decided the application's fate.
func (t *tool) appMaster(ctx context.Context, file string) int {
	props, err := t.readJobFile(file)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	j := newJob(props)
	cid, err := yarn.ParseContainerID(t.env.Getenv("CONTAINER_ID"))
	if err != nil {
		t.errorf("not in a YARN container: %v", err)
		return exitFail
	}
	jobID := jobIDOf(cid.Attempt.App)
	c, err := t.cluster()
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	fsys, err := t.filesystem(c)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	defer fsys.Close()
	am, err := t.registerAM(ctx)
	if err != nil {
		t.errorf("registering with the ResourceManager: %v", err)
		return exitFail
	}
	defer am.Close()
	fmt.Fprintf(t.env.Stderr, "INFO mapreduce.Job: Running job: %s\n", jobID)

	jobCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	hbDone := make(chan struct{})
	go func() {
		defer close(hbDone)
		t.heartbeat(jobCtx, am, stop)
	}()
	start, counters := t.env.Now(), &jobCounters{}
	runErr := t.runJob(jobCtx, fsys, j, jobID, counters)
	stop(nil)
	<-hbDone
	if ctx.Err() != nil {
		return exitTerminated
	}
	final, status, diag := yarn.FinalSucceeded, "SUCCEEDED", ""
	if runErr != nil {
		final, status, diag = yarn.FinalFailed, "FAILED", runErr.Error()
		fmt.Fprintf(t.env.Stderr, "ERROR mapreduce.Job: %s failed: %v\n", jobID, runErr)
	}
	// The history is in place before the RM reports the job ended, so the
	// JobHistory server knows every job a client sees finished.
	run := jobRun{jobID: jobID, user: j.get("mapreduce.job.user.name", t.user()), start: start, end: t.env.Now(),
		counters: counters, status: status, diag: diag}
	if err := t.writeHistory(ctx, c, fsys, j, run); err != nil {
		fmt.Fprintf(t.env.Stderr, "WARN jobhistory.JobHistoryEventHandler: the job's history is lost: %v\n", err)
	}
	uctx, cancel := context.WithTimeout(ctx, time.Minute)
	err = am.Unregister(uctx, final, diag, "")
	cancel()
	if err != nil {
		t.errorf("unregistering: %v", err)
		return exitFail
	}
	fmt.Fprintf(t.env.Stderr, "INFO mapreduce.Job: Job %s completed with status %s\n", jobID, status)
	t.notifyJobEnd(ctx, j, jobID, status)
	return exitOK
}

// registerAM registers with the scheduler named by the container's Hadoop
// configuration (HADOOP_CONF_DIR), as a MapReduce AM does: the AMRM token a
// real RM writes has an empty service. The session fails over, registers
// again and takes rolled tokens as the RM requires (see yarn.AMClient).
func (t *tool) registerAM(ctx context.Context) (*yarn.AMClient, error) {
	tok, err := yarn.AMRMToken(t.env.Getenv(hadoop.TokenFileEnv))
	if err != nil {
		return nil, err
	}
	h, err := yarn.ContainerHadoopConf(func(k string) (string, bool) {
		v := t.env.Getenv(k)
		return v, v != ""
	})
	if err != nil {
		return nil, err
	}
	cfg, err := yarn.ContainerAMConfig(h, tok)
	if err != nil {
		return nil, err
	}
	am, err := yarn.DialAM(ctx, cfg)
	if err != nil {
		return nil, err
	}
	host := t.env.Getenv("NM_HOST")
	if host == "" {
		host, _ = os.Hostname()
	}
	if _, err := am.Register(ctx, host, ""); err != nil {
		am.Close()
		return nil, err
	}
	return am, nil
}

// heartbeat keeps the attempt alive until ctx ends; an order to shut down
// stops the job.
func (t *tool) heartbeat(ctx context.Context, am *yarn.AMClient, stop context.CancelCauseFunc) {
	tick := time.NewTicker(amHeartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		switch err := am.Heartbeat(ctx, 0.5); {
		case err == nil, ctx.Err() != nil:
		case errors.Is(err, yarn.ErrAMShutdown):
			stop(err)
			return
		default:
			t.errorf("heartbeat: %v", err)
		}
	}
}

// notifyJobEnd calls the job-end notification URL, with $jobId and
// $jobStatus replaced, as the MapReduce AM does once the job ended.
func (t *tool) notifyJobEnd(ctx context.Context, j *job, jobID, status string) {
	raw := j.first(keysNotify)
	if raw == "" {
		return
	}
	u := strings.NewReplacer("$jobId", jobID, "$jobStatus", status).Replace(raw)
	attempts, _ := strconv.Atoi(j.get("mapreduce.job.end-notification.retry.attempts", "0"))
	attempts = min(max(attempts+1, 1), maxNotifyAttempts)
	intervalMS, _ := strconv.Atoi(j.get("mapreduce.job.end-notification.retry.interval", "1000"))
	interval := min(time.Duration(max(intervalMS, 0))*time.Millisecond, maxNotifyInterval)
	for i := 1; ; i++ {
		err := t.get(ctx, u)
		if err == nil {
			fmt.Fprintf(t.env.Stderr, "INFO mapreduce.JobEndNotifier: Job end notification to %s succeeded\n", u)
			return
		}
		fmt.Fprintf(t.env.Stderr, "WARN mapreduce.JobEndNotifier: Job end notification to %s failed: %v\n", u, err)
		if i >= attempts {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

func (t *tool) get(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := t.env.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("HTTP %s", resp.Status)
	}
	return nil
}
