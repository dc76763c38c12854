package hive2_test

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/beltran/gohive"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/minihs2"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
)

// benchEnv is a MiniDFS and a MiniHS2 for benchmarks.
type benchEnv struct {
	fs  hadoop.FileSystem
	nn  string
	hs2 *minihs2.Server
	seq atomic.Int64
}

func newBenchEnv(b *testing.B) *benchEnv {
	b.Helper()
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: b.TempDir(), Conf: minidfs.ProxyUserConf(osUser(b))})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { dfs.Close() })
	if err := dfs.CreateHome("bench"); err != nil {
		b.Fatal(err)
	}
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { fs.Close() })
	hs2, err := minihs2.Start(context.Background(), minihs2.Options{FS: fs})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { hs2.Close() })
	return &benchEnv{fs: fs, nn: dfs.URI(), hs2: hs2}
}

// noopRun is a new run of a hive2 action whose one statement is SELECT 1,
// with a Notify that signals done.
func (e *benchEnv) noopRun(done chan<- struct{}) *actions.Attempt {
	n := e.seq.Add(1)
	job := fmt.Sprintf("%07d-250101000000000-gozie-W", n)
	key := job + "@noop#0.0"
	return &actions.Attempt{
		ActionID: job + "@noop", JobID: job, Node: "noop", Type: "hive2", Key: key, Tag: yarn.ActionTag(key),
		User: "bench", AppPath: e.nn + "/user/bench/apps/noop", Body: body(e.hs2.JDBCURL(""), query("SELECT 1")),
		ActionDir: e.nn + "/user/bench/gozie-sys/" + job + "/noop--hive2/0.0",
		Notify:    func() { done <- struct{}{} },
	}
}

// runAction runs one action to its end: Start, the end notice, Check.
func (e *benchEnv) runAction(ex *hive2.Executor) error {
	done := make(chan struct{}, 1)
	run := e.noopRun(done)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := ex.Start(ctx, run); err != nil {
		return err
	}
	select {
	case <-done:
	case <-ctx.Done():
		return fmt.Errorf("the action did not end")
	}
	st, err := ex.Check(ctx, run)
	if err != nil || !st.Done || st.Outcome != workflow.OutcomeOK {
		return fmt.Errorf("Check: %+v, %v", st, err)
	}
	return nil
}

// noopStatement is the same statement without gozie: one session, SELECT 1
// polled tightly, close. It is the floor an action's latency is compared to.
func (e *benchEnv) noopStatement(b *testing.B) {
	host, port, _ := net.SplitHostPort(e.hs2.Addr())
	p, _ := strconv.Atoi(port)
	cfg := gohive.NewConnectConfiguration()
	cfg.Username, cfg.PollIntervalInMillis = "bench", 1
	conn, err := gohive.Connect(host, p, "NONE", cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	cur := conn.Cursor()
	defer cur.Close()
	cur.Exec(context.Background(), "SELECT 1")
	if cur.Err != nil {
		b.Fatal(cur.Err)
	}
}

// BenchmarkHive2NoopStatement is SELECT 1 on MiniHS2 through gohive alone:
// session, statement, close.
func BenchmarkHive2NoopStatement(b *testing.B) {
	e := newBenchEnv(b)
	for b.Loop() {
		e.noopStatement(b)
	}
}

// BenchmarkHive2Action runs hive2 actions of one SELECT 1 statement one
// after the other, each to its recorded end, and reports actions per second
// and the overhead per action over the bare statement
// (BenchmarkHive2NoopStatement's work, measured in the same run): the
// executor's records on HDFS, its status polls and its session handling.
// poll=default is the server's configuration; poll=10ms shows how much of
// the overhead is the poll interval.
func BenchmarkHive2Action(b *testing.B) {
	for _, tc := range []struct {
		name string
		poll time.Duration
	}{{"poll=default", 0}, {"poll=10ms", 10 * time.Millisecond}} {
		b.Run(tc.name, func(b *testing.B) {
			e := newBenchEnv(b)
			ex, err := hive2.New(hive2.Config{FS: e.fs, PollInterval: tc.poll})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { ex.Close() })
			const baselineRuns = 20
			start := time.Now()
			for range baselineRuns {
				e.noopStatement(b)
			}
			baseline := time.Since(start) / baselineRuns
			// Warm up: the first session and directories.
			if err := e.runAction(ex); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			start = time.Now()
			for b.Loop() {
				if err := e.runAction(ex); err != nil {
					b.Fatal(err)
				}
			}
			elapsed := time.Since(start)
			per := elapsed / time.Duration(b.N)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "actions/s")
			b.ReportMetric(float64(per-baseline)/float64(time.Millisecond), "overhead-ms/action")
			b.ReportMetric(float64(baseline)/float64(time.Millisecond), "noop-statement-ms")
		})
	}
}

// BenchmarkHive2ActionsParallel runs SELECT 1 actions from 8 goroutines at
// once with the server's configuration and reports the throughput.
func BenchmarkHive2ActionsParallel(b *testing.B) {
	e := newBenchEnv(b)
	ex, err := hive2.New(hive2.Config{FS: e.fs})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ex.Close() })
	b.SetParallelism(8)
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := e.runAction(ex); err != nil {
				b.Error(err) // not Fatal: this is not the benchmark's goroutine
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "actions/s")
}
