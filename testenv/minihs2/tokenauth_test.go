package minihs2

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"

	"github.com/beltran/gohive"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/yarn"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// tokenConnect opens a session over the binary transport authenticated
// with tok (DIGEST-MD5, as the JDBC driver's auth=delegationToken does).
func tokenConnect(s *Server, tok hadoop.Token) (*gohive.Connection, error) {
	host, portStr, _ := net.SplitHostPort(s.Addr())
	port, _ := strconv.Atoi(portStr)
	cfg := gohive.NewConnectConfiguration()
	cfg.ConnectTimeout = 10 * time.Second
	cfg.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		sc, err := hive2.SASLToken(c, tok)
		if err != nil {
			c.Close()
			return nil, err
		}
		return sc, nil
	}
	return gohive.Connect(host, port, "NOSASL", cfg)
}

// TestDelegationTokenSessionRunsAsOwner: a HIVE_DELEGATION_TOKEN that gozie
// obtained for alice (Kerberos, proxy-user rules) authenticates a binary
// connection with DIGEST-MD5 and no Kerberos ticket, and the session runs
// as alice.
func TestDelegationTokenSessionRunsAsOwner(t *testing.T) {
	t.Parallel()
	k := kdc.Start(t)
	k.AddUser(t, "gozie/localhost", "gozie-pw")
	k.AddService(t, "hive/localhost")
	kt, err := keytab.Load(k.Keytab(t, "hive.keytab", "hive/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	gozie := krbclient.NewWithPassword("gozie/localhost", kdc.Realm, "gozie-pw", k.Config(t), krbclient.DisablePAFXFAST(true))
	if err := gozie.Login(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(gozie.Destroy)
	s, err := Start(context.Background(), Options{FS: &hadoop.LocalFS{}, Auth: AuthKerberos, Addr: "localhost:0",
		Kerberos:   &KerberosOptions{Keytab: kt, Principal: kdc.Principal("hive/localhost")},
		HadoopConf: map[string]string{"hadoop.proxyuser.gozie.users": "alice", "hadoop.proxyuser.gozie.hosts": "*"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url, principal := hive2.CutPrincipal(s.JDBCURL("default"))
	tok, err := hive2.FetchDelegationToken(context.Background(), gozie,
		conf.NewProperties(hive2.CredentialJDBCURL, url, hive2.CredentialPrincipal, principal), "alice")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := tokenConnect(s, tok)
	if err != nil {
		t.Fatalf("connecting with alice's token: %v", err)
	}
	defer conn.Close()
	cur := conn.Cursor()
	cur.Exec(context.Background(), "SHOW DATABASES")
	if cur.Err != nil {
		t.Fatal(cur.Err)
	}
	cur.Close()
	stmts := s.Statements()
	if len(stmts) != 1 || stmts[0].User != "alice" {
		t.Fatalf("statements %+v, want one run as alice", stmts)
	}
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestDelegationTokenRefusals: a token past its renew date, a cancelled
// one, one another server issued and one with a wrong password are
// refused with Java's DIGEST-MD5 messages, the secret manager's reason in
// the server's log; without AuthKerberos DIGEST-MD5 is not offered at all.
// No Kerberos exchange happens, so the keytab needs no KDC.
func TestDelegationTokenRefusals(t *testing.T) {
	t.Parallel()
	kt := keytab.New()
	if err := kt.AddEntry("hive/localhost", kdc.Realm, "unused", time.Now(), 1, 18); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	logs := &syncBuffer{}
	opts := Options{FS: &hadoop.LocalFS{}, Auth: AuthKerberos, Now: clock,
		Kerberos: &KerberosOptions{Keytab: kt, Principal: kdc.Principal("hive/localhost")},
		Logger:   slog.New(slog.NewTextHandler(logs, nil))}
	s, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	issue := func(srv *Server) (hadoop.Token, string) {
		s := srv.tokens.issue("alice", "hive/localhost@"+kdc.Realm, "gozie/localhost@"+kdc.Realm, clock())
		tok, err := yarn.DecodeTokenURLString(s)
		if err != nil {
			t.Fatal(err)
		}
		return tok, s
	}

	good, _ := issue(s)
	conn, err := tokenConnect(s, good)
	if err != nil {
		t.Fatalf("a live token: %v", err)
	}
	conn.Close()

	cancelled, cancelledStr := issue(s)
	if err := s.tokens.cancel(cancelledStr, "alice"); err != nil {
		t.Fatal(err)
	}
	expired, _ := issue(s)
	mu.Lock()
	now = now.Add(25 * time.Hour) // past the default renew interval of a day
	mu.Unlock()
	forged, _ := issue(s)
	forged.Password = []byte("not the password")
	foreign, _ := issue(other)

	for _, tt := range []struct {
		name     string
		tok      hadoop.Token
		msg, log string
	}{
		{"cancelled", cancelled, msgTokenRefused, "token expired or does not exist: HIVE_DELEGATION_TOKEN owner=alice, renewer=hive"},
		{"foreign", foreign, msgTokenRefused, "token expired or does not exist"},
		{"expired", expired, msgTokenRefused, ") is expired, current time: "},
		{"wrong password", forged, msgMismatchedDigest, ""},
	} {
		_, err := tokenConnect(s, tt.tok)
		if err == nil || !strings.Contains(err.Error(), "refused by HiveServer2: "+tt.msg) {
			t.Errorf("%s token: %v, want %q", tt.name, err, tt.msg)
		}
		if tt.log != "" && !strings.Contains(logs.String(), tt.log) {
			t.Errorf("%s token: the log does not say %q:\n%s", tt.name, tt.log, logs.String())
		}
	}

	plain, err := Start(context.Background(), Options{FS: &hadoop.LocalFS{}})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, err := tokenConnect(plain, good); err == nil || !strings.Contains(err.Error(), "Unsupported mechanism type DIGEST-MD5") {
		t.Errorf("DIGEST-MD5 without Kerberos: %v", err)
	}
}
