package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server/auth"
)

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines returns the JSON log records written so far.
func (b *syncBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.buf.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// fixture is a server under test with its log and metrics registry.
type fixture struct {
	srv  *Server
	http *httptest.Server
	log  *syncBuffer
	reg  *prometheus.Registry
}

// setup starts a server on a random loopback port; cfg's Logger and Registry are filled in,
// and routes may register extra endpoints before serving starts.
func setup(t *testing.T, cfg Config, routes ...func(*Server)) *fixture {
	t.Helper()
	f := &fixture{log: &syncBuffer{}, reg: prometheus.NewRegistry()}
	cfg.Logger = slog.New(slog.NewJSONHandler(f.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cfg.Registry = f.reg
	f.srv = New(cfg)
	for _, r := range routes {
		r(f.srv)
	}
	f.http = httptest.NewServer(f.srv.Handler())
	t.Cleanup(f.http.Close)
	return f
}

// call sends a request and returns the response with its body read.
func (f *fixture) call(t *testing.T, method, path string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, f.http.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// checkError asserts an Oozie error response: status, both headers and the JSON body.
func checkError(t *testing.T, resp *http.Response, body string, status int, code, msg string) {
	t.Helper()
	if resp.StatusCode != status {
		t.Errorf("status %d, want %d (body %s)", resp.StatusCode, status, body)
	}
	if got := resp.Header.Get(HeaderErrorCode); got != code {
		t.Errorf("%s = %q, want %q", HeaderErrorCode, got, code)
	}
	if got := resp.Header.Get(HeaderErrorMessage); got != msg {
		t.Errorf("%s = %q, want %q", HeaderErrorMessage, got, msg)
	}
	if ct := resp.Header.Get("Content-Type"); ct != ContentTypeJSON {
		t.Errorf("Content-Type %q", ct)
	}
	var b errorBody
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	if b != (errorBody{HTTPStatusCode: status, ErrorCode: code, ErrorMessage: msg}) {
		t.Errorf("error body %+v", b)
	}
}

func TestVersions(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{})
	resp, body := f.call(t, http.MethodGet, "/oozie/versions")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != ContentTypeJSON {
		t.Fatalf("GET versions: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var v []int
	if err := json.Unmarshal([]byte(body), &v); err != nil || fmt.Sprint(v) != "[0 1 2]" {
		t.Errorf("versions body %q (%v)", body, err)
	}
	head, headBody := f.call(t, http.MethodHead, "/oozie/versions")
	if head.StatusCode != http.StatusOK || headBody != "" {
		t.Errorf("HEAD versions: %d %q", head.StatusCode, headBody)
	}
}

func TestErrorResponses(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{})
	tests := []struct {
		method, path string
		status       int
		code, msg    string
		allow        string
	}{
		{"GET", "/oozie/v2/admin/nope", 400, "E0301", "E0301: Invalid resource [nope]", ""},
		{"GET", "/oozie/v1/admin/status/", 400, "E0301", "E0301: Invalid resource [status/]", ""},
		{"GET", "/oozie/v0/admin/status", 400, "E0301", "E0301: Invalid resource [status]", ""},
		{"GET", "/oozie/v1/jobs", 400, "E0301", "E0301: Invalid resource []", ""},
		{"GET", "/oozie/v2/job/0000001-250101000000000-gozie-joe-W", 400, "E0301", "E0301: Invalid resource [0000001-250101000000000-gozie-joe-W]", ""},
		{"GET", "/oozie/nothing", 404, "E0301", "E0301: Invalid resource [/oozie/nothing]", ""},
		{"GET", "/oozie/v3/admin/status", 404, "E0301", "E0301: Invalid resource [/oozie/v3/admin/status]", ""},
		{"GET", "/", 404, "E0301", "E0301: Invalid resource [/]", ""},
		{"DELETE", "/oozie/v2/admin/status", 405, "E0301", "E0301: Invalid resource [status]", "GET, HEAD, PUT"},
		{"POST", "/oozie/versions", 405, "E0301", "E0301: Invalid resource []", "GET, HEAD"},
		{"POST", "/metrics", 405, "E0301", "E0301: Invalid resource [/metrics]", "GET, HEAD"},
		{"PUT", "/oozie/v2/admin/status", 400, "E0305", "E0305: Missing parameter [systemmode]", ""},
		{"PUT", "/oozie/v1/admin/status?systemmode=FOO", 400, "E0303", "E0303: Invalid parameter value, [systemmode] = [FOO]", ""},
		{"PUT", "/oozie/v2/admin/status?systemmode=", 400, "E0303", "E0303: Invalid parameter value, [systemmode] = []", ""},
		{"GET", "/oozie/v2/admin/status?systemmode=NORMAL", 400, "E0302", "E0302: Invalid parameter [systemmode]", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			t.Parallel()
			resp, body := f.call(t, tt.method, tt.path)
			checkError(t, resp, body, tt.status, tt.code, tt.msg)
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow = %q, want %q", got, tt.allow)
			}
		})
	}
	if m := f.srv.SystemMode(); m != ModeNormal {
		t.Errorf("failed requests changed the mode to %s", m)
	}
}

func TestErrorHeadersOnTheWire(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{})
	rec := httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/oozie/v2/admin/nope", nil))
	// Oozie's lower-case spelling is kept verbatim in the header map.
	//lint:ignore SA1008 the non-canonical key is what is being checked
	if got := rec.Header()["oozie-error-code"]; len(got) != 1 || got[0] != oozieerr.E0301 {
		t.Errorf("header map %v lacks the lower-case oozie-error-code", rec.Header())
	}
}

func TestSystemMode(t *testing.T) {
	t.Parallel()
	type change struct{ from, to SystemMode }
	var mu sync.Mutex
	var changes []change
	write := func(w http.ResponseWriter, _ *http.Request) error {
		w.WriteHeader(http.StatusCreated)
		return nil
	}
	read := func(w http.ResponseWriter, _ *http.Request) error {
		return WriteJSON(w, http.StatusOK, map[string]int{"total": 0})
	}
	f := setup(t, Config{OnSystemModeChange: func(from, to SystemMode) {
		mu.Lock()
		defer mu.Unlock()
		changes = append(changes, change{from, to})
	}}, func(s *Server) {
		s.Handle(http.MethodPost, "/v{version:[12]}/jobs", auth.PermRead, write)
		s.Handle(http.MethodGet, "/v{version:[12]}/jobs", auth.PermRead, read)
		s.Handle(http.MethodPost, "/callback", auth.PermRead, write, AllowInSafeMode())
	})

	status := func() string {
		resp, body := f.call(t, http.MethodGet, "/oozie/v2/admin/status")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != ContentTypeJSON {
			t.Fatalf("GET status: %d %s", resp.StatusCode, body)
		}
		var v map[string]string
		if err := json.Unmarshal([]byte(body), &v); err != nil || len(v) != 1 {
			t.Fatalf("status body %q", body)
		}
		return v["systemMode"]
	}
	if got := status(); got != "NORMAL" {
		t.Fatalf("initial mode %q", got)
	}
	for _, tt := range []struct {
		param string
		mode  SystemMode
	}{
		{"SAFEMODE", ModeSafe},
		{"nowebservice", ModeNoWebService},
		{" NORMAL ", ModeNormal},
	} {
		resp, body := f.call(t, http.MethodPut, "/oozie/v1/admin/status?systemmode="+strings.ReplaceAll(tt.param, " ", "+"))
		if resp.StatusCode != http.StatusOK || body != "" {
			t.Fatalf("PUT %s: %d %q", tt.param, resp.StatusCode, body)
		}
		if got := status(); got != string(tt.mode) {
			t.Fatalf("after PUT %s mode is %s", tt.param, got)
		}
		if f.srv.SystemMode() != tt.mode {
			t.Fatalf("SystemMode() = %s", f.srv.SystemMode())
		}
		// The effect of the mode on other endpoints.
		wantWrite := http.StatusCreated
		if tt.mode != ModeNormal {
			wantWrite = http.StatusServiceUnavailable
		}
		resp, body = f.call(t, http.MethodPost, "/oozie/v1/jobs")
		if wantWrite == http.StatusServiceUnavailable {
			checkError(t, resp, body, 503, "E0002", "System is in safe mode")
		} else if resp.StatusCode != wantWrite {
			t.Errorf("%s: POST jobs %d", tt.mode, resp.StatusCode)
		}
		if resp, _ := f.call(t, http.MethodGet, "/oozie/v2/jobs"); resp.StatusCode != http.StatusOK {
			t.Errorf("%s: GET jobs %d, reads must work in every mode", tt.mode, resp.StatusCode)
		}
		if resp, _ := f.call(t, http.MethodPost, "/oozie/callback"); resp.StatusCode != http.StatusCreated {
			t.Errorf("%s: callback %d, AllowInSafeMode routes must work", tt.mode, resp.StatusCode)
		}
	}
	// Setting the current mode again is not a change.
	if resp, _ := f.call(t, http.MethodPut, "/oozie/v2/admin/status?systemmode=NORMAL"); resp.StatusCode != http.StatusOK {
		t.Fatal("PUT NORMAL twice failed")
	}
	mu.Lock()
	defer mu.Unlock()
	want := []change{{ModeNormal, ModeSafe}, {ModeSafe, ModeNoWebService}, {ModeNoWebService, ModeNormal}}
	if fmt.Sprint(changes) != fmt.Sprint(want) {
		t.Errorf("OnSystemModeChange calls %v, want %v", changes, want)
	}
	if err := f.srv.SetSystemMode("PAUSED"); err == nil || f.srv.SystemMode() != ModeNormal {
		t.Errorf("SetSystemMode(PAUSED) = %v, mode %s", err, f.srv.SystemMode())
	}
}

func TestHandlerErrors(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{}, func(s *Server) {
		s.Handle(http.MethodGet, "/v2/jobs", auth.PermRead, func(http.ResponseWriter, *http.Request) error {
			return errors.New("database is down")
		})
		s.Handle(http.MethodPut, "/v2/jobs", auth.PermRead, func(http.ResponseWriter, *http.Request) error {
			return fmt.Errorf("checking filter: %w", NewError(http.StatusBadRequest, "E0420", "Invalid jobs filter [%s], %s", "x=1", "bad name"))
		})
		s.Handle(http.MethodDelete, "/v2/jobs", auth.PermRead, func(http.ResponseWriter, *http.Request) error {
			panic("handler bug")
		})
		s.Handle(http.MethodPost, "/v2/jobs", auth.PermRead, func(w http.ResponseWriter, _ *http.Request) error {
			w.WriteHeader(http.StatusAccepted)
			return errors.New("too late to report")
		})
	})
	resp, body := f.call(t, http.MethodGet, "/oozie/v2/jobs")
	checkError(t, resp, body, 500, "E0307", "E0307: Runtime error [database is down]")
	resp, body = f.call(t, http.MethodPut, "/oozie/v2/jobs")
	checkError(t, resp, body, 400, "E0420", "E0420: Invalid jobs filter [x=1], bad name")
	resp, body = f.call(t, http.MethodDelete, "/oozie/v2/jobs")
	checkError(t, resp, body, 500, "E0307", "E0307: Runtime error [panic: handler bug]")
	resp, body = f.call(t, http.MethodPost, "/oozie/v2/jobs")
	if resp.StatusCode != http.StatusAccepted || resp.Header.Get(HeaderErrorCode) != "" || body != "" {
		t.Errorf("error after the response started changed it: %d %q", resp.StatusCode, body)
	}
	// The server keeps serving after the panic.
	if resp, _ := f.call(t, http.MethodGet, "/oozie/versions"); resp.StatusCode != http.StatusOK {
		t.Errorf("after a panic: %d", resp.StatusCode)
	}
}

