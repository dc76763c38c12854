package metastore_test

import (
	"context"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/beltran/gohive"
	hms "github.com/beltran/gohive/hive_metastore"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hcat/metastore"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/minihs2"
)

type env struct {
	hs2  *minihs2.Server
	ms   *minihs2.Metastore
	conn *gohive.Connection
	node string // hcat://host:port
}

func setup(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	dfs, err := minidfs.Start(ctx, minidfs.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	hs2, err := minihs2.Start(ctx, minihs2.Options{FS: fs, Warehouse: "/wh"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hs2.Close() })
	ms, err := minihs2.StartMetastore(ctx, minihs2.MetastoreOptions{Hive: hs2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ms.Close() })
	host, port, _ := net.SplitHostPort(hs2.Addr())
	p, _ := strconv.Atoi(port)
	cfg := gohive.NewConnectConfiguration()
	cfg.Username, cfg.Password, cfg.PollIntervalInMillis = "carol", "x", 10
	conn, err := gohive.Connect(host, p, "NONE", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	e := &env{hs2: hs2, ms: ms, conn: conn, node: "hcat://" + ms.Addr()}
	e.exec(t, "CREATE TABLE invites (foo INT) PARTITIONED BY (ds STRING, region STRING)")
	return e
}

func (e *env) exec(t *testing.T, sql string) {
	t.Helper()
	cur := e.conn.Cursor()
	defer cur.Close()
	cur.Exec(context.Background(), sql)
	if cur.Err != nil {
		t.Fatalf("%s: %v", sql, cur.Err)
	}
}

func newDatasets(t *testing.T) *metastore.Datasets {
	t.Helper()
	cl, err := metastore.New(metastore.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return metastore.NewDatasets(cl, time.Hour, nil)
}

// TestExists: a partition exists once added, asked as the context's user
// (set_ugi); a partial specification matches any partition it covers; an
// unknown table is an error, not a missing partition.
func TestExists(t *testing.T) {
	t.Parallel()
	e := setup(t)
	d := newDatasets(t)
	ctx := hadoop.AsUser(context.Background(), "alice")
	uri := e.node + "/default/invites/ds=2010-01-01;region=us"
	if ok, err := d.Exists(ctx, uri); err != nil || ok {
		t.Fatalf("before: %v, %v", ok, err)
	}
	if w := d.Watched(); !slices.Equal(w, []string{uri}) {
		t.Errorf("watched %v", w)
	}
	e.exec(t, "ALTER TABLE invites ADD PARTITION (ds='2010-01-01', region='us')")
	for _, u := range []string{uri, e.node + "/default/invites/ds=2010-01-01", e.node + "/DEFAULT/Invites/region=us"} {
		if ok, err := d.Exists(ctx, u); err != nil || !ok {
			t.Errorf("%s: %v, %v", u, ok, err)
		}
	}
	if w := d.Watched(); len(w) != 0 {
		t.Errorf("still watched after existing: %v", w)
	}
	calls := e.ms.Calls()
	if !slices.Contains(calls, minihs2.MetastoreCall{Method: "get_partitions_by_filter", User: "alice"}) {
		t.Errorf("calls %v, want get_partitions_by_filter as alice", calls)
	}
	if _, err := d.Exists(ctx, e.node+"/default/nosuch/ds=1"); err == nil || !strings.Contains(err.Error(), "hive.default.nosuch table not found") {
		t.Errorf("unknown table: %v", err)
	}
	if _, err := d.Exists(ctx, e.node+"/default/invites"); err == nil || !strings.Contains(err.Error(), "URI path is not in expected format") {
		t.Errorf("bad URI: %v", err)
	}
}

// TestPartitionAddedWakes: a watched URI is notified by the first poll
// after its partition is added, through HiveServer2 or the metastore, and
// only then; other partitions' events wake nothing.
func TestPartitionAddedWakes(t *testing.T) {
	t.Parallel()
	e := setup(t)
	d := newDatasets(t)
	var mu sync.Mutex
	var woken []string
	d.SetNotify(func(_ context.Context, uri string) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		woken = append(woken, uri)
		return 1, nil
	})
	got := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(woken)
	}
	ctx := hadoop.AsUser(context.Background(), "alice")
	us := e.node + "/default/invites/ds=2010-01-01;region=us"
	eu := e.node + "/default/invites/ds=2010-01-01;region=eu"
	for _, u := range []string{us, eu} {
		if ok, err := d.Exists(ctx, u); err != nil || ok {
			t.Fatalf("%s: %v, %v", u, ok, err)
		}
	}
	e.exec(t, "ALTER TABLE invites ADD PARTITION (ds='2010-01-02', region='us')")
	d.Poll(ctx)
	if w := got(); len(w) != 0 {
		t.Fatalf("another partition woke %v", w)
	}
	e.exec(t, "INSERT INTO invites PARTITION (ds='2010-01-01', region='us') VALUES (1)")
	d.Poll(ctx)
	if w := got(); !slices.Equal(w, []string{us}) {
		t.Fatalf("woken %v, want %s", w, us)
	}
	d.Poll(ctx)
	if w := got(); len(w) != 1 {
		t.Fatalf("woken twice: %v", w)
	}
	if w := d.Watched(); !slices.Equal(w, []string{eu}) {
		t.Errorf("watched %v", w)
	}
	// A partition added through the metastore's own API wakes too.
	host, port, _ := net.SplitHostPort(e.ms.Addr())
	p, _ := strconv.Atoi(port)
	mc, err := gohive.ConnectToMetastore(host, p, "NOSASL", gohive.NewMetastoreConnectConfiguration())
	if err != nil {
		t.Fatal(err)
	}
	defer mc.Close()
	if _, err := mc.Client.AddPartition(ctx, &hms.Partition{DbName: "default", TableName: "invites", Values: []string{"2010-01-01", "eu"}}); err != nil {
		t.Fatal(err)
	}
	d.Poll(ctx)
	if w := got(); !slices.Equal(w, []string{us, eu}) {
		t.Fatalf("woken %v, want %s then %s", w, us, eu)
	}
}

// TestRunPolls: Run polls on its own until its context ends.
func TestRunPolls(t *testing.T) {
	t.Parallel()
	e := setup(t)
	cl, err := metastore.New(metastore.Config{})
	if err != nil {
		t.Fatal(err)
	}
	d := metastore.NewDatasets(cl, 10*time.Millisecond, nil)
	woken := make(chan string, 1)
	d.SetNotify(func(_ context.Context, uri string) (int, error) { woken <- uri; return 1, nil })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	uri := e.node + "/default/invites/ds=2010-01-03;region=us"
	if ok, err := d.Exists(hadoop.AsUser(ctx, "alice"), uri); err != nil || ok {
		t.Fatalf("%v, %v", ok, err)
	}
	e.exec(t, "ALTER TABLE invites ADD PARTITION (ds='2010-01-03', region='us')")
	select {
	case u := <-woken:
		if u != uri {
			t.Errorf("woken %s", u)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no notification")
	}
}
