package hive2_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"

	"github.com/beltran/gohive"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/minihs2"
	"github.com/gozie/gozie/workflow"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// krbEnv is a KDC with the server principal gozie/localhost (allowed to
// act for alice, not for mallory) and HiveServer2's hive/localhost.
type krbEnv struct {
	kdc   *kdc.KDC
	gozie *krbclient.Client
	opts  minihs2.Options
}

func setupKerberos(t *testing.T) *krbEnv {
	t.Helper()
	k := kdc.Start(t)
	k.AddUser(t, "gozie/localhost", "gozie-pw")
	k.AddService(t, "hive/localhost")
	kt, err := keytab.Load(k.Keytab(t, "hive.keytab", "hive/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	cl := krbclient.NewWithPassword("gozie/localhost", kdc.Realm, "gozie-pw", k.Config(t), krbclient.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Destroy)
	return &krbEnv{kdc: k, gozie: cl, opts: minihs2.Options{
		Auth:     minihs2.AuthKerberos,
		Kerberos: &minihs2.KerberosOptions{Keytab: kt, Principal: kdc.Principal("hive/localhost")},
		HadoopConf: map[string]string{
			"hadoop.proxyuser.gozie.users": "alice",
			"hadoop.proxyuser.gozie.hosts": "*",
		},
	}}
}

// kerberosURL is the server's JDBC URL as a user writes it: _HOST for
// the host connected to.
// kerberized starts a Kerberized MiniHS2 on transport and an executor
// logged in as gozie's principal.
func kerberized(t *testing.T, transport minihs2.Transport) (*env, *hive2.Executor) {
	t.Helper()
	k := setupKerberos(t)
	opts := k.opts
	opts.Transport = transport
	e := setup(t, opts)
	cfg := testConfig(e.fs)
	cfg.Kerberos = k.gozie
	return e, newExecutor(t, cfg)
}

func kerberosURL(s *minihs2.Server) string {
	u := strings.Replace(s.JDBCURL("default"), "hive/localhost@", "hive/_HOST@", 1)
	return strings.Replace(u, "127.0.0.1:", "localhost:", 1)
}

// TestKerberosActsForTheUser: principal= URLs run over SASL GSSAPI
// (binary) and SPNEGO (HTTP) as gozie's principal, and HiveServer2 runs
// the session as the workflow's user through hive.server2.proxy.user.
func TestKerberosActsForTheUser(t *testing.T) {
	t.Parallel()
	for _, transport := range []minihs2.Transport{minihs2.Binary, minihs2.HTTP} {
		t.Run(string(transport), func(t *testing.T) {
			t.Parallel()
			e, ex := kerberized(t, transport)
			run := e.newRun("q", body(kerberosURL(e.hs2), query("CREATE TABLE IF NOT EXISTS t (a INT);\nINSERT INTO t VALUES (1);")))
			if _, err := ex.Start(ctxT(t), run); err != nil {
				t.Fatal(err)
			}
			if st := waitDone(t, ex, run); st.Outcome != workflow.OutcomeOK {
				t.Fatalf("run ended %+v", st)
			}
			stmts := e.hs2.Statements()
			if len(stmts) != 2 {
				t.Fatalf("statements %+v", stmts)
			}
			for _, st := range stmts {
				if st.User != "alice" {
					t.Errorf("%q ran as %q, want alice (gozie acting for her)", st.Text, st.User)
				}
			}
			testwait.WaitFor(t, testwait.Timeout, "the session to close", func() bool { return e.hs2.Sessions() == 0 })
		})
	}
}

// TestKerberosProxyRulesApply: a user gozie may not act for is refused,
// and so is a principal= URL when gozie has no Kerberos login.
func TestKerberosProxyRulesApply(t *testing.T) {
	t.Parallel()
	k := setupKerberos(t)
	opts := k.opts
	opts.HadoopConf = map[string]string{"hadoop.proxyuser.gozie.users": "bob", "hadoop.proxyuser.gozie.hosts": "*"}
	e := setup(t, opts)
	cfg := testConfig(e.fs)
	cfg.Kerberos = k.gozie
	run := e.newRun("q", body(kerberosURL(e.hs2), query("SELECT 1")))
	ex := newExecutor(t, cfg)
	if _, err := ex.Start(ctxT(t), run); err == nil || !strings.Contains(err.Error(), "refused to open a session for alice") {
		t.Fatalf("Start as alice: %v, want the refused session", err)
	}
	noLogin := newExecutor(t, testConfig(e.fs))
	run2 := e.newRun("q2", body(kerberosURL(e.hs2), query("SELECT 1")))
	if _, err := noLogin.Start(ctxT(t), run2); err == nil || !strings.Contains(err.Error(), "no Kerberos login") {
		t.Fatalf("Start without a login: %v", err)
	}
	if n := len(e.hs2.Statements()); n != 0 {
		t.Errorf("%d statements ran", n)
	}
}

// TestKerberosServerRefusesSimple: a Kerberos HiveServer2 turns away
// SASL PLAIN and NOSASL clients, so success above is not a fallback.
func TestKerberosServerRefusesSimple(t *testing.T) {
	t.Parallel()
	k := setupKerberos(t)
	e := setup(t, k.opts)
	host, port := "127.0.0.1", 0
	_, p, _ := strings.Cut(e.hs2.Addr(), ":")
	for _, c := range p {
		port = port*10 + int(c-'0')
	}
	for _, auth := range []string{"NONE", "NOSASL"} {
		cfg := gohive.NewConnectConfiguration()
		cfg.Username, cfg.ConnectTimeout, cfg.SocketTimeout = "alice", 5e9, 5e9
		conn, err := gohive.Connect(host, port, auth, cfg)
		if err == nil {
			conn.Close()
			t.Errorf("auth %s: a SIMPLE client opened a session", auth)
		}
	}
	if e.hs2.Sessions() != 0 {
		t.Errorf("%d sessions open", e.hs2.Sessions())
	}
}

// TestFetchDelegationToken: the hive2 credential gets a token owned by
// the job's user, renewable by HiveServer2's principal, over both
// transports; the server refuses it for a user gozie may not act for.
func TestFetchDelegationToken(t *testing.T) {
	t.Parallel()
	for _, transport := range []minihs2.Transport{minihs2.Binary, minihs2.HTTP} {
		t.Run(string(transport), func(t *testing.T) {
			t.Parallel()
			k := setupKerberos(t)
			opts := k.opts
			opts.Transport = transport
			e := setup(t, opts)
			url := strings.Replace(kerberosURL(e.hs2), ";principal=hive/_HOST@"+kdc.Realm, "", 1)
			props := conf.NewProperties(hive2.CredentialJDBCURL, url, hive2.CredentialPrincipal, "hive/_HOST@"+kdc.Realm)
			tok, err := hive2.FetchDelegationToken(context.Background(), k.gozie, props, "alice")
			if err != nil {
				t.Fatal(err)
			}
			if tok.Kind != hive2.TokenKind || tok.Service != minihs2.TokenService || len(tok.Password) == 0 {
				t.Errorf("token kind %q service %q password %d bytes", tok.Kind, tok.Service, len(tok.Password))
			}
			// identifier: version 0, owner, renewer (short names), real user
			if id := string(tok.Identifier); !strings.HasPrefix(id, "\x00\x05alice\x04hive\x1agozie/localhost@"+kdc.Realm) {
				t.Errorf("identifier %q", id)
			}
			if _, err := hive2.FetchDelegationToken(context.Background(), k.gozie, props, "mallory"); err == nil ||
				!strings.Contains(err.Error(), "not allowed to impersonate mallory") {
				t.Errorf("token for mallory: %v", err)
			}
		})
	}
}

func TestFetchDelegationTokenNeedsProperties(t *testing.T) {
	t.Parallel()
	for _, props := range []*conf.Properties{
		conf.NewProperties(hive2.CredentialPrincipal, "hive/_HOST@R"),
		conf.NewProperties(hive2.CredentialJDBCURL, "jdbc:hive2://h:1/default"),
	} {
		_, err := hive2.FetchDelegationToken(context.Background(), &krbclient.Client{}, props, "alice")
		if !errors.Is(err, hive2.ErrCredential) {
			t.Errorf("%v: %v, want ErrCredential", props.Map(), err)
		}
	}
}
