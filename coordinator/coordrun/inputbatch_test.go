package coordrun

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres/pgtest"
)

// TestInputChecksBatched: many due input checks of many jobs' actions are
// handed to one call of the batch handler, read in one transaction and
// decided in one: with the data missing (nothing written) and with it found
// (every action READY).
func TestInputChecksBatched(t *testing.T) {
	t.Parallel()
	const jobs = 40
	var batches, reads, writes atomic.Int64
	hook := func(point string) {
		switch point {
		case hookInputCheckBatch:
			batches.Add(1)
		case hookInputCheckRead:
			reads.Add(1)
		case hookInputCheckTx:
			writes.Add(1)
		}
	}
	t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	w := setup(t, options{now: t0.Add(time.Minute), testHook: hook})
	app := w.app("batched", feedCoordXML("${coord:days(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z",
		"<concurrency>0</concurrency>"))
	for i := 0; i < jobs; i++ {
		w.submit(w.props(app, "feed", fmt.Sprintf("feed%04d", i)))
	}
	w.settle()
	if n := w.countActionsIn(store.CoordActionWaiting); n != jobs {
		t.Fatalf("%d actions waiting, want %d", n, jobs)
	}
	for _, found := range []bool{false, true} {
		if found {
			for i := 0; i < jobs; i++ {
				w.touch(feedURI(w, fmt.Sprintf("feed%04d", i), t0) + "/_SUCCESS")
			}
		}
		batches.Store(0)
		reads.Store(0)
		writes.Store(0)
		w.advance(time.Minute) // past every action's next check: all due at once
		if b, r, x := batches.Load(), reads.Load(), writes.Load(); b != 1 || r != 1 || x != 1 {
			t.Fatalf("found=%v: %d checks took %d batches, %d read and %d write transactions; want 1, 1, 1",
				found, jobs, b, r, x)
		}
		want := store.CoordActionWaiting
		if found {
			want = store.CoordActionReady
		}
		if n := w.countActionsIn(want); n != jobs {
			t.Fatalf("found=%v: %d actions %s, want %d", found, n, want, jobs)
		}
	}
}

// TestInputCheckParsesOnce: an action checked again and again is parsed
// once: its document stays in the cache across checks.
func TestInputCheckParsesOnce(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	w := setup(t, options{now: t0.Add(time.Minute)})
	app := w.app("once", feedCoordXML("${coord:days(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z", ""))
	w.submit(w.props(app, "feed", "a"))
	w.settle()
	for i := 0; i < 5; i++ {
		w.advance(time.Minute)
	}
	if n := w.coords.docs.len(); n != 1 {
		t.Fatalf("%d documents parsed for one waiting action, want 1", n)
	}
}

// TestTimeoutCheckedAtTheDeadline: a waiting action's next check is never
// booked after its timeout deadline, so the check itself times it out on
// time, and materialization arms no coord-timeout trigger that would fire
// to find nothing to do.
func TestTimeoutCheckedAtTheDeadline(t *testing.T) {
	t.Parallel()
	start := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	w := setup(t, options{now: start})
	app := w.app("deadline", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T01:00Z",
		"<timeout>10</timeout>", true))
	id := w.submit(w.props(app))
	w.settle()
	a1 := ActionIDOf(id, 1)
	if due, ok := w.triggerDue(KindTimeout, id); ok {
		t.Fatalf("a coord-timeout trigger is armed at %v; the input checks reach the deadline", due)
	}
	deadline := start.Add(11 * time.Minute)
	// Checked at 10:30, the backoff (60 s) would ask for 11:30.
	w.advance(10*time.Minute + 30*time.Second)
	if due, ok := w.triggerDue(KindInputCheck, a1); !ok || !due.Equal(deadline) {
		t.Fatalf("next input check due at %v (%v), want the deadline %v", due, ok, deadline)
	}
	if a := w.action(a1); a.Status != store.CoordActionWaiting {
		t.Fatalf("before its deadline the action is %s, want WAITING", a.Status)
	}
	w.advance(30 * time.Second)
	w.waitActionStatus(a1, store.CoordActionTimedOut)
}

// countingFS counts the filesystem calls of lookUpAll and can refuse the
// listing of a directory.
type countingFS struct {
	hadoop.FileSystem
	mu      sync.Mutex
	stats   map[string]int
	lists   map[string]int
	refused map[string]bool
}

func (c *countingFS) Stat(ctx context.Context, p string) (hadoop.FileInfo, error) {
	c.mu.Lock()
	c.stats[p]++
	c.mu.Unlock()
	return c.FileSystem.Stat(ctx, p)
}

func (c *countingFS) ReadDir(ctx context.Context, p string) ([]hadoop.FileInfo, error) {
	c.mu.Lock()
	c.lists[p]++
	refused := c.refused[p]
	c.mu.Unlock()
	if refused {
		return nil, &fs.PathError{Op: "listStatus", Path: p, Err: fs.ErrPermission}
	}
	return c.FileSystem.ReadDir(ctx, p)
}

func (c *countingFS) calls() (stats, lists int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.stats {
		stats += n
	}
	for _, n := range c.lists {
		lists += n
	}
	return stats, lists
}

