package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/testenv/kdc"
)

// identity is the answer of the test route whoami.
type identity struct {
	User     string `json:"user"`
	RealUser string `json:"realUser"`
	Body     string `json:"body"`
}

// authSetup starts a real REST server with authentication cfg and a route that echoes the
// identity and the request body, and returns its base URL.
func authSetup(t *testing.T, cfg auth.Config) string {
	t.Helper()
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := server.New(server.Config{Registry: prometheus.NewRegistry(), Authenticator: a})
	s.Handle(http.MethodPost, "/v2/whoami", auth.PermRead, func(w http.ResponseWriter, r *http.Request) error {
		id, _ := auth.FromContext(r.Context())
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		return server.WriteJSON(w, http.StatusOK, identity{User: id.User, RealUser: id.RealUser, Body: string(b)})
	})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts.URL + server.ContextPath
}

// authClient returns a client of base that authenticates with a.
func authClient(t *testing.T, base string, a Auth) *Client {
	t.Helper()
	tr, err := NewAuthTransport(a)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(base, &http.Client{Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// whoami posts body to the echo route.
func whoami(c *Client, body string) (identity, error) {
	var id identity
	err := c.call(context.Background(), request{method: http.MethodPost, path: "v2/whoami", body: []byte(body),
		contentType: "text/plain"}, &id)
	return id, err
}

func TestSimpleAuthTransport(t *testing.T) {
	t.Parallel()
	base := authSetup(t, auth.Config{DenyAnonymous: true,
		ProxyUsers: []auth.ProxyUser{{User: "hue", Hosts: []string{"127.0.0.1"}, Groups: []string{"*"}}}})

	id, err := whoami(authClient(t, base, Auth{User: "joe"}), "x")
	if err != nil || id != (identity{User: "joe", RealUser: "joe", Body: "x"}) {
		t.Errorf("SIMPLE as joe: %+v, %v", id, err)
	}
	id, err = whoami(authClient(t, base, Auth{Type: "simple", User: "hue", DoAs: "alice"}), "")
	if err != nil || id != (identity{User: "alice", RealUser: "hue"}) {
		t.Errorf("SIMPLE as hue for alice: %+v, %v", id, err)
	}
	var ce *Error
	_, err = whoami(authClient(t, base, Auth{User: "joe", DoAs: "alice"}), "")
	if !errors.As(err, &ce) || ce.StatusCode != http.StatusUnauthorized || ce.Code != oozieerr.E1400 {
		t.Errorf("SIMPLE as joe for alice: %v, want 401 E1400", err)
	}
	_, err = whoami(authClient(t, base, Auth{}), "")
	if !errors.As(err, &ce) || ce.StatusCode != http.StatusUnauthorized || ce.Code != oozieerr.E0500 {
		t.Errorf("anonymous: %v, want 401 E0500", err)
	}
}

func TestNewAuthTransportRejects(t *testing.T) {
	t.Parallel()
	for _, a := range []Auth{{Type: "BASIC"}, {Type: "kerberos"}} {
		if _, err := NewAuthTransport(a); err == nil {
			t.Errorf("NewAuthTransport(%+v) accepted it", a)
		}
	}
}

func TestKerberosAuthTransport(t *testing.T) {
	t.Parallel()
	k := kdc.Start(t)
	k.AddUser(t, "alice", "alicepw")
	k.AddService(t, "HTTP/localhost")
	base := authSetup(t, auth.Config{Type: auth.TypeKerberos, KeytabFile: k.Keytab(t, "http.keytab", "HTTP/localhost"),
		Principal: "HTTP/localhost"})
	// The server listens on 127.0.0.1; the principal names localhost.
	base = strings.Replace(base, "127.0.0.1", "localhost", 1)
	aliceKeytab := k.Keytab(t, "alice.keytab", "alice")
	ccache := filepath.Join(t.TempDir(), "krb5cc")
	k.Kinit(t, kdc.Principal("alice"), aliceKeytab, ccache)
	tokens := &TokenCache{Path: filepath.Join(t.TempDir(), "tokens")}

	logins := 0
	fromCCache := func() (*krbclient.Client, error) {
		logins++
		return KerberosFromCCache("FILE:"+ccache, k.Krb5Conf)
	}
	c := authClient(t, base, Auth{Type: AuthKerberos, Kerberos: fromCCache, Tokens: tokens})
	for i := range 2 {
		// The body survives the 401 round trip.
		id, err := whoami(c, "payload")
		if err != nil || id != (identity{User: "alice", RealUser: "alice", Body: "payload"}) {
			t.Fatalf("call %d: %+v, %v", i, id, err)
		}
	}
	if logins != 1 {
		t.Errorf("%d Kerberos logins, want 1 (the second call uses the token)", logins)
	}
	fi, err := os.Stat(tokens.Path)
	if err != nil {
		t.Fatalf("token cache: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token cache mode %v, want 0600", fi.Mode().Perm())
	}
	origin := strings.TrimSuffix(base, server.ContextPath)
	tok := tokens.Get(origin)
	if !strings.HasPrefix(tok, "u=alice&p=alice@TEST.LOCAL&t=kerberos&") {
		t.Fatalf("cached token for %s = %q", origin, tok)
	}

	// Another process (transport) reuses the cached token without any ticket.
	noTicket := func() (*krbclient.Client, error) { return nil, errors.New("no ticket here") }
	if id, err := whoami(authClient(t, base, Auth{Type: AuthKerberos, Kerberos: noTicket, Tokens: tokens}), ""); err != nil || id.User != "alice" {
		t.Errorf("with the cached token only: %+v, %v", id, err)
	}
	// A token the server refuses leads to a new negotiation, whose token replaces it.
	if err := tokens.Put(origin, strings.Replace(tok, "u=alice", "u=root", 1)); err != nil {
		t.Fatal(err)
	}
	if id, err := whoami(authClient(t, base, Auth{Type: AuthKerberos, Kerberos: fromCCache, Tokens: tokens}), ""); err != nil || id.User != "alice" {
		t.Errorf("after a bad cached token: %+v, %v", id, err)
	}
	if got := tokens.Get(origin); got == "" || strings.Contains(got, "u=root") {
		t.Errorf("cached token after renegotiation = %q", got)
	}
	// Without a token and a ticket the error says why.
	_, err = whoami(authClient(t, base, Auth{Type: AuthKerberos, Kerberos: noTicket}), "")
	if err == nil || !strings.Contains(err.Error(), "no ticket here") {
		t.Errorf("no ticket: %v", err)
	}
	// A keytab login works the same.
	fromKeytab := func() (*krbclient.Client, error) { return KerberosFromKeytab(aliceKeytab, "alice", k.Krb5Conf) }
	if id, err := whoami(authClient(t, base, Auth{Type: AuthKerberos, Kerberos: fromKeytab}), ""); err != nil || id.User != "alice" {
		t.Errorf("keytab login: %+v, %v", id, err)
	}
}

func TestKerberosFromCCacheErrors(t *testing.T) {
	t.Parallel()
	conf := filepath.Join(t.TempDir(), "krb5.conf")
	if err := os.WriteFile(conf, []byte("[libdefaults]\n default_realm = TEST.LOCAL\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cc := range []string{"KEYRING:persistent:0", filepath.Join(t.TempDir(), "missing")} {
		if _, err := KerberosFromCCache(cc, conf); err == nil {
			t.Errorf("KerberosFromCCache(%q) succeeded", cc)
		}
	}
	if _, err := KerberosFromCCache("/tmp/x", filepath.Join(t.TempDir(), "no-krb5.conf")); err == nil {
		t.Error("a missing krb5.conf was accepted")
	}
}
