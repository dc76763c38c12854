package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/user"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server/client"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres/pgtest"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/workflow/wfrun"
)

// sharedEnv is several in-process servers on one PostgreSQL database and one local
// cluster, as DESIGN.md's "many servers, one PostgreSQL" runs them: each has its own
// engine (its own lease owner), REST listener and callback URL. Without callbacks
// the servers' callback URL is refused at once, so completion is seen by polling only.
type sharedEnv struct {
	servers []*daemon.Daemon
	clients []*client.Client
	cluster *localcluster.Cluster
	dir     string
	user    string
}

func newSharedEnv(b *testing.B, n int, callbacks bool) *sharedEnv {
	b.Helper()
	ctx := context.Background()
	dir := b.TempDir()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: dir, Env: map[string]string{"PATH": os.Getenv("PATH")}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	// The jobs run as the servers' own user: the local cluster lets it act as itself.
	u, err := user.Current()
	if err != nil {
		b.Fatal(err)
	}
	e := &sharedEnv{cluster: c, dir: dir, user: u.Username}
	db := pgtest.NewDatabase(b)
	p := c.Properties()
	for i := 0; i < n; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		base := "http://" + ln.Addr().String() + "/oozie"
		callback := base + "/callback"
		if !callbacks {
			callback = "http://127.0.0.1:1/oozie/callback"
		}
		cfg, err := conf.Load(conf.Sources{ConfigDir: b.TempDir(), LookupEnv: func(string) (string, bool) { return "", false },
			Flags: map[string]string{"gozie.db.url": db, "gozie.data.dir": b.TempDir(),
				"gozie.callback.base.url": callback, "gozie.actions.default.name-node": p["nameNode"],
				"gozie.actions.default.resource-manager": p["resourceManager"], "gozie.engine.workers": "32"}})
		if err != nil {
			b.Fatal(err)
		}
		log := slog.New(slog.NewTextHandler(benchLog(), &slog.HandlerOptions{Level: slog.LevelDebug})).With("server", i)
		d, err := daemon.Open(ctx, daemon.Options{Config: cfg, Listener: ln, LauncherBinary: binary, Logger: log})
		if err != nil {
			b.Fatal(err)
		}
		runCtx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- d.Run(runCtx) }()
		b.Cleanup(func() { cancel(); <-done })
		tr, err := client.NewAuthTransport(client.Auth{User: e.user})
		if err != nil {
			b.Fatal(err)
		}
		cl, err := client.New(base, &http.Client{Transport: tr})
		if err != nil {
			b.Fatal(err)
		}
		e.servers, e.clients = append(e.servers, d), append(e.clients, cl)
	}
	return e
}

// app writes a workflow app into the DFS root and returns its URI.
func (e *sharedEnv) app(b *testing.B, name, xml string) string {
	b.Helper()
	d := filepath.Join(e.dir, "dfs", "user", e.user, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "workflow.xml"), []byte(xml), 0o644); err != nil {
		b.Fatal(err)
	}
	return e.cluster.Properties()["nameNode"] + "/user/" + e.user + "/" + name
}

// submitMany submits and starts n workflows of app from `clients` concurrent REST
// clients; the i-th submission goes to the server to(i). It returns the ids, in
// submission order, and how many each server took.
func (e *sharedEnv) submitMany(b *testing.B, appPath string, n, clients int, to func(i int) int) ([]string, []int) {
	b.Helper()
	ids := make([]string, n)
	taken := make([]atomic.Int64, len(e.servers))
	var next atomic.Int64
	var wg sync.WaitGroup
	errc := make(chan error, clients)
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				s := to(i)
				props := conf.NewProperties("user.name", e.user, "oozie.wf.application.path", appPath)
				id, err := e.clients[s].Submit(context.Background(), props, true)
				if err != nil {
					errc <- fmt.Errorf("server %d: %w", s, err)
					return
				}
				ids[i] = id
				taken[s].Add(1)
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		b.Fatal(err)
	}
	out := make([]int, len(taken))
	for i := range taken {
		out[i] = int(taken[i].Load())
	}
	return ids, out
}

