package server

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	dto "github.com/prometheus/client_model/go"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server/auth"
)

// QueueItem is one entry of admin/queue-dump: a trigger waiting or being
// handled, in gozie's words (kind, entity, due time, lease holder).
type QueueItem struct {
	Kind, Entity, Due, Lease string
	Attempts                 int
	LastError                string
}

// String is the line shown in queue-dump.
func (q QueueItem) String() string {
	s := q.Kind + " " + q.Entity + " due " + q.Due
	if q.Lease != "" {
		s += " leased by " + q.Lease
	}
	if q.Attempts > 0 {
		s += " attempts " + strconv.Itoa(q.Attempts) + " last error: " + q.LastError
	}
	return s
}

// QueueDump is what admin/queue-dump shows: the work being handled now
// (Oozie's queue) and the work waiting for its due time (Oozie's unique map of
// pending commands).
type QueueDump struct {
	Running, Waiting []QueueItem
}

// ShareLib is one library of the system share lib and its files.
type ShareLib struct {
	Name  string
	Files []string
}

// AdminSources answer the admin endpoints that need more than the REST
// server knows. Nil fields answer empty results.
type AdminSources struct {
	// QueueDump lists the engine's triggers.
	QueueDump func(ctx context.Context) (QueueDump, error)
	// Servers lists the live servers: id → REST URL.
	Servers func(ctx context.Context) (map[string]string, error)
	// ShareLibs lists the share libraries (all of them, or the one named
	// with its files).
	ShareLibs func(ctx context.Context, lib string) ([]ShareLib, error)
	// ShareLibDir names the share lib directory in use, Oozie's newest
	// lib_<timestamp> directory under the system lib path; "" when there is
	// none. admin/update_sharelib reports it as sharelibDirNew.
	ShareLibDir func(ctx context.Context) (string, error)
}

// registerAdminInfo adds the admin endpoints that describe the running
// server: os-env, java-sys-properties, instrumentation (v1 and v2, as a default
// Oozie serves it), metrics (v2; v1 refuses it as Oozie's does), queue-dump,
// available-oozie-servers, list_sharelib, update_sharelib and jmsinfo.
func (s *Server) registerAdminInfo() {
	admin := AllowInSafeMode()
	s.Handle(http.MethodGet, adminPath+"/os-env", auth.PermSystemInfo, s.osEnv, admin)
	s.Handle(http.MethodGet, adminPath+"/java-sys-properties", auth.PermSystemInfo, s.sysProperties, admin)
	s.Handle(http.MethodGet, adminPath+"/instrumentation", auth.PermRead, s.instrumentation, admin)
	s.Handle(http.MethodGet, "/v2/admin/metrics", auth.PermRead, s.metricsJSON, admin)
	s.Handle(http.MethodGet, "/v1/admin/metrics", auth.PermRead, notInV1, admin)
	s.Handle(http.MethodGet, adminPath+"/queue-dump", auth.PermRead, s.queueDump, admin)
	s.Handle(http.MethodGet, "/v2/admin/available-oozie-servers", auth.PermRead, s.availableServers, admin)
	s.Handle(http.MethodGet, adminPath+"/list_sharelib", auth.PermRead, s.listShareLib, admin)
	s.Handle(http.MethodGet, adminPath+"/update_sharelib", auth.PermAdmin, s.updateShareLib, admin)
	s.Handle(http.MethodGet, adminPath+"/jmsinfo", auth.PermRead, s.jmsInfo, admin)
}

// osEnv serves admin/os-env: the server's environment, secrets masked.
func (s *Server) osEnv(w http.ResponseWriter, _ *http.Request) error {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return WriteJSON(w, http.StatusOK, MaskSecrets(env))
}

