package hadoop

import (
	"context"
	"errors"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop/delegation"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/minidfs"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// Token lifetimes of the secure test clusters: seconds, on a clock the
// tests move forward.
const (
	testRenewInterval = 10 * time.Second
	testMaxLifetime   = 30 * time.Second
)

// testClock is the NameNode's and the Resolver's clock: the real time plus
// an offset a test advances, so a token expires without waiting.
type testClock struct{ offset atomic.Int64 }

func (c *testClock) now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *testClock) advance(d time.Duration) { c.offset.Add(int64(d)) }

// secureDFS is a Kerberos MiniDFS (nn/localhost) with short token
// lifetimes, on which gozie/localhost may act for bob and dave, and the KDC.
type secureDFS struct {
	m     *minidfs.MiniDFS
	k     *kdc.KDC
	clock *testClock
	conf  map[string]string // a client's configuration of the cluster
}

func startSecureDFS(t *testing.T, protection string, ha bool) *secureDFS {
	t.Helper()
	k := kdc.Start(t)
	k.AddService(t, "nn/localhost")
	k.AddService(t, "gozie/localhost")
	k.AddService(t, "rm/localhost")
	nnKT, err := keytab.Load(k.Keytab(t, "nn.keytab", "nn/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	clock := &testClock{}
	opts := minidfs.Options{
		Root: t.TempDir(), Superuser: "hdfs", Now: clock.now,
		Kerberos:           &ipc.KerberosOptions{Keytab: nnKT, Service: "nn", Host: "localhost"},
		TokenRenewInterval: testRenewInterval, TokenMaxLifetime: testMaxLifetime,
		NameNodeAddrs: []string{"localhost:0"},
		Conf: map[string]string{ipc.RPCProtectionKey: protection,
			"hadoop.proxyuser.gozie.users": "bob,dave", "hadoop.proxyuser.gozie.hosts": "127.0.0.1"},
	}
	if ha {
		opts.HA, opts.NameNodeAddrs = true, []string{"localhost:0", "localhost:0"}
	}
	m, err := minidfs.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	if ha {
		// nn2 active: a client must get past the standby nn1.
		if err := m.Failover(1); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.CreateHome("bob"); err != nil {
		t.Fatal(err)
	}
	conf := map[string]string{ipc.RPCProtectionKey: protection, "dfs.namenode.kerberos.principal": "nn/_HOST@" + kdc.Realm,
		TokenRenewIntervalKey: "10000"}
	maps.Copy(conf, m.ClientConf())
	return &secureDFS{m: m, k: k, clock: clock, conf: conf}
}

// login logs a service principal in from its keytab.
func (s *secureDFS) login(t *testing.T, principal string) *krbclient.Client {
	t.Helper()
	kt, err := keytab.Load(s.k.Keytab(t, strings.ReplaceAll(principal, "/", "_")+".keytab", principal))
	if err != nil {
		t.Fatal(err)
	}
	cl := krbclient.NewWithKeytab(principal, kdc.Realm, kt, s.k.Config(t), krbclient.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Destroy)
	return cl
}

// resolver returns a Resolver on the cluster with cfg's identity.
func (s *secureDFS) resolver(t *testing.T, cfg ResolverConfig) *Resolver {
	t.Helper()
	cfg.DefaultFS, cfg.Conf, cfg.Now = s.m.URI(), s.conf, s.clock.now
	r, err := NewResolver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestDelegationToken: the server (gozie/localhost, by proxy) gets an
// HDFS_DELEGATION_TOKEN for bob that rm may renew, with the NameNode's
// IP:port as its service, cached until most of its first life is gone;
// a Resolver holding only the token (TOKEN, DIGEST-MD5 at the cluster's
// qop) reads and writes as bob and may not act for anyone else; only rm
// renews it; the NameNode refuses it once expired and once cancelled,
// with Hadoop's InvalidToken messages.
func TestDelegationToken(t *testing.T) {
	t.Parallel()
	for _, protection := range []string{"authentication", "privacy"} {
		t.Run(protection, func(t *testing.T) {
			t.Parallel()
			s := startSecureDFS(t, protection, false)
			server := s.resolver(t, ResolverConfig{Kerberos: s.login(t, "gozie/localhost"), RequireUser: true})
			ctx := ctxT(t)
			tok, err := server.DelegationToken(ctx, s.m.URI(), "bob", "rm/localhost@"+kdc.Realm)
			if err != nil {
				t.Fatal(err)
			}
			_, port, _ := net.SplitHostPort(s.m.Addr())
			if tok.Kind != KindHDFSDelegationToken || tok.Service != "127.0.0.1:"+port {
				t.Errorf("token kind %q service %q, want %s for 127.0.0.1:%s", tok.Kind, tok.Service, KindHDFSDelegationToken, port)
			}
			id, err := delegation.Parse(tok.Identifier)
			if err != nil {
				t.Fatal(err)
			}
			if id.Owner != "bob" || id.RealUser != "gozie/localhost@"+kdc.Realm || id.Renewer != "rm" || id.Max().Sub(id.Issued()) != testMaxLifetime {
				t.Errorf("identifier %+v: want bob's, obtained by gozie/localhost, renewer rm, max life %v", id, testMaxLifetime)
			}
			again, err := server.DelegationToken(ctx, s.m.URI(), "bob", "rm/localhost@"+kdc.Realm)
			if err != nil || string(again.Identifier) != string(tok.Identifier) {
				t.Errorf("second DelegationToken: %v; want the cached token", err)
			}

			// Inside the container: the token alone, from the token file.
			asBob := s.resolver(t, ResolverConfig{User: "bob", Tokens: containerTokens(t, tok)})
			if err := asBob.WriteFile(ctx, "/user/bob/out/part-0", []byte("tokens"), 0o644); err != nil {
				t.Fatalf("writing with the token: %v", err)
			}
			if got, err := asBob.ReadFile(ctx, "/user/bob/out/part-0"); err != nil || string(got) != "tokens" {
				t.Fatalf("reading with the token: %q, %v", got, err)
			}
			if fi, err := asBob.Stat(ctx, "/user/bob/out/part-0"); err != nil || fi.Owner != "bob" {
				t.Errorf("Stat: %+v, %v; want a file of bob's", fi, err)
			}
			if err := asBob.MkdirAll(AsUser(ctx, "carol"), "/tmp/carol", 0o755); err == nil || !strings.Contains(err.Error(), "the delegation token is bob's") {
				t.Errorf("acting for carol with bob's token: %v, want a refusal", err)
			}

			// Only the renewer renews; the owner may not.
			if _, err := server.RenewDelegationToken(AsUser(ctx, "bob"), s.m.URI(), tok); !isRemote(err, ipc.AccessControlException, "bob tries to renew a token") {
				t.Errorf("renewal by bob: %v, want AccessControlException", err)
			}
			rm := s.resolver(t, ResolverConfig{Kerberos: s.login(t, "rm/localhost")})
			expiry, err := rm.RenewDelegationToken(ctx, s.m.URI(), tok)
			if err != nil {
				t.Fatalf("renewal by rm: %v", err)
			}
			if expiry.Before(s.clock.now()) || expiry.After(id.Max()) {
				t.Errorf("renewed until %v, want a time after now and before the max date %v", expiry, id.Max())
			}

			// Past its renew date the token is refused, and the server's
			// cache gives a new one.
			s.clock.advance(testRenewInterval + time.Second)
			late := s.resolver(t, ResolverConfig{User: "bob", Tokens: []Token{tok}})
			if _, err := late.Stat(ctx, "/user/bob"); err == nil || !strings.Contains(err.Error(), "is expired, current time: ") {
				t.Errorf("an expired token: %v, want InvalidToken ... is expired", err)
			}
			fresh, err := server.DelegationToken(ctx, s.m.URI(), "bob", "rm/localhost@"+kdc.Realm)
			if err != nil || string(fresh.Identifier) == string(tok.Identifier) {
				t.Fatalf("DelegationToken after the old one's renew date: %v; want a new token", err)
			}
			if _, err := s.resolver(t, ResolverConfig{User: "bob", Tokens: []Token{fresh}}).Stat(ctx, "/user/bob"); err != nil {
				t.Fatalf("the new token: %v", err)
			}

			// Cancelled by its owner, it is refused.
			if err := server.CancelDelegationToken(AsUser(ctx, "bob"), s.m.URI(), fresh); err != nil {
				t.Fatalf("cancel by bob: %v", err)
			}
			gone := s.resolver(t, ResolverConfig{User: "bob", Tokens: []Token{fresh}})
			if _, err := gone.Stat(ctx, "/user/bob"); err == nil || !strings.Contains(err.Error(), "can't be found in cache") {
				t.Errorf("a cancelled token: %v, want InvalidToken ... can't be found in cache", err)
			}
			next, err := server.DelegationToken(ctx, s.m.URI(), "bob", "rm/localhost@"+kdc.Realm)
			if err != nil || string(next.Identifier) == string(fresh.Identifier) {
				t.Errorf("DelegationToken after a cancel: %v; want a new token, not the cancelled one", err)
			}
		})
	}
}

// containerTokens writes a container's token file holding an AMRM token
// and tok, and reads it back as the launcher and the cluster tools do.
func containerTokens(t *testing.T, tok Token) []Token {
	t.Helper()
	path := filepath.Join(t.TempDir(), "container_tokens")
	creds := &Credentials{Tokens: map[string]Token{"amrm": {Kind: KindAMRMToken, Identifier: []byte("am")}, tok.Service: tok}}
	if err := WriteTokenFile(path, creds, TokenFormatWritable); err != nil {
		t.Fatal(err)
	}
	tokens, err := TokensFromEnv(func(k string) string {
		if k == TokenFileEnv {
			return path
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	return tokens
}

// isRemote reports whether err carries a RemoteError of class whose message
// contains msg.
func isRemote(err error, class, msg string) bool {
	var re *ipc.RemoteError
	return errors.As(err, &re) && re.Class == class && strings.Contains(re.Message, msg)
}

// TestDelegationTokenHA: a token for an HA nameservice comes from the
// active NameNode (past the standby nn1) with the service
// ha-hdfs:<nameservice>, and authenticates to either NameNode, across a
// failover.
func TestDelegationTokenHA(t *testing.T) {
	t.Parallel()
	s := startSecureDFS(t, "integrity", true)
	server := s.resolver(t, ResolverConfig{Kerberos: s.login(t, "gozie/localhost"), RequireUser: true})
	ctx := ctxT(t)
	tok, err := server.DelegationToken(ctx, "hdfs://"+s.m.Nameservice()+"/user/bob", "bob", "rm")
	if err != nil {
		t.Fatal(err)
	}
	if want := "ha-hdfs:" + s.m.Nameservice(); tok.Service != want {
		t.Errorf("service %q, want %q", tok.Service, want)
	}
	asBob := s.resolver(t, ResolverConfig{User: "bob", Tokens: []Token{tok}})
	if err := asBob.WriteFile(ctx, "/user/bob/ha", []byte("1"), 0o644); err != nil {
		t.Fatalf("writing with the token: %v", err)
	}
	if err := s.m.Failover(0); err != nil {
		t.Fatal(err)
	}
	after := s.resolver(t, ResolverConfig{User: "bob", Tokens: []Token{tok}})
	if fi, err := after.Stat(ctx, "/user/bob/ha"); err != nil || fi.Owner != "bob" {
		t.Errorf("Stat on nn1 after the failover: %+v, %v", fi, err)
	}
}

// TestDelegationTokenSimple: a NameNode without security issues no token.
func TestDelegationTokenSimple(t *testing.T) {
	t.Parallel()
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := NewResolver(ResolverConfig{DefaultFS: m.URI(), User: "gozie"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.DelegationToken(ctxT(t), m.URI(), "gozie", "rm"); !errors.Is(err, ErrNoDelegationToken) {
		t.Errorf("DelegationToken from a SIMPLE NameNode: %v, want ErrNoDelegationToken", err)
	}
}

// TestTokensFromEnvSelect: a container's token file (AMRM and HDFS
// tokens, for two filesystems) gives the Resolver the token whose kind is
// HDFS_DELEGATION_TOKEN and whose service is the filesystem's.
func TestTokensFromEnvSelect(t *testing.T) {
	t.Parallel()
	conf := map[string]string{"dfs.ha.namenodes.ns1": "nn1,nn2",
		"dfs.namenode.rpc-address.ns1.nn1": "127.0.0.1:1", "dfs.namenode.rpc-address.ns1.nn2": "127.0.0.1:2"}
	creds := &Credentials{Tokens: map[string]Token{
		"amrm":   {Kind: KindAMRMToken, Identifier: []byte("a")},
		"ha":     {Kind: KindHDFSDelegationToken, Service: "ha-hdfs:ns1", Identifier: []byte("ns1")},
		"plain":  {Kind: KindHDFSDelegationToken, Service: "127.0.0.1:8020", Identifier: []byte("nn")},
		"rmlike": {Kind: KindRMDelegationToken, Service: "127.0.0.1:9000", Identifier: []byte("rm")},
	}}
	path := filepath.Join(t.TempDir(), "container_tokens")
	if err := WriteTokenFile(path, creds, TokenFormatWritable); err != nil {
		t.Fatal(err)
	}
	tokens, err := TokensFromEnv(func(k string) string {
		if k == TokenFileEnv {
			return path
		}
		return ""
	})
	if err != nil || len(tokens) != 4 {
		t.Fatalf("TokensFromEnv: %d tokens, %v", len(tokens), err)
	}
	for authority, want := range map[string]string{"ns1": "ns1", "localhost:8020": "nn", "127.0.0.1:8020": "nn", "127.0.0.1:9000": ""} {
		got, ok := TokenForFilesystem(tokens, conf, authority)
		if string(got.Identifier) != want || ok != (want != "") {
			t.Errorf("TokenForFilesystem(%s) = %q, %v; want %q", authority, got.Identifier, ok, want)
		}
	}
	if none, err := TokensFromEnv(os.Getenv); err != nil || (os.Getenv(TokenFileEnv) == "" && len(none) != 0) {
		t.Errorf("TokensFromEnv without a file: %v, %v", none, err)
	}
}
