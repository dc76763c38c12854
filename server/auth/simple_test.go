package auth_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
)

func TestSimple(t *testing.T) {
	t.Parallel()
	clock := &testClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	ts := newServer(t, auth.Config{Type: auth.TypeSimple, Secret: []byte("s3cret"), Validity: time.Hour, Now: clock.Now})
	whoURL := ts.URL + whoamiPath

	// Anonymous requests are served, with an empty identity stored and no cookie.
	r := get(t, whoURL, nil)
	if r.status != http.StatusOK || r.who != (whoami{Stored: true}) || r.cookie != nil {
		t.Fatalf("anonymous: %+v", r)
	}

	// user.name authenticates and earns a signed cookie.
	r = get(t, whoURL, url.Values{auth.ParamUser: {"joe"}})
	if r.status != http.StatusOK || r.who != (whoami{User: "joe", RealUser: "joe", Stored: true}) {
		t.Fatalf("user.name=joe: %+v", r)
	}
	if r.cookie == nil {
		t.Fatal("no hadoop.auth cookie after authenticating")
	}
	wantPrefix := "u=joe&p=joe&t=simple&e=" + strconv.FormatInt(clock.Now().Add(time.Hour).UnixMilli(), 10) + "&s="
	if !strings.HasPrefix(r.cookie.Value, wantPrefix) || r.cookie.Path != "/" || !r.cookie.HttpOnly {
		t.Fatalf("cookie = %+v, want value %s... on path / and HttpOnly", r.cookie, wantPrefix)
	}
	cookie := r.cookie.Value

	// The cookie alone authenticates, and wins over user.name.
	for _, q := range []url.Values{nil, {auth.ParamUser: {"mallory"}}} {
		r = get(t, whoURL, q, withCookie(cookie))
		if r.status != http.StatusOK || r.who.User != "joe" || r.cookie != nil {
			t.Fatalf("cookie with query %v: %+v", q, r)
		}
	}

	// A cookie whose user was changed is ignored and cleared: the request is anonymous.
	forged := strings.Replace(cookie, "u=joe", "u=root", 1)
	r = get(t, whoURL, nil, withCookie(forged))
	if r.status != http.StatusOK || r.who.User != "" || r.cookie == nil || r.cookie.MaxAge >= 0 {
		t.Fatalf("forged cookie: %+v (want anonymous and the cookie cleared)", r)
	}

	// Past its expiry the cookie is ignored too.
	clock.Advance(time.Hour)
	r = get(t, whoURL, nil, withCookie(cookie))
	if r.status != http.StatusOK || r.who.User != "" {
		t.Fatalf("expired cookie: %+v", r)
	}
}

func TestSimpleAnonymousDenied(t *testing.T) {
	t.Parallel()
	ts := newServer(t, auth.Config{DenyAnonymous: true})
	for _, path := range []string{whoamiPath, server.ContextPath + "/versions", server.ContextPath + "/v2/admin/status"} {
		r := get(t, ts.URL+path, nil)
		if r.status != http.StatusUnauthorized || r.code != oozieerr.E0500 ||
			!strings.HasPrefix(r.message, "E0500: Not authorized, ") {
			t.Errorf("GET %s anonymously: %+v, want 401 E0500", path, r)
		}
		if r := get(t, ts.URL+path, url.Values{auth.ParamUser: {"joe"}}); r.status != http.StatusOK {
			t.Errorf("GET %s as joe: %+v", path, r)
		}
	}
	// The callback and /metrics stay open.
	if r := get(t, ts.URL+server.MetricsPath, nil); r.status != http.StatusOK {
		t.Errorf("GET /metrics anonymously: %+v", r)
	}
	for _, path := range []string{"/callback", "/callback/x"} {
		if r := get(t, ts.URL+server.ContextPath+path, nil); r.status == http.StatusUnauthorized {
			t.Errorf("GET %s anonymously: %+v, want no authentication", path, r)
		}
	}
}

func TestSimpleCookieOfOtherSchemeOrSecret(t *testing.T) {
	t.Parallel()
	secret := []byte("one-secret-for-all-servers")
	a := newServer(t, auth.Config{Secret: secret, DenyAnonymous: true})
	other := newServer(t, auth.Config{Secret: []byte("another"), DenyAnonymous: true})
	r := get(t, a.URL+whoamiPath, url.Values{auth.ParamUser: {"joe"}})
	if r.cookie == nil {
		t.Fatal("no cookie")
	}
	// Another secret does not verify it; the same secret does.
	if r2 := get(t, other.URL+whoamiPath, nil, withCookie(r.cookie.Value)); r2.status != http.StatusUnauthorized {
		t.Errorf("cookie of another secret: %+v", r2)
	}
	same := newServer(t, auth.Config{Secret: secret, DenyAnonymous: true})
	if r2 := get(t, same.URL+whoamiPath, nil, withCookie(r.cookie.Value)); r2.status != http.StatusOK || r2.who.User != "joe" {
		t.Errorf("cookie of the same secret: %+v", r2)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	t.Parallel()
	for name, cfg := range map[string]auth.Config{
		"unknown type":        {Type: "basic"},
		"kerberos, no keytab": {Type: auth.TypeKerberos},
		"missing keytab":      {Type: auth.TypeKerberos, KeytabFile: t.TempDir() + "/none.keytab"},
		"bad CIDR":            {ProxyUsers: []auth.ProxyUser{{User: "hue", Hosts: []string{"10.0.0.0/99"}, Groups: []string{"*"}}}},
		"duplicate proxy":     {ProxyUsers: []auth.ProxyUser{{User: "hue", Hosts: []string{"*"}}, {User: "hue", Hosts: []string{"*"}}}},
	} {
		if _, err := auth.New(cfg); err == nil {
			t.Errorf("%s: New accepted %+v", name, cfg)
		}
	}
}