// sysProperties serves admin/java-sys-properties. gozie has no JVM: it
// answers the properties a JVM would have that mean something for a Go
// process (os.name, os.arch, user.name, user.dir, ...) plus the Go version.
func (s *Server) sysProperties(w http.ResponseWriter, _ *http.Request) error {
	props := map[string]string{
		"os.name": runtime.GOOS, "os.arch": runtime.GOARCH, "go.version": runtime.Version(),
		"file.separator": string(os.PathSeparator), "path.separator": string(os.PathListSeparator),
		"line.separator": "\n", "available.processors": strconv.Itoa(runtime.NumCPU()),
	}
	if dir, err := os.Getwd(); err == nil {
		props["user.dir"] = dir
	}
	if home, err := os.UserHomeDir(); err == nil {
		props["user.home"] = home
	}
	if u := os.Getenv("USER"); u != "" {
		props["user.name"] = u
	}
	props["java.io.tmpdir"] = os.TempDir()
	return WriteJSON(w, http.StatusOK, MaskSecrets(props))
}

// instrumentation serves v1 admin/instrumentation in Oozie's shape: groups of
// counters, timers, variables (gauges) and samplers, built from the
// Prometheus metrics. A metric's group is the second word of its name
// (gozie_engine_... → engine); Go runtime and process metrics are in groups
// go and process.
func (s *Server) instrumentation(w http.ResponseWriter, _ *http.Request) error {
	families, err := s.gatherer.Gather()
	if err != nil {
		return err
	}
	type datum = map[string]any
	groups := map[string]map[string][]datum{"counters": {}, "timers": {}, "variables": {}, "samplers": {}}
	for _, mf := range families {
		group, base := metricGroup(mf.GetName())
		for _, m := range mf.GetMetric() {
			name := base + labelSuffix(m)
			switch mf.GetType() {
			case dto.MetricType_COUNTER:
				groups["counters"][group] = append(groups["counters"][group], datum{"name": name, "value": int64(m.GetCounter().GetValue())})
			case dto.MetricType_GAUGE:
				groups["variables"][group] = append(groups["variables"][group], datum{"name": name, "value": m.GetGauge().GetValue()})
			case dto.MetricType_UNTYPED:
				groups["variables"][group] = append(groups["variables"][group], datum{"name": name, "value": m.GetUntyped().GetValue()})
			case dto.MetricType_HISTOGRAM, dto.MetricType_GAUGE_HISTOGRAM:
				h := m.GetHistogram()
				avg := 0.0
				if h.GetSampleCount() > 0 {
					avg = h.GetSampleSum() / float64(h.GetSampleCount()) * 1000 // seconds → ms
				}
				groups["timers"][group] = append(groups["timers"][group], datum{"name": name, "ticks": h.GetSampleCount(),
					"ownTimeAvg": avg, "totalTimeAvg": avg})
			case dto.MetricType_SUMMARY:
				sm := m.GetSummary()
				avg := 0.0
				if sm.GetSampleCount() > 0 {
					avg = sm.GetSampleSum() / float64(sm.GetSampleCount()) * 1000
				}
				groups["timers"][group] = append(groups["timers"][group], datum{"name": name, "ticks": sm.GetSampleCount(),
					"ownTimeAvg": avg, "totalTimeAvg": avg})
			}
		}
	}
	out := map[string]any{}
	for kind, byGroup := range groups {
		list := []map[string]any{}
		for _, g := range slices.Sorted(maps.Keys(byGroup)) {
			list = append(list, map[string]any{"group": g, "data": byGroup[g]})
		}
		out[kind] = list
	}
	return WriteJSON(w, http.StatusOK, out)
}

// notInV1 answers a v1 admin resource that Oozie's V1AdminServlet lists and refuses
// (metrics): it is served in v2 only.
func notInV1(http.ResponseWriter, *http.Request) error {
	return ErrNotSupportedInV1()
}