// TestLookUpAllLists: URIs that share a directory are answered by one
// listing of it; done-flags in sibling instance directories by one listing
// of their parent, and a lookup only in the directories that exist; a
// listing refused is not an answer, each URI is then looked up itself.
func TestLookUpAllLists(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "file:///"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	uri := func(p string) string { return "file://" + filepath.ToSlash(filepath.Join(root, p)) }
	for _, p := range []string{"flat/a", "flat/c", "feed/d1/_SUCCESS", "feed/d2/part-0", "refused/x"} {
		if err := res.WriteFile(context.Background(), uri(p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name         string
		uris         []string
		exist        []bool
		stats, lists int
	}{
		{"one directory", []string{uri("flat/a"), uri("flat/b"), uri("flat/c"), uri("flat/d")},
			[]bool{true, false, true, false}, 0, 1},
		{"sibling instances", []string{uri("feed/d1/_SUCCESS"), uri("feed/d2/_SUCCESS"), uri("feed/d3/_SUCCESS"),
			uri("feed/d4/_SUCCESS")}, []bool{true, false, false, false}, 2, 1},
		{"no such parent", []string{uri("none/d1/_SUCCESS"), uri("none/d2/_SUCCESS")}, []bool{false, false}, 0, 1},
		{"listing refused", []string{uri("refused/x"), uri("refused/y")}, []bool{true, false}, 2, 1},
		{"alone", []string{uri("flat/a")}, []bool{true}, 1, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &countingFS{FileSystem: res, stats: map[string]int{}, lists: map[string]int{},
				refused: map[string]bool{uri("refused"): true}}
			r := &Runner{cfg: Config{FS: c}, sem: make(chan struct{}, 4)}
			got := r.lookUpAll(context.Background(), append(tc.uris, tc.uris[0])) // a duplicate is looked up once
			for i, u := range tc.uris {
				if a := got[u]; a.err != nil || a.ok != tc.exist[i] {
					t.Errorf("%s: exists %v (%v), want %v", u, a.ok, a.err, tc.exist[i])
				}
			}
			if stats, lists := c.calls(); stats != tc.stats || lists != tc.lists {
				t.Errorf("%d lookups and %d listings (%v %v), want %d and %d", stats, lists, c.stats, c.lists, tc.stats, tc.lists)
			}
		})
	}
}

// TestInputCheckOfAnActionChangedMeanwhile: an action that changed between
// its check's read and its write is not overwritten. One killed meanwhile
// stays KILLED; one written meanwhile but still WAITING is checked again at
// once on its fresh row and made READY; the others of the batch are READY.
func TestInputCheckOfAnActionChangedMeanwhile(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
			var w *world
			var ids []string
			var once sync.Once
			var armed atomic.Bool // set once every action waits and its data is there
			var meddled atomic.Bool
			meddle := func(point string) {
				if point != hookInputCheckDecided || !armed.Load() {
					return
				}
				once.Do(func() {
					err := w.store.Tx(bg, func(x store.Tx) error {
						killed, err := x.GetCoordAction(bg, ids[0])
						if err != nil {
							return err
						}
						killed.Status = store.CoordActionKilled
						if err := x.UpdateCoordAction(bg, &killed, store.CoordActionWaiting); err != nil {
							return err
						}
						touched, err := x.GetCoordAction(bg, ids[1])
						if err != nil {
							return err
						}
						touched.ErrorMessage = "written meanwhile"
						return x.UpdateCoordAction(bg, &touched, store.CoordActionWaiting)
					})
					if err != nil {
						t.Error(err)
					}
					meddled.Store(true)
				})
			}
			o := options{now: t0.Add(time.Minute), testHook: meddle, postgres: backend == "postgres"}
			if o.postgres {
				o.dsn = pgtest.NewDatabase(t)
			}
			w = setup(t, o)
			app := w.app("meddled", feedCoordXML("${coord:days(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z",
				"<concurrency>0</concurrency>"))
			const jobs = 4
			for i := 0; i < jobs; i++ {
				id := w.submit(w.props(app, "feed", fmt.Sprintf("feed%04d", i)))
				w.settle()
				acts := w.actions(id)
				if len(acts) != 1 || acts[0].Status != store.CoordActionWaiting {
					t.Fatalf("job %s: actions %+v, want one WAITING", id, acts)
				}
				ids = append(ids, acts[0].ID)
			}
			for i := 0; i < jobs; i++ {
				w.touch(feedURI(w, fmt.Sprintf("feed%04d", i), t0) + "/_SUCCESS")
			}
			armed.Store(true)
			w.advance(time.Minute) // every action's next check is due: one batch
			if !meddled.Load() {
				t.Fatal("no batch of checks ran after its decisions")
			}
			for i, id := range ids {
				want := store.CoordActionReady
				if i == 0 {
					want = store.CoordActionKilled
				}
				if a := w.action(id); a.Status != want {
					t.Errorf("action %s: %s (%s), want %s", id, a.Status, a.ErrorMessage, want)
				}
			}
		})
	}
}
