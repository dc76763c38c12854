package wfrun

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
)

func TestDefCacheNeverExceedsItsBound(t *testing.T) {
	t.Parallel()
	const max = 8
	c := newDefCache(max)
	// A job that ended on another server: this one used it once and never
	// saw it end, so forget is never called for it.
	elsewhere := &store.WorkflowJob{ID: "0000000-elsewhere-W", Run: 0, Definition: "<workflow-app/>"}
	c.put(elsewhere, &parsedJob{fs: true})
	for i := 0; i < 10*max; i++ {
		job := &store.WorkflowJob{ID: fmt.Sprintf("%07d-local-W", i), Definition: "<workflow-app/>"}
		if _, ok := c.get(job); ok {
			t.Fatalf("job %s found before it was put", job.ID)
		}
		c.put(job, &parsedJob{})
		if n := c.len(); n > max {
			t.Fatalf("after %d jobs the cache holds %d entries, bound %d", i+1, n, max)
		}
	}
	if _, ok := c.get(elsewhere); ok || c.usesFS(elsewhere.ID) {
		t.Fatal("the job that ended elsewhere is still cached after max newer jobs")
	}
}

func TestDefCacheKeepsRecentlyUsedJobs(t *testing.T) {
	t.Parallel()
	c := newDefCache(2)
	a := &store.WorkflowJob{ID: "a", Definition: "x"}
	b := &store.WorkflowJob{ID: "b", Definition: "x"}
	pa := &parsedJob{fs: true}
	c.put(a, pa)
	c.put(b, &parsedJob{})
	if got, ok := c.get(a); !ok || got != pa { // a is now the most recent
		t.Fatal("a missing")
	}
	c.put(&store.WorkflowJob{ID: "c", Definition: "x"}, &parsedJob{})
	if _, ok := c.get(b); ok {
		t.Fatal("b, the least recently used, was kept")
	}
	if !c.usesFS("a") {
		t.Fatal("a, recently used and calling fs: functions, was dropped")
	}
}

func TestDefCacheMissesANewRunAndForgetsEndedJobs(t *testing.T) {
	t.Parallel()
	c := newDefCache(4)
	job := &store.WorkflowJob{ID: "a", Run: 0, Definition: "x"}
	c.put(job, &parsedJob{})
	rerun := *job
	rerun.Run = 1
	if _, ok := c.get(&rerun); ok {
		t.Fatal("a rerun found the previous run's parsed form")
	}
	changed := *job
	changed.Definition = "xy"
	if _, ok := c.get(&changed); ok {
		t.Fatal("a changed definition found the old parsed form")
	}
	c.forget(job.ID)
	if _, ok := c.get(job); ok || c.len() != 0 {
		t.Fatal("an ended job was kept")
	}
}

func TestRunnerDefinitionCacheSize(t *testing.T) {
	t.Parallel()
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "file:///"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, tc := range []struct{ set, want int }{{0, conf.DefaultWorkflowDefinitionCacheSize}, {3, 3}} {
		r, err := New(Config{Store: st, FS: fs, IDs: ids.NewGenerator("gozie-test", time.Now()), DefinitionCacheSize: tc.set})
		if err != nil {
			t.Fatal(err)
		}
		if r.defs.max != tc.want {
			t.Errorf("DefinitionCacheSize %d: the cache holds %d, want %d", tc.set, r.defs.max, tc.want)
		}
	}
}