// metricsJSON serves v2 admin/metrics in the shape of the Dropwizard metrics
// JSON Oozie returns: gauges {value}, counters {count}, histograms {count,
// mean, p50 ... p999} (quantiles estimated from the buckets), built from the
// Prometheus metrics; /metrics serves the same in Prometheus' format.
func (s *Server) metricsJSON(w http.ResponseWriter, _ *http.Request) error {
	families, err := s.gatherer.Gather()
	if err != nil {
		return err
	}
	gauges, counters, histograms := map[string]any{}, map[string]any{}, map[string]any{}
	for _, mf := range families {
		for _, m := range mf.GetMetric() {
			name := mf.GetName() + labelSuffix(m)
			switch mf.GetType() {
			case dto.MetricType_COUNTER:
				counters[name] = map[string]any{"count": int64(m.GetCounter().GetValue())}
			case dto.MetricType_GAUGE:
				gauges[name] = map[string]any{"value": m.GetGauge().GetValue()}
			case dto.MetricType_UNTYPED:
				gauges[name] = map[string]any{"value": m.GetUntyped().GetValue()}
			case dto.MetricType_HISTOGRAM, dto.MetricType_GAUGE_HISTOGRAM:
				histograms[name] = histogramJSON(m.GetHistogram())
			case dto.MetricType_SUMMARY:
				sm := m.GetSummary()
				h := map[string]any{"count": sm.GetSampleCount(), "mean": mean(sm.GetSampleSum(), sm.GetSampleCount())}
				for _, q := range sm.GetQuantile() {
					h[quantileName(q.GetQuantile())] = q.GetValue()
				}
				histograms[name] = h
			}
		}
	}
	return WriteJSON(w, http.StatusOK, map[string]any{"version": "3.0.0", "gauges": gauges, "counters": counters,
		"histograms": histograms, "meters": map[string]any{}, "timers": map[string]any{}})
}

// histogramJSON estimates a histogram's quantiles from its cumulative
// buckets by linear interpolation within the bucket that holds each rank.
func histogramJSON(h *dto.Histogram) map[string]any {
	n := h.GetSampleCount()
	out := map[string]any{"count": n, "mean": mean(h.GetSampleSum(), n)}
	for _, q := range []float64{0.5, 0.75, 0.95, 0.98, 0.99, 0.999} {
		out[quantileName(q)] = bucketQuantile(h, q)
	}
	return out
}

// bucketQuantile is the q-quantile of h estimated from its buckets; a rank
// beyond the last finite bound answers that bound.
func bucketQuantile(h *dto.Histogram, q float64) float64 {
	n := h.GetSampleCount()
	if n == 0 {
		return 0
	}
	rank := q * float64(n)
	lower, below := 0.0, uint64(0)
	for _, b := range h.GetBucket() {
		c := b.GetCumulativeCount()
		if float64(c) >= rank {
			if c == below {
				return b.GetUpperBound()
			}
			return lower + (b.GetUpperBound()-lower)*(rank-float64(below))/float64(c-below)
		}
		lower, below = b.GetUpperBound(), c
	}
	return lower
}

func mean(sum float64, n uint64) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// quantileName is Dropwizard's key of a quantile: p50, p75, p999, ...
func quantileName(q float64) string {
	switch q {
	case 0.5:
		return "p50"
	case 0.75:
		return "p75"
	case 0.95:
		return "p95"
	case 0.98:
		return "p98"
	case 0.99:
		return "p99"
	case 0.999:
		return "p999"
	}
	return "p" + strings.TrimPrefix(strings.TrimRight(strings.TrimRight(strconv.FormatFloat(q, 'f', -1, 64), "0"), "."), "0.")
}

// queueDump serves admin/queue-dump: {"queueDump":[{"queueItem":…}],
// "uniqueMapDump":[{"uniqueItem":…}]}, the work being handled and the work
// waiting.
func (s *Server) queueDump(w http.ResponseWriter, r *http.Request) error {
	var d QueueDump
	if s.cfg.Admin.QueueDump != nil {
		var err error
		if d, err = s.cfg.Admin.QueueDump(r.Context()); err != nil {
			return err
		}
	}
	running, waiting := []map[string]string{}, []map[string]string{}
	for _, q := range d.Running {
		running = append(running, map[string]string{"queueItem": q.String()})
	}
	for _, q := range d.Waiting {
		waiting = append(waiting, map[string]string{"uniqueItem": q.String()})
	}
	return WriteJSON(w, http.StatusOK, map[string]any{"queueDump": running, "uniqueMapDump": waiting})
}