func TestErrorMessageOnOneLine(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{}, func(s *Server) {
		s.Handle(http.MethodGet, "/v2/validate", auth.PermRead, func(http.ResponseWriter, *http.Request) error {
			return NewError(http.StatusBadRequest, "E0701", "XML schema error, line 3:\r\nbad element")
		})
	})
	resp, body := f.call(t, http.MethodGet, "/oozie/v2/validate")
	if got := resp.Header.Get(HeaderErrorMessage); got != "E0701: XML schema error, line 3: bad element" {
		t.Errorf("header message %q", got)
	}
	if !strings.Contains(body, `line 3:\r\nbad element`) {
		t.Errorf("body lost the original message: %s", body)
	}
}

func TestBuildVersion(t *testing.T) {
	t.Parallel()
	build := BuildInfo{Version: "1.2.3", User: "ci", Time: "2025-01-27T09:18:57Z", Revision: "abc123", URL: "https://example.com/gozie.git"}
	f := setup(t, Config{Build: build})
	for _, v := range []string{"v1", "v2"} {
		resp, body := f.call(t, http.MethodGet, "/oozie/"+v+"/admin/build-version")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", v, resp.StatusCode)
		}
		var got struct {
			BuildVersion string            `json:"buildVersion"`
			BuildInfo    map[string]string `json:"buildInfo"`
		}
		if err := json.Unmarshal([]byte(body), &got); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"build.version": "1.2.3", "build.user": "ci", "build.time": "2025-01-27T09:18:57Z",
			"vc.revision": "abc123", "vc.url": "https://example.com/gozie.git"}
		if got.BuildVersion != "1.2.3" || fmt.Sprint(got.BuildInfo) != fmt.Sprint(want) {
			t.Errorf("%s: %s", v, body)
		}
	}
	if d := New(Config{Registry: prometheus.NewRegistry()}); d.cfg.Build.Version == "" {
		t.Error("default build info has no version")
	}
}

