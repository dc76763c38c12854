package jobsbench

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/internal/gcbudget"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/jobs"
	"github.com/gozie/gozie/store/postgres"
	"github.com/gozie/gozie/workflow/wfrun"
)

// Server is gozie's REST stack serving one database.
type Server struct {
	// URL is the base URL with the context path, as OOZIE_URL holds it.
	URL   string
	Store *postgres.Store
}

// Serve opens the PostgreSQL store at dsn and serves the job endpoints on it, as the
// daemon wires them (server.New, jobs.Register with the workflow and coordinator
// runners; no engine runs, so nothing changes the rows), on a random loopback port,
// with the garbage collector's budget gozie server sets (gcbudget). Everything is
// closed when tb ends.
func Serve(tb testing.TB, dsn string) *Server {
	tb.Helper()
	tb.Cleanup(gcbudget.Start(context.Background(), gcbudget.DefaultMB<<20))
	st, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	fsys, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "file:///"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { fsys.Close() })
	log := slog.New(slog.DiscardHandler)
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	run, err := wfrun.New(wfrun.Config{Store: st, Clock: clock.Real{}, Logger: log, FS: fsys,
		IDs: ids.NewGenerator(systemID, start), CallbackBaseURL: "http://127.0.0.1:1/oozie/callback"})
	if err != nil {
		tb.Fatal(err)
	}
	coords, err := coordrun.New(coordrun.Config{Store: st, Clock: clock.Real{}, Logger: log, FS: fsys,
		IDs: ids.NewGenerator(systemID, start), Workflows: run, Settings: coordinator.DefaultSettings()})
	if err != nil {
		tb.Fatal(err)
	}
	srv := server.New(server.Config{Logger: log, Registry: prometheus.NewRegistry(), Build: server.BuildInfo{Version: "bench"}})
	if err := jobs.Register(srv, jobs.Deps{Store: st, Workflows: run, Coordinators: coords, Clock: clock.Real{},
		Logger: log, FS: fsys}); err != nil {
		tb.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	tb.Cleanup(hs.Close)
	return &Server{URL: hs.URL + server.ContextPath, Store: st}
}
