package e2e

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/internal/gcbudget"
	"github.com/gozie/gozie/internal/procstat"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server/client"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/yarn"
)

// benchEnv is one in-process server on PostgreSQL with an in-process local
// cluster, for benchmarks that need the server's internals (metrics,
// MiniYARN hooks): a sharedEnv of one server.
type benchEnv struct {
	*sharedEnv
	d      *daemon.Daemon
	client *client.Client
}

func newBenchEnv(b *testing.B, callbacks bool) *benchEnv {
	b.Helper()
	b.Cleanup(gcbudget.Start(context.Background(), gcbudget.DefaultMB<<20)) // as gozie server sets it
	s := newSharedEnv(b, 1, callbacks)
	return &benchEnv{sharedEnv: s, d: s.servers[0], client: s.clients[0]}
}

// runMany submits and starts n workflows of app from `clients` concurrent
// REST clients and returns their ids.
func (e *benchEnv) runMany(b *testing.B, appPath string, n, clients int) []string {
	b.Helper()
	ids, _ := e.submitMany(b, appPath, n, clients, func(int) int { return 0 })
	return ids
}

// runClosedLoop runs n workflows of app with at most k in flight: each of
// k clients submits one, waits for it to end, and submits the next.
func (e *benchEnv) runClosedLoop(b *testing.B, appPath string, n, k int) {
	b.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	errc := make(chan error, k)
	for w := 0; w < k; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for int(next.Add(1)) <= n {
				props := conf.NewProperties("user.name", e.user, "oozie.wf.application.path", appPath)
				id, err := e.client.Submit(context.Background(), props, true)
				if err != nil {
					errc <- err
					return
				}
				for {
					st, err := e.client.JobStatus(context.Background(), id)
					if err != nil {
						errc <- err
						return
					}
					if st == "SUCCEEDED" {
						break
					}
					if st == "KILLED" || st == "FAILED" {
						errc <- fmt.Errorf("%s ended %s", id, st)
						return
					}
					time.Sleep(20 * time.Millisecond) // a client polling its job's status
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		b.Fatal(err)
	}
}

// waitCount waits until count reaches want.
func (e *benchEnv) waitCount(b *testing.B, what string, want int, count func(x store.Tx) (int, error)) {
	b.Helper()
	testwait.Poll{Timeout: 10 * time.Minute, Every: 20 * time.Millisecond}.WaitForLast(b, what, func() (bool, string) {
		var n int
		err := e.d.Store.Tx(context.Background(), func(x store.Tx) (err error) { n, err = count(x); return })
		if err != nil {
			b.Fatal(err)
		}
		return n >= want, fmt.Sprintf("%d of %d", n, want)
	})
}

// rssMB is this process's resident set size in MiB (0 when unknown).
func rssMB() float64 {
	mb, _ := procstat.StatusMB("VmRSS")
	return mb
}

// cpuNow is this process's and the machine's CPU time so far.
func cpuNow(b *testing.B) (process, machine time.Duration) {
	b.Helper()
	process, err := procstat.ProcessCPU()
	if err == nil {
		machine, err = procstat.MachineCPU()
	}
	if err != nil {
		b.Fatal(err)
	}
	return process, machine
}

const oneShellAction = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="starts">
  <start to="a"/>
  <action name="a"><shell xmlns="uri:oozie:shell-action:1.0"><exec>true</exec></shell><ok to="end"/><error to="k"/></action>
  <kill name="k"><message>failed</message></kill><end name="end"/>
</workflow-app>`

// BenchmarkWorkflowStarts measures sustained workflow starts on PostgreSQL
// with MiniYARN: one op is one workflow submitted and started over REST
// (16 concurrent clients) until its first action is submitted to YARN.
// MiniYARN holds the applications in ACCEPTED so that launching containers
// does not compete for the CPU with what is measured. Beside the rate it
// reports the CPU time per workflow of this process (gozie, its clients,
// MiniDFS and MiniYARN) and of the whole machine (PostgreSQL too), which
// vary less than the rate on a shared machine. The wait for the last
// submissions watches MiniYARN's count, then checks the actions in the
// database once they are all there, so that the wait's own reads do not
// load PostgreSQL while the clock runs.
func BenchmarkWorkflowStarts(b *testing.B) {
	e := newBenchEnv(b, true)
	e.cluster.YARN.HoldAccepted(true)
	app := e.app(b, "starts", oneShellAction)
	// One workflow first, so that the one-time staging of the launcher
	// binary on HDFS is not counted.
	e.runMany(b, app, 1, 1)
	e.waitCount(b, "the warm-up action submitted", 1, func(x store.Tx) (int, error) {
		acts, err := x.ListActionsByStatus(context.Background(), []store.ActionStatus{store.ActionRunning}, 10)
		return len(acts), err
	})
	b.ResetTimer()
	start := time.Now()
	cpu0, all0 := cpuNow(b)
	e.runMany(b, app, b.N, 16)
	testwait.Poll{Timeout: 10 * time.Minute, Every: 20 * time.Millisecond}.WaitForLast(b, "YARN applications", func() (bool, string) {
		n := e.cluster.YARN.NumApps()
		return n >= b.N+1, fmt.Sprintf("%d of %d", n, b.N+1)
	})
	e.waitCount(b, "actions submitted to YARN", b.N+1, func(x store.Tx) (int, error) {
		acts, err := x.ListActionsByStatus(context.Background(), []store.ActionStatus{store.ActionRunning}, b.N+10)
		return len(acts), err
	})
	el := time.Since(start)
	cpu, all := cpuNow(b)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/el.Seconds(), "wf/s")
	b.ReportMetric((cpu-cpu0).Seconds()*1000/float64(b.N), "cpu-ms/wf")
	b.ReportMetric((all-all0).Seconds()*1000/float64(b.N), "machine-cpu-ms/wf")
	b.ReportMetric(rssMB(), "RSS-MB")
	if apps := e.cluster.YARN.Apps(); len(apps) != b.N+1 {
		b.Fatalf("%d YARN applications for %d workflows", len(apps), b.N)
	}
}

const twoShellActions = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="pair">
  <start to="a"/>
  <action name="a"><shell xmlns="uri:oozie:shell-action:1.0"><exec>true</exec></shell><ok to="b"/><error to="k"/></action>
  <action name="b"><shell xmlns="uri:oozie:shell-action:1.0"><exec>true</exec></shell><ok to="end"/><error to="k"/></action>
  <kill name="k"><message>failed</message></kill><end name="end"/>
</workflow-app>`

// BenchmarkCallbackToNextLaunch measures how long after an action's
// completion callback the next action is launched on YARN (p50, p99 from
// the server's histogram), running b.N two-action workflows two at a time:
// the engine's reaction, not a CPU saturated by container launches (each
// launcher container is a process start on this small machine).
func BenchmarkCallbackToNextLaunch(b *testing.B) {
	e := newBenchEnv(b, true)
	app := e.app(b, "pair", twoShellActions)
	b.ResetTimer()
	e.runClosedLoop(b, app, b.N, 2)
	b.StopTimer()
	h := histogram(b, e, "gozie_callback_to_next_launch_seconds")
	if h.GetSampleCount() == 0 {
		b.Fatal("no callback was observed")
	}
	b.ReportMetric(quantile(h, 0.5)*1000, "p50-ms")
	b.ReportMetric(quantile(h, 0.99)*1000, "p99-ms")
	b.ReportMetric(float64(h.GetSampleCount()), "callbacks")
}

// BenchmarkPollOnlyToNextLaunch is the same with every callback lost: the
// next launch follows the YARN application's end through the batched poll.
// It reports the gap between the first application's finish and the second
// one's start, as the ResourceManager recorded them.
func BenchmarkPollOnlyToNextLaunch(b *testing.B) {
	e := newBenchEnv(b, false)
	app := e.app(b, "pair", twoShellActions)
	b.ResetTimer()
	e.runClosedLoop(b, app, b.N, 2)
	b.StopTimer()
	apps := e.cluster.YARN.Apps()
	sort.Slice(apps, func(i, j int) bool { return apps[i].StartedTime.Before(apps[j].StartedTime) })
	byJob := map[string][]yarn.AppReport{}
	for _, a := range apps {
		job := a.Name[strings.LastIndex(a.Name, "ID=")+1:] // gozie:launcher:T=..:A=<node>:ID=<job>
		byJob[job] = append(byJob[job], a)
	}
	var gaps []float64
	for _, as := range byJob {
		if len(as) == 2 {
			gaps = append(gaps, float64(as[1].StartedTime.Sub(as[0].FinishedTime).Milliseconds()))
		}
	}
	sort.Float64s(gaps)
	if len(gaps) == 0 {
		b.Fatal("no pairs")
	}
	b.ReportMetric(gaps[len(gaps)/2], "p50-ms")
	b.ReportMetric(gaps[(len(gaps)*99)/100], "p99-ms")
}

func histogram(b *testing.B, e *benchEnv, name string) *dto.Histogram {
	b.Helper()
	mfs, err := e.d.Metrics.Gather()
	if err != nil {
		b.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.GetMetric()) > 0 {
			return mf.GetMetric()[0].GetHistogram()
		}
	}
	b.Fatalf("metric %s not found", name)
	return nil
}

// quantile interpolates the q-quantile from a histogram's buckets.
func quantile(h *dto.Histogram, q float64) float64 {
	total := float64(h.GetSampleCount())
	rank := q * total
	var prevBound, prevCount float64
	for _, bk := range h.GetBucket() {
		c := float64(bk.GetCumulativeCount())
		if c >= rank {
			if c == prevCount {
				return bk.GetUpperBound()
			}
			return prevBound + (bk.GetUpperBound()-prevBound)*(rank-prevCount)/(c-prevCount)
		}
		prevBound, prevCount = bk.GetUpperBound(), c
	}
	return prevBound
}

func benchLog() io.Writer {
	if os.Getenv("GOZIE_BENCH_LOG") != "" {
		return os.Stderr
	}
	return io.Discard
}
