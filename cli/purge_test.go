package cli

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/purge"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
)

// purgeServer serves admin/purge with a real purge over a SQLite store that
// holds finished workflows 40, 20, 10 and 1 day(s) old, and returns its URL.
func purgeServer(t *testing.T) (string, store.Store) {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 3, 8, 9, 0, 0, 0, time.UTC)
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	err = st.Tx(ctx, func(x store.Tx) error {
		for _, days := range []int{40, 20, 10, 1} {
			lm := now.Add(-time.Duration(days) * 24 * time.Hour)
			if err := x.InsertWorkflowJob(ctx, &store.WorkflowJob{ID: "W-" + strconv.Itoa(days) + "d",
				Status: store.WorkflowSucceeded, CreatedTime: lm, EndTime: lm, LastModified: lm}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := purge.New(purge.Config{Store: st, Clock: clock.NewFake(now), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Logger: slog.New(slog.DiscardHandler), Registry: prometheus.NewRegistry(),
		Build: server.BuildInfo{Version: "test"}})
	srv.RegisterPurge(p)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts.URL + server.ContextPath, st
}

// storedWorkflows counts the workflows left.
func storedWorkflows(t *testing.T, st store.Store) int {
	t.Helper()
	var n int
	err := st.Tx(context.Background(), func(x store.Tx) (err error) {
		_, n, err = x.ListWorkflowJobs(context.Background(), store.JobFilter{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAdminPurgeGolden runs admin -purge against a server as Oozie's CLI
// spells it, and its mistakes, and compares the transcript with
// testdata/admin_purge.golden.
func TestAdminPurgeGolden(t *testing.T) {
	url, st := purgeServer(t)
	steps := []struct {
		args []string
		left int // workflows stored afterwards
	}{
		{[]string{"admin", "-purge", "wf=30;coord=7;bundle=7;limit=100;oldcoordaction=true"}, 3},
		{[]string{"admin", "-purge", "wf=15;limit=1"}, 2},
		{[]string{"admin", "-purge", "WF=5;oldCoordAction=false;"}, 1},
		{[]string{"admin", "-purge", "invalid=1"}, 1},
		{[]string{"admin", "-purge", "wf=1;coord="}, 1},
		{[]string{"admin", "-purge", "wf=1;coord=-1"}, 1},
		{[]string{"admin", "-purge", "wf=a"}, 1},
		{[]string{"admin", "-purge", "oldcoordaction=yes"}, 1},
		{[]string{"admin", "-purge", "limit=0"}, 1}, // the server refuses it
		{[]string{"admin", "-purge", "wf=0"}, 0},
	}
	var transcript strings.Builder
	for _, s := range steps {
		var out, errOut bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errOut, HTTPClient: http.DefaultClient,
			Getenv: func(k string) string { return map[string]string{"OOZIE_URL": url}[k] }}
		code := Run(context.Background(), s.args, env)
		transcript.WriteString("$ gozie " + strings.Join(s.args, " ") + "\n" + out.String() + errOut.String() +
			"exit " + strconv.Itoa(code) + "\n")
		if n := storedWorkflows(t, st); n != s.left {
			t.Errorf("after %v %d workflows are left, want %d", s.args, n, s.left)
		}
	}
	golden(t, "admin_purge", transcript.String(), map[string]string{url: "URL"})
}