func TestConfiguration(t *testing.T) {
	t.Parallel()
	cfg := map[string]string{
		"gozie.http.address":           ":11000",
		"gozie.db.url":                 "postgres://gozie:hunter2@db:5432/gozie",
		"gozie.smtp.password":          "hunter2",
		"gozie.oauth.client-secret":    "s3cr3t",
		"gozie.kerberos.keytab":        "/etc/gozie.keytab",
		"gozie.api.token":              "t0k3n",
		"gozie.ssl.keystore.passwd":    "changeit",
		"gozie.store.credential.thing": "c",
	}
	f := setup(t, Config{Configuration: func() map[string]string { return cfg }})
	resp, body := f.call(t, http.MethodGet, "/oozie/v2/admin/configuration")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"gozie.http.address":           ":11000",
		"gozie.db.url":                 "postgres://gozie:xxxxx@db:5432/gozie",
		"gozie.smtp.password":          Masked,
		"gozie.oauth.client-secret":    Masked,
		"gozie.kerberos.keytab":        "/etc/gozie.keytab",
		"gozie.api.token":              Masked,
		"gozie.ssl.keystore.passwd":    Masked,
		"gozie.store.credential.thing": Masked,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("configuration\n got %v\nwant %v", got, want)
	}
	if strings.Contains(body, "hunter2") || cfg["gozie.smtp.password"] != "hunter2" {
		t.Error("secret leaked or the caller's map was modified")
	}

	empty := setup(t, Config{})
	if _, body := empty.call(t, http.MethodGet, "/oozie/v1/admin/configuration"); strings.TrimSpace(body) != "{}" {
		t.Errorf("no configuration: %q", body)
	}
}

