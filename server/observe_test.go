package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// serve runs one request through the whole handler synchronously.
func (f *fixture) serve(t *testing.T, method, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{})
	f.serve(t, http.MethodGet, "/oozie/versions")
	f.serve(t, http.MethodGet, "/oozie/versions")
	f.serve(t, http.MethodGet, "/oozie/v2/admin/status")
	f.serve(t, http.MethodPut, "/oozie/v2/admin/status?systemmode=BAD")
	f.serve(t, http.MethodGet, "/no/such/path")
	f.serve(t, "BREW", "/oozie/versions")

	resp, body := f.call(t, http.MethodGet, "/metrics")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /metrics: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		`gozie_http_requests_total{code="200",method="GET",route="/oozie/versions"} 2`,
		`gozie_http_requests_total{code="200",method="GET",route="/oozie/v{version}/admin/status"} 1`,
		`gozie_http_requests_total{code="400",method="PUT",route="/oozie/v{version}/admin/status"} 1`,
		`gozie_http_requests_total{code="404",method="GET",route="unmatched"} 1`,
		`gozie_http_requests_total{code="405",method="OTHER",route="unmatched"} 1`,
		`gozie_http_request_duration_seconds_count{method="GET",route="/oozie/versions"} 2`,
		`gozie_http_requests_in_flight 1`, // the /metrics request itself
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(body, "/no/such/path") {
		t.Error("a raw path became a label")
	}
}

func TestMetricsSharedRegistry(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{})
	// A second server on the same registry reuses the instruments instead of failing.
	second := New(Config{Registry: f.reg})
	rec := httptest.NewRecorder()
	second.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/oozie/versions", nil))
	f.serve(t, http.MethodGet, "/oozie/versions")
	body := f.serve(t, http.MethodGet, "/metrics").Body.String()
	if !strings.Contains(body, `gozie_http_requests_total{code="200",method="GET",route="/oozie/versions"} 2`) {
		t.Errorf("the common registry does not count both servers:\n%s", body)
	}
}

func TestDefaultRegistry(t *testing.T) {
	t.Parallel()
	s := New(Config{})
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{"go_goroutines", "gozie_http_requests_in_flight"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("default registry lacks %s", want)
		}
	}
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{})
	f.serve(t, http.MethodGet, "/oozie/v2/admin/status")
	f.serve(t, http.MethodPut, "/oozie/v2/admin/status?systemmode=BAD")
	f.serve(t, http.MethodGet, "/metrics")

	var requests []map[string]any
	for _, l := range f.log.lines(t) {
		if l["msg"] == "http request" {
			requests = append(requests, l)
		}
	}
	if len(requests) != 3 {
		t.Fatalf("%d request log lines, want 3: %v", len(requests), requests)
	}
	checks := []map[string]any{
		{"level": "INFO", "method": "GET", "path": "/oozie/v2/admin/status", "status": 200.0, "route": "/oozie/v{version}/admin/status"},
		{"level": "INFO", "method": "PUT", "status": 400.0, "error_code": "E0303",
			"error": "E0303: Invalid parameter value, [systemmode] = [BAD]"},
		{"level": "DEBUG", "path": "/metrics", "route": "/metrics"},
	}
	for i, want := range checks {
		for k, v := range want {
			if requests[i][k] != v {
				t.Errorf("log line %d: %s = %v, want %v", i, k, requests[i][k], v)
			}
		}
		if _, ok := requests[i]["duration"]; !ok {
			t.Errorf("log line %d has no duration", i)
		}
	}
	if _, ok := requests[0]["error_code"]; ok {
		t.Error("a successful request logged an error code")
	}
}