// running counts the workflow actions submitted to YARN.
func (e *sharedEnv) running(b *testing.B) int {
	b.Helper()
	var n int
	err := e.servers[0].Store.Tx(context.Background(), func(x store.Tx) error {
		acts, err := x.ListActionsByStatus(context.Background(), []store.ActionStatus{store.ActionRunning}, 1<<30)
		n = len(acts)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// triggers sums a server's handled triggers (every outcome) of one kind, or of every
// kind when kind is empty, from its engine's metrics.
func (e *sharedEnv) triggers(b *testing.B, server int, kind store.TriggerKind) float64 {
	b.Helper()
	mfs, err := e.servers[server].Metrics.Gather()
	if err != nil {
		b.Fatal(err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() != "gozie_triggers_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "kind" && (kind == "" || l.GetValue() == string(kind)) {
					sum += m.GetCounter().GetValue()
				}
			}
		}
	}
	return sum
}

// BenchmarkTwoServers runs two servers on one PostgreSQL database and one local
// cluster and shares a load of one-shell-action workflows between them: one op is
// one workflow submitted and started over REST (16 concurrent clients) until its
// action is submitted to YARN (held ACCEPTED, as in BenchmarkWorkflowStarts). In
// round-robin the clients alternate between the servers, as behind a load balancer;
// in one-door every submission goes to server 0, so that server 1's share is engine
// work it claimed from the shared trigger table. It reports the combined rate
// (wf/s), the submissions each server answered, and the share of each server in the
// action starts (wf-action-start triggers) and in all triggers handled.
func BenchmarkTwoServers(b *testing.B) {
	for _, c := range []struct {
		name string
		to   func(i int) int
	}{
		{"round-robin", func(i int) int { return i % 2 }},
		{"one-door", func(int) int { return 0 }},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := newSharedEnv(b, 2, true)
			e.cluster.YARN.HoldAccepted(true)
			app := e.app(b, "starts", oneShellAction)
			// Warm-up: the one-time staging of the launcher on HDFS is not counted.
			e.submitMany(b, app, 2, 2, func(i int) int { return i % 2 })
			e.waitRunning(b, 2)
			var starts0, all0 [2]float64
			for s := range 2 {
				starts0[s], all0[s] = e.triggers(b, s, wfrun.KindActionStart), e.triggers(b, s, "")
			}
			b.ResetTimer()
			start := time.Now()
			_, taken := e.submitMany(b, app, b.N, 16, c.to)
			e.waitRunning(b, b.N+2)
			el := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(b.N)/el.Seconds(), "wf/s")
			var starts, all [2]float64
			for s := range 2 {
				starts[s] = e.triggers(b, s, wfrun.KindActionStart) - starts0[s]
				all[s] = e.triggers(b, s, "") - all0[s]
				b.ReportMetric(float64(taken[s]), fmt.Sprintf("submits-s%d", s))
			}
			for s := range 2 {
				b.ReportMetric(100*starts[s]/max(1, starts[0]+starts[1]), fmt.Sprintf("%%starts-s%d", s))
				b.ReportMetric(100*all[s]/max(1, all[0]+all[1]), fmt.Sprintf("%%triggers-s%d", s))
			}
			if apps := e.cluster.YARN.Apps(); len(apps) != b.N+2 {
				b.Fatalf("%d YARN applications for %d workflows", len(apps), b.N+2)
			}
		})
	}
}

// waitRunning waits until want actions have been submitted to YARN.
func (e *sharedEnv) waitRunning(b *testing.B, want int) {
	b.Helper()
	testwait.Poll{Timeout: 10 * time.Minute, Every: 20 * time.Millisecond}.WaitForLast(b, "actions submitted to YARN",
		func() (bool, string) {
			n := e.running(b)
			return n >= want, fmt.Sprintf("%d of %d", n, want)
		})
}
