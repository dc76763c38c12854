package editwatch

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
	"github.com/gozie/gozie/testenv/minidfs"
)

// notifier records the URIs notified.
type notifier struct {
	mu   sync.Mutex
	uris []string
}

func (n *notifier) Notify(_ context.Context, uri string) (int, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.uris = append(n.uris, uri)
	return 1, nil
}

func (n *notifier) got() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.uris)
}

// countingStream counts the reads of a Stream.
type countingStream struct {
	Stream
	reads atomic.Int64
}

func (c *countingStream) EditsFromTxid(ctx context.Context, txid int64) (hadoop.EditBatch, error) {
	c.reads.Add(1)
	return c.Stream.EditsFromTxid(ctx, txid)
}

// logs records the messages logged.
type logs struct {
	mu   sync.Mutex
	msgs []string
}

func (l *logs) Enabled(context.Context, slog.Level) bool { return true }
func (l *logs) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, r.Level.String()+" "+r.Message)
	return nil
}
func (l *logs) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logs) WithGroup(string) slog.Handler      { return l }
func (l *logs) has(prefix string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.ContainsFunc(l.msgs, func(m string) bool { return strings.HasPrefix(m, prefix) })
}

// env is a MiniDFS (gozie its superuser), a store, and a Resolver per user.
type env struct {
	dfs *minidfs.MiniDFS
	st  store.Store
	fs  string
}

func setup(t *testing.T) *env {
	t.Helper()
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), BlockSize: 64 << 10, Superuser: "gozie"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &env{dfs: m, st: st, fs: strings.TrimSuffix(m.URI(), "/")}
}

