package server

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/purge"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
)

// purgeFixture is a server whose admin/purge runs a real purge on a SQLite
// store holding three finished workflows: 40, 10 and 1 day(s) old.
func purgeFixture(t *testing.T) (*fixture, store.Store) {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 3, 8, 9, 0, 0, 0, time.UTC)
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	err = st.Tx(ctx, func(x store.Tx) error {
		for id, age := range map[string]time.Duration{"W-40d": 40, "W-10d": 10, "W-1d": 1} {
			lm := now.Add(-age * 24 * time.Hour)
			if err := x.InsertWorkflowJob(ctx, &store.WorkflowJob{ID: id, Status: store.WorkflowSucceeded, CreatedTime: lm,
				EndTime: lm, LastModified: lm}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := purge.New(purge.Config{Store: st, Clock: clock.NewFake(now)})
	if err != nil {
		t.Fatal(err)
	}
	return setup(t, Config{}, func(s *Server) { s.RegisterPurge(p) }), st
}

// workflowsLeft lists the stored workflow ids.
func workflowsLeft(t *testing.T, st store.Store) map[string]bool {
	t.Helper()
	left := map[string]bool{}
	err := st.Tx(context.Background(), func(x store.Tx) error {
		list, _, err := x.ListWorkflowJobs(context.Background(), store.JobFilter{})
		for _, w := range list {
			left[w.ID] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return left
}

func TestAdminPurge(t *testing.T) {
	t.Parallel()
	f, st := purgeFixture(t)
	steps := []struct {
		query  string
		purged int      // workflows the call removes
		left   []string // workflows left after it
	}{
		{"", 1, []string{"W-10d", "W-1d"}}, // the configured 30 days
		{"?wf=30&coord=7&bundle=7&limit=100&oldcoordaction=true", 0, []string{"W-10d", "W-1d"}}, // as Oozie's CLI sends it
		{"?wf=5&limit=1", 1, []string{"W-1d"}},
		{"?WF=0&oldCoordAction=FALSE&user.name=joe", 1, nil}, // names in any case; other parameters ignored
	}
	for _, s := range steps {
		resp, body := f.call(t, http.MethodPut, "/oozie/v2/admin/purge"+s.query)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != ContentTypeJSON {
			t.Fatalf("PUT purge%s: %d %s", s.query, resp.StatusCode, body)
		}
		var a purgeAnswer
		if err := json.Unmarshal([]byte(body), &a); err != nil {
			t.Fatalf("purge answer %q: %v", body, err)
		}
		if a.Purge != "Purge command executed successfully" || a.Purged != (purgedCounts{Workflows: s.purged}) {
			t.Errorf("PUT purge%s answered %s, want %d workflows purged", s.query, body, s.purged)
		}
		left := workflowsLeft(t, st)
		if len(left) != len(s.left) {
			t.Errorf("after purge%s left %v, want %v", s.query, left, s.left)
		}
		for _, id := range s.left {
			if !left[id] {
				t.Errorf("after purge%s %s is gone", s.query, id)
			}
		}
	}
}

func TestAdminPurgeErrors(t *testing.T) {
	t.Parallel()
	f, st := purgeFixture(t)
	bad := []struct{ query, name, value string }{
		{"wf=-1", "wf", "-1"},
		{"coord=a", "coord", "a"},
		{"bundle=", "bundle", ""},
		{"bundle=100001", "bundle", "100001"},
		{"limit=0", "limit", "0"},
		{"limit=10001", "limit", "10001"},
		{"oldCoordAction=yes", "oldCoordAction", "yes"},
		{"wf=1&coord=x", "coord", "x"},
	}
	for _, b := range bad {
		resp, body := f.call(t, http.MethodPut, "/oozie/v2/admin/purge?"+b.query)
		checkError(t, resp, body, http.StatusBadRequest, oozieerr.E0303,
			"E0303: Invalid parameter value, ["+b.name+"] = ["+b.value+"]")
	}
	resp, body := f.call(t, http.MethodGet, "/oozie/v2/admin/purge")
	checkError(t, resp, body, http.StatusMethodNotAllowed, oozieerr.E0301, "E0301: Invalid resource [purge]")
	if len(workflowsLeft(t, st)) != 3 {
		t.Error("a rejected purge removed workflows")
	}
	// Admin endpoints work in safe mode.
	if err := f.srv.SetSystemMode(ModeSafe); err != nil {
		t.Fatal(err)
	}
	if resp, body := f.call(t, http.MethodPut, "/oozie/v2/admin/purge"); resp.StatusCode != http.StatusOK {
		t.Errorf("purge in safe mode: %d %s", resp.StatusCode, body)
	}
}
