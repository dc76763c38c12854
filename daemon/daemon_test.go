package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
)

// TestShutdownFinishesInFlightWork cancels the daemon's context (what
// SIGTERM does) while a trigger handler runs, and checks that Run returns
// only after the handler finished and its trigger was released.
func TestShutdownFinishesInFlightWork(t *testing.T) {
	dir := t.TempDir()
	cfg, err := conf.Load(conf.Sources{ConfigDir: dir, LookupEnv: func(string) (string, bool) { return "", false },
		Flags: map[string]string{"gozie.db.url": "sqlite:" + filepath.Join(dir, "gozie.db"), "gozie.data.dir": dir,
			// The periodic purge's trigger would be one more in the queue.
			"gozie.purge.enabled": "false"}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := daemon.Open(ctx, daemon.Options{Config: cfg, Listener: ln})
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	finished := false
	d.Engine.Handle("slow", func(ctx context.Context, r *engine.Claim) error {
		close(entered)
		<-release
		finished = true
		return nil
	})
	if err := d.Store.Tx(ctx, func(x store.Tx) error { return x.Schedule(ctx, "slow", "x", time.Now(), "") }); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	<-entered
	resp, err := http.Get("http://" + ln.Addr().String() + "/oozie/v2/admin/status")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("status while running: %v %v", resp, err)
	}
	resp.Body.Close()
	// The admin endpoints see the handler's trigger and this server.
	base := "http://" + ln.Addr().String() + "/oozie/v2/admin/"
	var dump struct{ QueueDump []map[string]string }
	getJSON(t, base+"queue-dump", &dump)
	if len(dump.QueueDump) != 1 || !strings.HasPrefix(dump.QueueDump[0]["queueItem"], "slow x due ") {
		t.Errorf("queue dump %+v", dump)
	}
	testwait.Poll{Timeout: 10 * time.Second, Every: 10 * time.Millisecond}.WaitForLast(t,
		"available-oozie-servers to list "+d.Engine.Owner(), func() (bool, string) {
			var servers map[string]string
			getJSON(t, base+"available-oozie-servers", &servers)
			return servers[d.Engine.Owner()] == cfg.BaseURL, fmt.Sprint(servers)
		})

	cancel() // SIGTERM
	select {
	case err := <-done:
		t.Fatalf("Run returned (%v) while a handler was still running", err)
	case <-time.After(100 * time.Millisecond): // bounded check that Run still waits
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !finished {
		t.Fatal("handler did not finish")
	}
	// The store is closed by Run; reopen it to check the release landed.
	d2, err := daemon.Open(context.Background(), daemon.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Store.Close()
	var n int
	if err := d2.Store.Tx(context.Background(), func(x store.Tx) (err error) { n, err = x.CountTriggers(context.Background()); return }); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d triggers left: the in-flight handler's release was lost", n)
	}
}

// getJSON GETs u and decodes its 200 JSON body into v.
func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s", u, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}

// TestMetricsShowTheConnectionPool: the daemon's registry carries the
// store's connection-pool statistics (go_sql_*, db_name="gozie").
func TestMetricsShowTheConnectionPool(t *testing.T) {
	t.Parallel()
	d := openFull(t)
	mfs, err := d.Metrics.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "go_sql_max_open_connections" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "db_name" && l.GetValue() == "gozie" && m.GetGauge().GetValue() == 1 {
					return // SQLite's one connection
				}
			}
		}
		t.Fatalf("go_sql_max_open_connections: %v", mf.GetMetric())
	}
	t.Fatal("no go_sql_max_open_connections among the daemon's metrics")
}