// stream is user's edit stream of the cluster.
func (e *env) stream(t *testing.T, user string) *hadoop.EditStream {
	t.Helper()
	s, err := e.resolver(t, user).EditStream(e.fs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func (e *env) resolver(t *testing.T, user string) *hadoop.Resolver {
	t.Helper()
	r, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: e.dfs.URI(), Conf: e.dfs.ClientConf(), User: user})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// wait makes action C1@<n> wait on each of uris (one action per URI).
func (e *env) wait(t *testing.T, uris ...string) {
	t.Helper()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err := e.st.Tx(context.Background(), func(x store.Tx) error {
		j := store.CoordJob{ID: "C1", Status: store.JobRunning, ExecutionOrder: "FIFO", CreatedTime: t0}
		if err := x.InsertCoordJob(context.Background(), &j); err != nil {
			return err
		}
		for i, u := range uris {
			a := store.CoordAction{ID: fmt.Sprintf("C1@%d", i+1), JobID: "C1", ActionNumber: i + 1,
				Status: store.CoordActionWaiting, NominalTime: t0, CreatedTime: t0, LastModified: t0}
			if err := x.InsertCoordAction(context.Background(), &a); err != nil {
				return err
			}
			if err := x.SetCoordWaits(context.Background(), a.ID, []string{u}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (e *env) watcher(t *testing.T, stream Stream, n Notifier, owner string, log slog.Handler) *Watcher {
	t.Helper()
	if log == nil {
		log = slog.DiscardHandler
	}
	w, err := New(Config{FS: e.fs, Store: e.st, Stream: stream, Notifier: n, Owner: owner, Logger: slog.New(log),
		Interval: 5 * time.Millisecond, RefusedRetry: time.Hour, Lease: time.Minute, RecordEvery: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return w
}

func (e *env) position(t *testing.T) (int64, error) {
	t.Helper()
	var pos int64
	err := e.st.Tx(context.Background(), func(x store.Tx) (err error) {
		pos, err = x.GetStreamPosition(context.Background(), "edits "+e.fs)
		return err
	})
	return pos, err
}

// TestWakesWaitedDatasets: a done-flag written (under a temporary name,
// then renamed) and an instance directory made (an empty done-flag) wake
// the actions waiting on them, through the notifier; a file nobody waits
// on wakes nothing; the position recorded is the last transaction read.
func TestWakesWaitedDatasets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := setup(t)
	flag, dir := e.fs+"/data/day1/_SUCCESS", e.fs+"/data/day2"
	e.wait(t, flag, dir)
	gozie := e.resolver(t, "gozie")
	n := &notifier{}
	e.watcher(t, e.stream(t, "gozie"), n, "server-1", nil)
	testwait.WaitFor(t, 10*time.Second, "the watcher to start", func() bool { _, err := e.position(t); return err == nil })
	if err := gozie.WriteFile(ctx, "/data/other/_SUCCESS", []byte{}, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := gozie.WriteFile(ctx, "/data/day1/_SUCCESS", []byte{}, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := gozie.MkdirAll(ctx, "/data/day2", 0o755); err != nil {
		t.Fatal(err)
	}
	last := e.dfs.LastTxid()
	testwait.WaitFor(t, 10*time.Second, "both datasets notified", func() bool {
		got := n.got()
		return slices.Contains(got, flag) && slices.Contains(got, dir)
	})
	testwait.WaitFor(t, 10*time.Second, "the position to reach the last transaction", func() bool {
		pos, err := e.position(t)
		return err == nil && pos == last
	})
	if got := n.got(); len(got) != 2 {
		t.Errorf("notified %v, want only %s and %s", got, flag, dir)
	}
}

// TestResumesFromTheRecordedPosition: a watcher goes on from the position
// in the store: the events after it wake their actions, those before it
// (handled by an earlier reader) do not.
func TestResumesFromTheRecordedPosition(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := setup(t)
	before, after := e.fs+"/in/before", e.fs+"/in/after"
	e.wait(t, before, after)
	gozie := e.resolver(t, "gozie")
	if err := gozie.MkdirAll(ctx, "/in/before", 0o755); err != nil {
		t.Fatal(err)
	}
	pos := e.dfs.LastTxid()
	if err := gozie.MkdirAll(ctx, "/in/after", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := e.st.Tx(ctx, func(x store.Tx) error { return x.SetStreamPosition(ctx, "edits "+e.fs, pos) }); err != nil {
		t.Fatal(err)
	}
	n := &notifier{}
	e.watcher(t, e.stream(t, "gozie"), n, "server-1", nil)
	testwait.WaitFor(t, 10*time.Second, "the later directory notified", func() bool { return slices.Contains(n.got(), after) })
	if slices.Contains(n.got(), before) {
		t.Errorf("notified %v: the event before the recorded position was handled again", n.got())
	}
}

// TestRefusedFallsBackToPolling: a server that is not an HDFS superuser is
// refused the stream; the watcher says so once, in the log, records no
// position and wakes nothing (the input checks' polling goes on).
func TestRefusedFallsBackToPolling(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.wait(t, e.fs+"/x")
	n, l := &notifier{}, &logs{}
	e.watcher(t, e.stream(t, "bob"), n, "server-1", l)
	testwait.WaitFor(t, 10*time.Second, "the refusal logged", func() bool {
		return l.has("WARN the NameNode refuses its edit stream")
	})
	if err := e.resolver(t, "gozie").MkdirAll(context.Background(), "/x", 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := e.position(t); err == nil {
		t.Error("a refused watcher recorded a position")
	}
	if got := n.got(); len(got) != 0 {
		t.Errorf("a refused watcher notified %v", got)
	}
}

// TestOneReaderAtATime: of two servers, only the lease holder reads the
// stream; the other never asks the NameNode while the lease lasts.
func TestOneReaderAtATime(t *testing.T) {
	t.Parallel()
	e := setup(t)
	first, second := &countingStream{Stream: e.stream(t, "gozie")}, &countingStream{Stream: e.stream(t, "gozie")}
	e.watcher(t, first, &notifier{}, "server-1", nil)
	testwait.WaitFor(t, 10*time.Second, "the first server reading", func() bool { return first.reads.Load() > 3 })
	e.watcher(t, second, &notifier{}, "server-2", nil)
	start := first.reads.Load()
	testwait.WaitFor(t, 10*time.Second, "the first server reading on", func() bool { return first.reads.Load() > start+10 })
	if n := second.reads.Load(); n != 0 {
		t.Errorf("the second server read the stream %d times while the first held the lease", n)
	}
}

// TestCandidates: closed files, rename destinations and directories made
// are candidates, once each, as URIs below the filesystem; file creations,
// deletes and metadata changes are not.
func TestCandidates(t *testing.T) {
	t.Parallel()
	events := []hadoop.EditEvent{
		{Type: hadoop.EditCreate, Path: "/d/_SUCCESS"},
		{Type: hadoop.EditClose, Path: "/d/_SUCCESS"},
		{Type: hadoop.EditRename, Path: "/tmp/x", Dest: "/d/x"},
		{Type: hadoop.EditCreate, Path: "/d/new", Dir: true},
		{Type: hadoop.EditUnlink, Path: "/d/gone"},
		{Type: hadoop.EditMetadata, Path: "/d/meta"},
		{Type: hadoop.EditClose, Path: "/d/_SUCCESS"},
	}
	got := Candidates("hdfs://nn", events)
	want := []string{"hdfs://nn/d/_SUCCESS", "hdfs://nn/d/x", "hdfs://nn/d/new"}
	if !slices.Equal(got, want) {
		t.Errorf("candidates %v, want %v", got, want)
	}
}