// availableServers serves v2 admin/available-oozie-servers: server id → URL.
func (s *Server) availableServers(w http.ResponseWriter, r *http.Request) error {
	servers := map[string]string{}
	if s.cfg.Admin.Servers != nil {
		var err error
		if servers, err = s.cfg.Admin.Servers(r.Context()); err != nil {
			return err
		}
	}
	return WriteJSON(w, http.StatusOK, servers)
}

// listShareLib serves admin/list_sharelib[?lib=name]: {"sharelib":[{"name":…}]},
// with "files" for a named library.
func (s *Server) listShareLib(w http.ResponseWriter, r *http.Request) error {
	lib := r.URL.Query().Get("lib")
	libs, err := s.shareLibs(r.Context(), lib)
	if err != nil {
		return err
	}
	out := []map[string]any{}
	for _, l := range libs {
		e := map[string]any{"name": l.Name}
		if lib != "" {
			e["files"] = l.Files
		}
		out = append(out, e)
	}
	return WriteJSON(w, http.StatusOK, map[string]any{"sharelib": out})
}

// shareLibUpdate is this server's entry of an admin/update_sharelib answer, in the JSON
// of Oozie's ShareLibService: the share lib directory before the update and after it,
// null when unknown (Oozie's first update after a start has no old directory).
type shareLibUpdate struct {
	Host   string  `json:"host"`
	Status string  `json:"status"`
	DirOld *string `json:"sharelibDirOld"`
	DirNew *string `json:"sharelibDirNew"`
}

// shareLibMemory is the share lib directory that the last update_sharelib of this server
// reported as new, which the next one reports as old, as Oozie's ShareLibService keeps it.
type shareLibMemory struct {
	mu  sync.Mutex
	dir *string
}

// swap records dir as the directory in use and returns the one recorded before.
func (m *shareLibMemory) swap(dir *string) (old *string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	old, m.dir = m.dir, dir
	return old
}

// updateShareLib serves admin/update_sharelib: {"sharelibUpdate":{"host", "status",
// "sharelibDirOld", "sharelibDirNew"}}. gozie reads the share lib directory on every
// request, so there is nothing to reload; it answers what Oozie answers after a reload.
func (s *Server) updateShareLib(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.shareLibs(r.Context(), ""); err != nil {
		return err
	}
	var dir *string
	if s.cfg.Admin.ShareLibDir != nil {
		d, err := s.cfg.Admin.ShareLibDir(r.Context())
		if err != nil {
			return fmt.Errorf("finding the share lib directory: %w", err)
		}
		if d != "" {
			dir = &d
		}
	}
	host, _ := os.Hostname()
	u := shareLibUpdate{Host: host, Status: "Successful", DirNew: dir, DirOld: s.shareLib.swap(dir)}
	return WriteJSON(w, http.StatusOK, map[string]shareLibUpdate{"sharelibUpdate": u})
}

func (s *Server) shareLibs(ctx context.Context, lib string) ([]ShareLib, error) {
	if s.cfg.Admin.ShareLibs == nil {
		return nil, nil
	}
	return s.cfg.Admin.ShareLibs(ctx, lib)
}

// jmsInfo serves admin/jmsinfo: gozie publishes no JMS notifications.
func (s *Server) jmsInfo(http.ResponseWriter, *http.Request) error {
	return NewError(http.StatusBadRequest, oozieerr.E0302,
		"Invalid parameter [jmsinfo]: gozie has no JMS notifications; use SLA webhooks or the metrics instead")
}

// metricGroup splits a metric name into an instrumentation group and the rest.
func metricGroup(name string) (group, rest string) {
	parts := strings.SplitN(name, "_", 3)
	switch {
	case len(parts) == 3 && parts[0] == "gozie":
		return parts[1], parts[2]
	case len(parts) >= 2:
		return parts[0], strings.Join(parts[1:], "_")
	}
	return "other", name
}

// labelSuffix is ".v1.v2" of a metric's label values, in label order.
func labelSuffix(m *dto.Metric) string {
	var b strings.Builder
	for _, l := range m.GetLabel() {
		b.WriteString(".")
		b.WriteString(l.GetValue())
	}
	return b.String()
}
