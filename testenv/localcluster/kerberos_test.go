package localcluster_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/beltran/gohive"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/hadoop/krblogin"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/testenv/minihs2"
	"github.com/gozie/gozie/yarn"
	"github.com/jcmturner/gokrb5/v8/spnego"
	"google.golang.org/protobuf/proto"
)

// TestKerberizedCluster: a -kerberos cluster refuses SIMPLE clients at
// the NameNode, the ResourceManager's REST API and HiveServer2, serves its
// user logged in from the keytab local-cluster.properties names, and keeps
// its realm across a restart on the same directory.
func TestKerberizedCluster(t *testing.T) {
	t.Parallel()
	if err := kdc.Available(); err != nil {
		testreq.Missing(t, "krb5-kdc and krb5-admin-server", err.Error())
	}
	ctx := context.Background()
	dir := t.TempDir()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: dir, Kerberos: true, KerberosUser: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	p := c.Properties()
	for _, k := range []string{"krb5Config", "goziePrincipal", "gozieKeytab", "userPrincipal", "userKeytab", "hive2ServerPrincipal"} {
		if p[k] == "" {
			t.Errorf("local-cluster.properties has no %s: %v", k, p)
		}
	}

	simple, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: p["nameNode"], User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	defer simple.Close()
	if _, err := simple.Stat(ctx, p["nameNode"]+"/"); err == nil {
		t.Error("the NameNode served a SIMPLE client")
	}
	refusesSimpleRPC(t, strings.TrimPrefix(p["nameNode"], "hdfs://"))
	yc, err := yarn.NewClient(yarn.Config{Addresses: []string{p["resourceManagerWebapp"]}, Auth: yarn.PseudoAuth{User: "alice"}})
	if err != nil {
		t.Fatal(err)
	}
	var se *yarn.RemoteError
	if _, err := yc.Apps(ctx, yarn.AppsFilter{}); !errors.As(err, &se) || se.StatusCode != http.StatusUnauthorized {
		t.Errorf("the RM answered a SIMPLE client with %v, want 401", err)
	}
	refusesSimpleHive(t, c.HS2)

	// WebHDFS takes SPNEGO only: user.name is refused with the challenge,
	// the user's ticket is served.
	if resp, err := http.Get(p["webhdfs"] + "/?op=LISTSTATUS&user.name=alice"); err != nil {
		t.Error(err)
	} else {
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != "Negotiate" {
			t.Errorf("WebHDFS answered user.name on a Kerberized cluster with %d %v, want 401 Negotiate", resp.StatusCode, resp.Header)
		}
	}
	if krb, err := krblogin.Login(krblogin.Config{Principal: p["userPrincipal"], Keytab: p["userKeytab"], Krb5Conf: p["krb5Config"]}); err != nil {
		t.Error(err)
	} else {
		resp, err := spnego.NewClient(krb, nil, "HTTP/localhost").Get(p["webhdfs"] + "/user?op=LISTSTATUS")
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("WebHDFS with SPNEGO: %v %v", resp, err)
		}
		if resp != nil {
			resp.Body.Close()
		}
		krb.Destroy()
	}

	login := func() {
		t.Helper()
		krb, err := krblogin.Login(krblogin.Config{Principal: p["userPrincipal"], Keytab: p["userKeytab"], Krb5Conf: p["krb5Config"]})
		if err != nil {
			t.Fatal(err)
		}
		defer krb.Destroy()
		fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: p["nameNode"], Kerberos: krb, Conf: map[string]string{
			"hadoop.security.authentication": "kerberos", "dfs.namenode.kerberos.principal": "nn/_HOST@" + kdc.Realm}})
		if err != nil {
			t.Fatal(err)
		}
		defer fs.Close()
		if err := fs.WriteFile(ctx, p["nameNode"]+"/user/alice/k", []byte("x"), 0o644); err != nil {
			t.Fatalf("writing as the Kerberos user: %v", err)
		}
	}
	login()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := localcluster.Start(ctx, localcluster.Options{Dir: dir, Kerberos: true, KerberosUser: "alice"})
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	defer again.Close()
	login()
}

// refusesSimpleHive checks that HiveServer2 opens no session for a client
// without Kerberos: SASL PLAIN (auth NONE, a user name only) and NOSASL.
func refusesSimpleHive(t *testing.T, hs2 *minihs2.Server) {
	t.Helper()
	host, portText, err := net.SplitHostPort(hs2.Addr())
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		t.Fatal(err)
	}
	for _, auth := range []string{"NONE", "NOSASL"} {
		cfg := gohive.NewConnectConfiguration()
		cfg.Username, cfg.ConnectTimeout, cfg.SocketTimeout = "alice", 5*time.Second, 5*time.Second
		if conn, err := gohive.Connect(host, port, auth, cfg); err == nil {
			conn.Close()
			t.Errorf("HiveServer2 opened a session for a SIMPLE client (auth %s)", auth)
		}
	}
	if n := hs2.Sessions(); n != 0 {
		t.Errorf("HiveServer2 has %d sessions open after SIMPLE clients, want 0", n)
	}
}

// refusesSimpleRPC checks the NameNode's own answer to a SIMPLE client,
// which the IPC client shows: Hadoop's fatal AccessControlException.
func refusesSimpleRPC(t *testing.T, addr string) {
	t.Helper()
	c, err := ipc.Dial(t.Context(), ipc.ClientOptions{Addr: addr, Protocol: ipc.ClientProtocol, User: "alice"})
	if err == nil {
		defer c.Close()
		err = c.Call(t.Context(), "getDelegationToken", &commonpb.GetDelegationTokenRequestProto{Renewer: proto.String("alice")},
			&commonpb.GetDelegationTokenResponseProto{})
	}
	if err == nil || !strings.Contains(err.Error(), "SIMPLE authentication is not enabled") {
		t.Errorf("the NameNode answered a SIMPLE IPC client with %v, want SIMPLE authentication is not enabled", err)
	}
}
