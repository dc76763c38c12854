package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/gozie/gozie/server"
	"github.com/prometheus/client_golang/prometheus"
)

// setup starts a real gozie REST server on a loopback port and returns a client of it.
func setup(t *testing.T) (*Client, *server.Server) {
	t.Helper()
	s := server.New(server.Config{
		Registry: prometheus.NewRegistry(),
		Build:    server.BuildInfo{Version: "1.0.0", Revision: "abc"},
	})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	c, err := New(ts.URL+server.ContextPath+"/", ts.Client())
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

func TestStatusAndSystemMode(t *testing.T) {
	t.Parallel()
	c, s := setup(t)
	ctx := context.Background()
	mode, err := c.Status(ctx)
	if err != nil || mode != "NORMAL" {
		t.Fatalf("Status = %q, %v", mode, err)
	}
	if err := c.SetSystemMode(ctx, "SAFEMODE"); err != nil {
		t.Fatal(err)
	}
	if s.SystemMode() != server.ModeSafe {
		t.Errorf("server mode %s after SetSystemMode(SAFEMODE)", s.SystemMode())
	}
	if mode, err := c.Status(ctx); err != nil || mode != "SAFEMODE" {
		t.Errorf("Status = %q, %v", mode, err)
	}
	err = c.SetSystemMode(ctx, "FOO")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("SetSystemMode(FOO) = %v, want *Error", err)
	}
	want := Error{StatusCode: 400, Code: "E0303", Message: "E0303: Invalid parameter value, [systemmode] = [FOO]"}
	if *e != want {
		t.Errorf("error %+v, want %+v", *e, want)
	}
	if got := err.Error(); got != "E0303: Invalid parameter value, [systemmode] = [FOO] (HTTP 400)" {
		t.Errorf("Error() = %q", got)
	}
}

func TestBuildVersionAndVersions(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	bv, err := c.BuildVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if bv.Version != "1.0.0" || bv.Info["vc.revision"] != "abc" || bv.Info["build.version"] != "1.0.0" {
		t.Errorf("BuildVersion = %+v", bv)
	}
	v, err := c.Versions(context.Background())
	if err != nil || !reflect.DeepEqual(v, []int{0, 1, 2}) {
		t.Errorf("Versions = %v, %v", v, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    Error
	}{
		{
			name: "oozie headers",
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("oozie-error-code", "E0002")
				w.Header().Set("oozie-error-message", "System is in safe mode")
				w.WriteHeader(http.StatusServiceUnavailable)
			},
			want: Error{StatusCode: 503, Code: "E0002", Message: "System is in safe mode"},
		},
		{
			name: "json body only",
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"errorCode":"E0305","errorMessage":"E0305: Missing parameter [systemmode]"}`))
			},
			want: Error{StatusCode: 400, Code: "E0305", Message: "E0305: Missing parameter [systemmode]"},
		},
		{
			name: "plain proxy error",
			handler: func(w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "upstream unavailable", http.StatusBadGateway)
			},
			want: Error{StatusCode: 502, Message: "502 Bad Gateway upstream unavailable"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts := httptest.NewServer(tt.handler)
			defer ts.Close()
			c, err := New(ts.URL+"/oozie", ts.Client())
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Status(context.Background())
			var e *Error
			if !errors.As(err, &e) || *e != tt.want {
				t.Errorf("error %#v, want %+v", err, tt.want)
			}
		})
	}
}

func TestBadResponses(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/status") {
			w.Write([]byte(`{"other":1}`))
			return
		}
		w.Write([]byte(`not json`))
	}))
	defer ts.Close()
	c, err := New(ts.URL+"/oozie", ts.Client())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Status(context.Background()); err == nil {
		t.Error("Status accepted a response without systemMode")
	}
	if _, err := c.BuildVersion(context.Background()); err == nil || !strings.Contains(err.Error(), "decoding response") {
		t.Errorf("BuildVersion on bad JSON: %v", err)
	}
	addr := ts.URL
	ts.Close()
	c2, _ := New(addr+"/oozie", nil)
	if _, err := c2.Versions(context.Background()); err == nil {
		t.Error("no error from a closed server")
	}
}

func TestNewRejectsBadURLs(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"", "localhost:11000/oozie", "ftp://host/oozie", "http://", "http://[::1/oozie"} {
		if _, err := New(u, nil); err == nil {
			t.Errorf("New(%q) accepted", u)
		}
	}
}
