package auth_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/spnego"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/testenv/kdc"
)

// kerberosEnv is a KDC with the principals of the Kerberos tests: the users alice and
// hue/gw1 (keytabs alice.keytab, hue.keytab), the service HTTP/localhost (http.keytab) and
// another service HTTP/elsewhere that the server has no key of.
type kerberosEnv struct {
	*kdc.KDC
	httpKeytab string
}

func newKerberosEnv(t *testing.T) *kerberosEnv {
	t.Helper()
	k := kdc.Start(t)
	k.AddUser(t, "alice", "alicepw")
	k.AddUser(t, "hue/gw1", "huepw")
	k.AddService(t, "HTTP/localhost")
	k.AddService(t, "HTTP/elsewhere")
	return &kerberosEnv{KDC: k, httpKeytab: k.Keytab(t, "http.keytab", "HTTP/localhost")}
}

// login logs a user in with its keytab.
func (e *kerberosEnv) login(t *testing.T, name string) *krbclient.Client {
	t.Helper()
	kt, err := keytab.Load(e.Keytab(t, strings.ReplaceAll(name, "/", "_")+".keytab", name))
	if err != nil {
		t.Fatal(err)
	}
	cl := krbclient.NewWithKeytab(name, kdc.Realm, kt, e.Config(t), krbclient.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		t.Fatalf("login %s: %v", name, err)
	}
	t.Cleanup(cl.Destroy)
	return cl
}

// negotiate adds a fresh SPNEGO token of cl for spn (gokrb5 refuses a replayed one).
func negotiate(t *testing.T, cl *krbclient.Client, spn string) func(*http.Request) {
	return func(r *http.Request) {
		if err := spnego.SetSPNEGOHeader(cl, r, spn); err != nil {
			t.Fatalf("SPNEGO token: %v", err)
		}
	}
}

func TestKerberos(t *testing.T) {
	t.Parallel()
	e := newKerberosEnv(t)
	clock := &testClock{now: time.Now()}
	ts := newServer(t, auth.Config{Type: auth.TypeKerberos, KeytabFile: e.httpKeytab, Principal: "HTTP/localhost@" + kdc.Realm,
		Validity: time.Hour, Now: clock.Now})
	whoURL := ts.URL + whoamiPath
	alice := e.login(t, "alice")

	// Without a token: 401, Negotiate, Oozie's error headers; /versions too.
	for _, u := range []string{whoURL, ts.URL + server.ContextPath + "/versions"} {
		r := get(t, u, url.Values{auth.ParamUser: {"alice"}})
		if r.status != http.StatusUnauthorized || r.negot != "Negotiate" || r.code != oozieerr.E0500 {
			t.Fatalf("GET %s without a token: %+v, want 401 Negotiate E0500", u, r)
		}
	}
	// /metrics and the callback stay open.
	if r := get(t, ts.URL+server.MetricsPath, nil); r.status != http.StatusOK {
		t.Errorf("/metrics without a token: %+v", r)
	}
	if r := get(t, ts.URL+server.ContextPath+"/callback", nil); r.status == http.StatusUnauthorized {
		t.Errorf("callback without a token: %+v", r)
	}

	// A token for HTTP/localhost authenticates alice and earns a cookie.
	r := get(t, whoURL, nil, negotiate(t, alice, "HTTP/localhost"))
	if r.status != http.StatusOK || r.who.User != "alice" || r.who.RealUser != "alice" {
		t.Fatalf("with a token: %+v", r)
	}
	if !strings.HasPrefix(r.negot, "Negotiate ") {
		t.Errorf("WWW-Authenticate after success = %q, want the accept-completed token", r.negot)
	}
	if r.cookie == nil || !strings.HasPrefix(r.cookie.Value, "u=alice&p=alice@TEST.LOCAL&t=kerberos&e=") {
		t.Fatalf("cookie = %+v", r.cookie)
	}
	cookie := r.cookie.Value

	// The cookie alone is enough...
	r = get(t, whoURL, nil, withCookie(cookie))
	if r.status != http.StatusOK || r.who.User != "alice" {
		t.Fatalf("with the cookie: %+v", r)
	}
	// ...unless tampered with,
	for _, bad := range []string{
		strings.Replace(cookie, "u=alice", "u=admin", 1),
		cookie[:len(cookie)-4] + "AAA=",
		strings.Replace(cookie, "&s=", "&x=", 1),
	} {
		r = get(t, whoURL, nil, withCookie(bad))
		if r.status != http.StatusUnauthorized || r.negot != "Negotiate" || r.cookie == nil || r.cookie.MaxAge >= 0 {
			t.Errorf("tampered cookie %q: %+v, want 401 and the cookie cleared", bad, r)
		}
	}
	// ...or expired; a fresh token then works again with the stale cookie still sent.
	clock.Advance(time.Hour + time.Second)
	if r = get(t, whoURL, nil, withCookie(cookie)); r.status != http.StatusUnauthorized {
		t.Errorf("expired cookie: %+v, want 401", r)
	}
	r = get(t, whoURL, nil, withCookie(cookie), negotiate(t, alice, "HTTP/localhost"))
	if r.status != http.StatusOK || r.who.User != "alice" || r.cookie == nil || r.cookie.Value == cookie || r.cookie.MaxAge < 0 {
		t.Errorf("expired cookie and a token: %+v, want alice with a new cookie", r)
	}

	// A token for a service the server holds no key of, and garbage, are refused.
	r = get(t, whoURL, nil, negotiate(t, alice, "HTTP/elsewhere"))
	if r.status != http.StatusUnauthorized || r.code != oozieerr.E0500 || r.negot != "Negotiate" {
		t.Errorf("token for another service: %+v", r)
	}
	r = get(t, whoURL, nil, withHeader("Authorization", "Negotiate bm90IGEgdG9rZW4="))
	if r.status != http.StatusUnauthorized || r.code != oozieerr.E0500 {
		t.Errorf("garbage token: %+v", r)
	}
}

