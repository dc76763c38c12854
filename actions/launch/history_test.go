package launch_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
)

// historyServer is a JobHistory server's REST API as HsWebServices answers
// it: GET /ws/v1/history/mapreduce/jobs/{jobid}/counters gives the job's
// JobCounterInfo JSON, an unknown job 404 with a NotFoundException.
type historyServer struct {
	*httptest.Server
	mu       sync.Mutex
	jobs     map[string]string // job id → counter groups JSON
	requests []*http.Request
}

func newHistoryServer(t *testing.T) *historyServer {
	t.Helper()
	h := &historyServer{jobs: map[string]string{}}
	h.Server = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.Close)
	return h
}

func (h *historyServer) serve(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests = append(h.requests, r)
	rest, ok := strings.CutPrefix(r.URL.Path, "/ws/v1/history/mapreduce/jobs/")
	jobID, ok2 := strings.CutSuffix(rest, "/counters")
	groups, known := h.jobs[jobID]
	h.mu.Unlock()
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if !ok || !ok2 {
		http.NotFound(w, r)
		return
	}
	if !known {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"RemoteException":{"exception":"NotFoundException","message":"java.lang.Exception: job, %s, is not found","javaClassName":"org.apache.hadoop.yarn.webapp.NotFoundException"}}`, jobID)
		return
	}
	fmt.Fprintf(w, `{"jobCounters":{"id":%q,"counterGroup":%s}}`, jobID, groups)
}

func (h *historyServer) add(jobID, groups string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.jobs[jobID] = groups
}

func (h *historyServer) seen() []*http.Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*http.Request(nil), h.requests...)
}

// taskCounters is a counterGroup list in the JobHistory server's shape.
const taskCounters = `[{"counterGroupName":"org.apache.hadoop.mapreduce.TaskCounter","counter":[` +
	`{"name":"MAP_INPUT_RECORDS","totalCounterValue":2,"mapCounterValue":2,"reduceCounterValue":0},` +
	`{"name":"REDUCE_INPUT_GROUPS","totalCounterValue":2,"mapCounterValue":0,"reduceCounterValue":2}]},` +
	`{"counterGroupName":"Shuffle Errors","counter":[{"name":"BAD_ID","totalCounterValue":0,"mapCounterValue":0,"reduceCounterValue":0}]}]`

func TestJobHistoryCounters(t *testing.T) {
	t.Parallel()
	h := newHistoryServer(t)
	h.add("job_1700000000000_0007", taskCounters)
	jh, err := launch.NewJobHistory(strings.TrimPrefix(h.URL, "http://"), yarn.PseudoAuth{User: "gozie"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := jh.Counters(hadoop.AsUser(context.Background(), "alice"), "job_1700000000000_0007")
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != "job_1700000000000_0007" || len(c.Groups) != 2 || c.Groups[0].Counters[0] !=
		(launch.Counter{Name: "MAP_INPUT_RECORDS", Total: 2, Map: 2}) {
		t.Errorf("counters %+v", c)
	}
	// As the server, for the job's user.
	q := h.seen()[0].URL.Query()
	if q.Get("user.name") != "gozie" || q.Get("doAs") != "alice" {
		t.Errorf("query %v, want user.name=gozie doAs=alice", q)
	}
	stats, err := launch.MRStats(c)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(stats), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"ACTION_TYPE": "MAP_REDUCE",
		"org.apache.hadoop.mapreduce.TaskCounter": map[string]any{"MAP_INPUT_RECORDS": 2.0, "REDUCE_INPUT_GROUPS": 2.0},
		"Shuffle Errors": map[string]any{"BAD_ID": 0.0}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stats %s, want Oozie's MRStats shape %v", stats, want)
	}

	_, err = jh.Counters(context.Background(), "job_1700000000000_0008")
	if !errors.Is(err, launch.ErrJobNotInHistory) || !strings.Contains(err.Error(), "is not found") {
		t.Errorf("unknown job: %v, want ErrJobNotInHistory with the server's message", err)
	}
}

func TestJobHistoryAddress(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"", "ftp://jhs:19888", "http://"} {
		if _, err := launch.NewJobHistory(addr, nil, nil); err == nil {
			t.Errorf("NewJobHistory(%q) accepted", addr)
		}
	}
}

// A map-reduce run whose job succeeded gets the job's counters from the
// JobHistory server as its Stats, in Oozie's MRStats shape; while the
// server does not know the job yet, Check is a transient error (checked
// again), not an end without counters.
func TestMapReduceActionCollectsCounters(t *testing.T) {
	t.Parallel()
	c, _ := setupTools(t)
	c.put(t, "/user/alice/input-data/text/data.txt", "hello\nworld\n")
	c.put(t, "/user/alice/apps/mr/workflow.xml", "<workflow-app/>")
	h := newHistoryServer(t)
	jh, err := launch.NewJobHistory(h.URL, yarn.PseudoAuth{User: "gozie"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := c.executor(t, "map-reduce", func(cfg *launch.Config) { cfg.JobHistory = jh })
	run := c.run(t, "map-reduce", "mr-node", "/user/alice/apps/mr", mrAction(c, ""))
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	run.ExternalID = st.ExternalID
	job := c.waitJobEnd(t, run)
	jobID := launch.MRJobID(job.ID)

	_, err = e.Check(ctxT(t), run)
	if actions.KindOf(err) != actions.Transient || !errors.Is(err, launch.ErrJobNotInHistory) {
		t.Fatalf("Check before the JobHistory server knows %s: %v, want a transient error", jobID, err)
	}
	h.add(jobID, taskCounters)
	st = c.waitDone(t, e, run)
	if st.Outcome != workflow.OutcomeOK {
		t.Fatalf("status %+v, want OK", st)
	}
	var stats map[string]map[string]any
	if err := json.Unmarshal([]byte(strings.Replace(st.Stats, `"ACTION_TYPE":"MAP_REDUCE",`, "", 1)), &stats); err != nil ||
		!strings.Contains(st.Stats, `"ACTION_TYPE":"MAP_REDUCE"`) ||
		stats["org.apache.hadoop.mapreduce.TaskCounter"]["MAP_INPUT_RECORDS"] != 2.0 {
		t.Errorf("stats %q (%v), want the job's counters in Oozie's shape", st.Stats, err)
	}
	if q := h.seen()[0].URL.Query(); q.Get("doAs") != "alice" {
		t.Errorf("counters asked with %v, want doAs=alice", q)
	}
}

// A map-reduce run whose job failed asks for no counters (Oozie reads them
// only for an OK end).
func TestMapReduceFailedJobHasNoCounters(t *testing.T) {
	t.Parallel()
	c, _ := setupTools(t)
	c.put(t, "/user/alice/input-data/text/data.txt", "x\n")
	c.put(t, "/user/alice/apps/mr/workflow.xml", "<workflow-app/>")
	h := newHistoryServer(t)
	jh, err := launch.NewJobHistory(h.URL, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := c.executor(t, "map-reduce", func(cfg *launch.Config) { cfg.JobHistory = jh })
	run := c.run(t, "map-reduce", "mr-node", "/user/alice/apps/mr", mrAction(c, `<streaming><mapper>false</mapper></streaming>`))
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	run.ExternalID = st.ExternalID
	if st = c.waitDone(t, e, run); st.Outcome != workflow.OutcomeError || st.Stats != "" {
		t.Errorf("status %+v, want ERROR without stats", st)
	}
	if n := len(h.seen()); n != 0 {
		t.Errorf("%d requests to the JobHistory server for a failed job", n)
	}
}

// waitJobEnd waits until the run's launcher and the MapReduce job it
// submitted have both ended, and returns the job's report.
func (c *cluster) waitJobEnd(t *testing.T, run *actions.Attempt) yarn.AppReport {
	t.Helper()
	launcherID, err := yarn.ParseApplicationID(run.ExternalID)
	if err != nil {
		t.Fatal(err)
	}
	c.waitFinal(t, launcherID)
	var jobs []yarn.AppReport
	testwait.WaitForLast(t, waitTimeout, "the job of "+run.ActionID, func() (bool, string) {
		jobs = c.appsTagged(launch.ChildTag(run.Tag))
		return len(jobs) == 1, fmt.Sprintf("%+v", c.rm.Apps())
	})
	return c.waitFinal(t, jobs[0].ID)
}

// laterClock is the real clock moved ahead by an offset the test sets.
type laterClock struct {
	clock.Real
	ahead atomic.Int64 // nanoseconds
}

func (c *laterClock) Now() time.Time { return time.Now().Add(time.Duration(c.ahead.Load())) }

// A JobHistory server that still cannot answer well after the job ended
// (down, or misconfigured) does not hold the action: it ends OK without
// counters, as Oozie's does when it finds none.
func TestMapReduceCountersAreNotWaitedForever(t *testing.T) {
	t.Parallel()
	c, _ := setupTools(t)
	c.put(t, "/user/alice/input-data/text/data.txt", "hello\n")
	c.put(t, "/user/alice/apps/mr/workflow.xml", "<workflow-app/>")
	h := newHistoryServer(t) // never learns of the job
	jh, err := launch.NewJobHistory(h.URL, yarn.PseudoAuth{User: "gozie"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	clk := &laterClock{}
	e := c.executor(t, "map-reduce", func(cfg *launch.Config) { cfg.JobHistory, cfg.Clock = jh, clk })
	run := c.run(t, "map-reduce", "mr-node", "/user/alice/apps/mr", mrAction(c, ""))
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	run.ExternalID = st.ExternalID
	c.waitJobEnd(t, run)
	if _, err := e.Check(ctxT(t), run); actions.KindOf(err) != actions.Transient {
		t.Fatalf("Check right after the job: %v, want a transient error", err)
	}
	clk.ahead.Store(int64(6 * time.Minute))
	st, err = e.Check(ctxT(t), run)
	if err != nil || !st.Done || st.Outcome != workflow.OutcomeOK || st.Stats != "" {
		t.Fatalf("Check well after the job: %+v %v, want OK without stats", st, err)
	}
}
