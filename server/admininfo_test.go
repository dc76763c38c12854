package server

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"testing"

	"github.com/gozie/gozie/oozieerr"
	"github.com/prometheus/client_golang/prometheus"
)

// getJSON GETs path and unmarshals its 200 response body into v.
func getJSON(t *testing.T, f *fixture, path string, v any) {
	t.Helper()
	resp, body := f.call(t, http.MethodGet, path)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("body %q: %v", body, err)
	}
}

func TestAdminMetricsAndInstrumentation(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{})
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "gozie_engine_handled_total"}, []string{"kind"})
	c.WithLabelValues("wf-poll").Add(7)
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "gozie_engine_leased"})
	g.Set(3)
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "gozie_sla_lateness_seconds", Buckets: []float64{1, 2, 4}})
	for _, v := range []float64{0.5, 1.5, 1.5, 3} { // buckets: ≤1: 1, ≤2: 3, ≤4: 4
		h.Observe(v)
	}
	f.reg.MustRegister(c, g, h)

	var m struct {
		Gauges     map[string]struct{ Value float64 }
		Counters   map[string]struct{ Count int64 }
		Histograms map[string]map[string]float64
	}
	getJSON(t, f, "/oozie/v2/admin/metrics", &m)
	if m.Counters["gozie_engine_handled_total.wf-poll"].Count != 7 || m.Gauges["gozie_engine_leased"].Value != 3 {
		t.Errorf("metrics counters %v gauges %v", m.Counters, m.Gauges)
	}
	hist := m.Histograms["gozie_sla_lateness_seconds"]
	// p50: rank 2 lies in (1, 2] holding ranks 2..3: 1 + 1*(2-1)/2 = 1.5.
	if hist["count"] != 4 || hist["mean"] != 1.625 || math.Abs(hist["p50"]-1.5) > 1e-9 || hist["p99"] > 4 || hist["p99"] <= 2 {
		t.Errorf("histogram %v", hist)
	}

	var ins struct {
		Counters []struct {
			Group string
			Data  []struct {
				Name  string
				Value int64
			}
		}
		Timers []struct {
			Group string
			Data  []struct {
				Name       string
				Ticks      int
				OwnTimeAvg float64
			}
		}
		Variables []struct {
			Group string
			Data  []struct {
				Name  string
				Value float64
			}
		}
	}
	getJSON(t, f, "/oozie/v1/admin/instrumentation", &ins)
	found := 0
	for _, g := range ins.Counters {
		for _, d := range g.Data {
			if g.Group == "engine" && d.Name == "handled_total.wf-poll" && d.Value == 7 {
				found++
			}
		}
	}
	for _, g := range ins.Timers {
		for _, d := range g.Data {
			if g.Group == "sla" && d.Name == "lateness_seconds" && d.Ticks == 4 && d.OwnTimeAvg == 1625 {
				found++
			}
		}
	}
	for _, g := range ins.Variables {
		for _, d := range g.Data {
			if g.Group == "engine" && d.Name == "leased" && d.Value == 3 {
				found++
			}
		}
	}
	if found != 3 {
		t.Errorf("instrumentation lacks the counter, timer or variable: %+v", ins)
	}
	// V1AdminServlet lists metrics and refuses it, as a parameter (E0302), not a resource.
	resp, body := f.call(t, http.MethodGet, "/oozie/v1/admin/metrics")
	checkError(t, resp, body, 400, oozieerr.E0302, "E0302: Invalid parameter [Not supported in v1]")
}

// TestAdminUpdateShareLib: update_sharelib answers Oozie's JSON with the share lib
// directory before and after the update; the first update since the start has no old
// one (null), and each later one reports the directory the previous one found.
func TestAdminUpdateShareLib(t *testing.T) {
	t.Parallel()
	dirs := make(chan string, 3)
	for _, d := range []string{"hdfs://nn/share/lib/lib_20260101000000", "hdfs://nn/share/lib/lib_20260101000000",
		"hdfs://nn/share/lib/lib_20260202000000"} {
		dirs <- d
	}
	f := setup(t, Config{Admin: AdminSources{ShareLibDir: func(context.Context) (string, error) { return <-dirs, nil }}})
	update := func() map[string]any {
		var u struct{ SharelibUpdate map[string]any }
		getJSON(t, f, "/oozie/v2/admin/update_sharelib", &u)
		return u.SharelibUpdate
	}
	for i, want := range []struct{ old, new any }{
		{nil, "hdfs://nn/share/lib/lib_20260101000000"},
		{"hdfs://nn/share/lib/lib_20260101000000", "hdfs://nn/share/lib/lib_20260101000000"},
		{"hdfs://nn/share/lib/lib_20260101000000", "hdfs://nn/share/lib/lib_20260202000000"},
	} {
		u := update()
		old, hasOld := u["sharelibDirOld"]
		if u["status"] != "Successful" || u["host"] == "" || !hasOld || old != want.old || u["sharelibDirNew"] != want.new {
			t.Errorf("update %d: %v, want sharelibDirOld %v and sharelibDirNew %v", i+1, u, want.old, want.new)
		}
	}
	// Without a share lib both directories are null, and still present.
	u := func() map[string]any {
		g := setup(t, Config{})
		var u struct{ SharelibUpdate map[string]any }
		getJSON(t, g, "/oozie/v1/admin/update_sharelib", &u)
		return u.SharelibUpdate
	}()
	if v, ok := u["sharelibDirNew"]; !ok || v != nil {
		t.Errorf("without a share lib: %v", u)
	}
	if v, ok := u["sharelibDirOld"]; !ok || v != nil {
		t.Errorf("without a share lib: %v", u)
	}
}