func TestKerberosCookieOfSimpleScheme(t *testing.T) {
	t.Parallel()
	e := newKerberosEnv(t)
	secret := []byte("one-secret-for-all")
	simple := newServer(t, auth.Config{Secret: secret})
	krb := newServer(t, auth.Config{Type: auth.TypeKerberos, KeytabFile: e.httpKeytab, Principal: "HTTP/localhost", Secret: secret})
	r := get(t, simple.URL+whoamiPath, url.Values{auth.ParamUser: {"alice"}})
	if r.cookie == nil {
		t.Fatal("no simple cookie")
	}
	// Same secret, other scheme: a simple token does not open a kerberos server.
	if r := get(t, krb.URL+whoamiPath, nil, withCookie(r.cookie.Value)); r.status != http.StatusUnauthorized {
		t.Errorf("simple cookie on a kerberos server: %+v", r)
	}
}

func TestKerberosDoAs(t *testing.T) {
	t.Parallel()
	e := newKerberosEnv(t)
	ts := newServer(t, auth.Config{Type: auth.TypeKerberos, KeytabFile: e.httpKeytab, Principal: "*",
		ProxyUsers: []auth.ProxyUser{{User: "hue", Hosts: []string{"127.0.0.1"}, Groups: []string{"*"}}}})
	hue, alice := e.login(t, "hue/gw1"), e.login(t, "alice")

	// hue/gw1@TEST.LOCAL is user hue, a proxy user from 127.0.0.1.
	r := get(t, ts.URL+whoamiPath, url.Values{auth.ParamDoAs: {"bob"}}, negotiate(t, hue, "HTTP/localhost"))
	if r.status != http.StatusOK || r.who.User != "bob" || r.who.RealUser != "hue" {
		t.Fatalf("hue as bob: %+v", r)
	}
	if r.cookie == nil || !strings.HasPrefix(r.cookie.Value, "u=hue&p=hue/gw1@TEST.LOCAL&") {
		t.Errorf("hue's cookie = %+v", r.cookie)
	}
	// The cookie carries the real user; doAs is checked again on every request.
	if r := get(t, ts.URL+whoamiPath, url.Values{auth.ParamDoAs: {"carol"}}, withCookie(r.cookie.Value)); r.who.User != "carol" {
		t.Errorf("hue's cookie as carol: %+v", r)
	}
	// alice is no proxy user.
	r = get(t, ts.URL+whoamiPath, url.Values{auth.ParamDoAs: {"bob"}}, negotiate(t, alice, "HTTP/localhost"))
	if r.status != http.StatusUnauthorized || r.code != oozieerr.E1400 ||
		!strings.Contains(r.message, "[alice]") || !strings.Contains(r.message, "[bob]") || !strings.Contains(r.message, "127.0.0.1") {
		t.Errorf("alice as bob: %+v, want 401 E1400 naming alice, bob and the host", r)
	}
}

// TestKerberosSPNEGOClient drives the server with gokrb5's own SPNEGO client, which reacts
// to the 401 Negotiate answer and keeps the cookie in its jar.
func TestKerberosSPNEGOClient(t *testing.T) {
	t.Parallel()
	e := newKerberosEnv(t)
	ts := newServer(t, auth.Config{Type: auth.TypeKerberos, KeytabFile: e.httpKeytab, Hostname: "localhost"})
	// The default principal HTTP/_HOST stands for the host name: HTTP/localhost above, and a
	// name the keytab lacks here.
	if _, err := auth.New(auth.Config{Type: auth.TypeKerberos, KeytabFile: e.httpKeytab, Hostname: "gozie-test-host"}); err == nil ||
		!strings.Contains(err.Error(), "HTTP/gozie-test-host") {
		t.Errorf("New with a principal missing from the keytab: %v", err)
	}
	c := spnego.NewClient(e.login(t, "alice"), nil, "HTTP/localhost")
	for i := range 3 {
		resp, err := c.Get(ts.URL + whoamiPath)
		if err != nil {
			t.Fatal(err)
		}
		var who whoami
		err = json.NewDecoder(resp.Body).Decode(&who)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || who.User != "alice" {
			t.Fatalf("call %d: %s, %+v, %v", i, resp.Status, who, err)
		}
	}
}