func TestRouteLabel(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"/versions":                     "/oozie/versions",
		"/v{version:[12]}/admin/status": "/oozie/v{version}/admin/status",
		"/v{version:[12]}/job/{id}":     "/oozie/v{version}/job/{id}",
		"/v2/job/{id:[0-9]{7}-.*}/x":    "/oozie/v2/job/{id}/x",
	}
	for in, want := range tests {
		if got := routeLabel(in); got != want {
			t.Errorf("routeLabel(%q) = %q, want %q", in, got, want)
		}
	}
	// Handle accepts a path without its leading slash.
	f := setup(t, Config{}, func(s *Server) {
		s.Handle(http.MethodGet, "v2/sla", auth.PermRead, func(w http.ResponseWriter, _ *http.Request) error {
			return WriteJSON(w, http.StatusOK, []int{})
		})
	})
	if resp, _ := f.call(t, http.MethodGet, "/oozie/v2/sla"); resp.StatusCode != http.StatusOK {
		t.Errorf("route without leading slash: %d", resp.StatusCode)
	}
}

// TestWriteJSONSendsItsLength: a JSON answer carries its length and is not
// sent in chunks, however large.
func TestWriteJSONSendsItsLength(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 200<<10)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := WriteJSON(w, http.StatusOK, map[string]string{"conf": big}); err != nil {
			t.Error(err)
		}
	}))
	defer ts.Close()
	resp, err := http.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.TransferEncoding) != 0 || resp.ContentLength != int64(len(body)) || len(body) < len(big) {
		t.Errorf("transfer encoding %v, content length %d, body of %d bytes", resp.TransferEncoding, resp.ContentLength, len(body))
	}
}