func TestAdminSources(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{Admin: AdminSources{
		QueueDump: func(context.Context) (QueueDump, error) {
			return QueueDump{Running: []QueueItem{{Kind: "wf-poll", Entity: "all", Due: "2026-01-01T00:00:00Z", Lease: "s1"}},
				Waiting: []QueueItem{{Kind: "coord-materialize", Entity: "0000001-x-C", Due: "2026-01-01T01:00:00Z", Attempts: 2, LastError: "boom"}}}, nil
		},
		Servers: func(context.Context) (map[string]string, error) {
			return map[string]string{"s1": "http://a:11000/oozie"}, nil
		},
		ShareLibs: func(_ context.Context, lib string) ([]ShareLib, error) {
			if lib == "" {
				return []ShareLib{{Name: "hive"}, {Name: "pig"}}, nil
			}
			return []ShareLib{{Name: lib, Files: []string{"hdfs://nn/share/lib/" + lib + "/a.jar"}}}, nil
		},
	}})
	var q struct {
		QueueDump     []map[string]string
		UniqueMapDump []map[string]string
	}
	getJSON(t, f, "/oozie/v2/admin/queue-dump", &q)
	if len(q.QueueDump) != 1 || q.QueueDump[0]["queueItem"] != "wf-poll all due 2026-01-01T00:00:00Z leased by s1" ||
		len(q.UniqueMapDump) != 1 || q.UniqueMapDump[0]["uniqueItem"] != "coord-materialize 0000001-x-C due 2026-01-01T01:00:00Z attempts 2 last error: boom" {
		t.Errorf("queue dump %+v", q)
	}
	var servers map[string]string
	getJSON(t, f, "/oozie/v2/admin/available-oozie-servers", &servers)
	if servers["s1"] != "http://a:11000/oozie" || len(servers) != 1 {
		t.Errorf("servers %v", servers)
	}
	var libs struct {
		Sharelib []struct {
			Name  string
			Files []string
		}
	}
	getJSON(t, f, "/oozie/v2/admin/list_sharelib", &libs)
	if len(libs.Sharelib) != 2 || libs.Sharelib[1].Name != "pig" || libs.Sharelib[0].Files != nil {
		t.Errorf("share libs %+v", libs)
	}
	getJSON(t, f, "/oozie/v2/admin/list_sharelib?lib=hive", &libs)
	if len(libs.Sharelib) != 1 || len(libs.Sharelib[0].Files) != 1 {
		t.Errorf("hive share lib %+v", libs)
	}
	var props map[string]string
	getJSON(t, f, "/oozie/v1/admin/java-sys-properties", &props)
	if props["os.name"] == "" || props["go.version"] == "" {
		t.Errorf("properties %v", props)
	}
	resp, body := f.call(t, http.MethodGet, "/oozie/v2/admin/jmsinfo")
	if resp.StatusCode != 400 || resp.Header.Get(HeaderErrorCode) != oozieerr.E0302 {
		t.Errorf("jmsinfo: %d %s", resp.StatusCode, body)
	}
}

// TestAdminOSEnv is not parallel: it sets an environment variable.
func TestAdminOSEnv(t *testing.T) {
	t.Setenv("GOZIE_TEST_DB_PASSWORD", "hunter2")
	t.Setenv("GOZIE_TEST_PLAIN", "visible")
	f := setup(t, Config{})
	var env map[string]string
	getJSON(t, f, "/oozie/v2/admin/os-env", &env)
	if env["GOZIE_TEST_DB_PASSWORD"] != Masked || env["GOZIE_TEST_PLAIN"] != "visible" {
		t.Errorf("os-env: password %q, plain %q", env["GOZIE_TEST_DB_PASSWORD"], env["GOZIE_TEST_PLAIN"])
	}
}
