package minihs2

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/yarn"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// metastoreEnv is a KDC with hive/localhost (the metastore) and
// gozie/localhost (allowed to act for alice only), and a metastore.
type metastoreEnv struct {
	ms    *Metastore
	gozie *krbclient.Client
}

func setupMetastore(t *testing.T) *metastoreEnv {
	t.Helper()
	k := kdc.Start(t)
	k.AddUser(t, "gozie/localhost", "gozie-pw")
	k.AddService(t, "hive/localhost")
	kt, err := keytab.Load(k.Keytab(t, "hive.keytab", "hive/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := StartMetastore(context.Background(), MetastoreOptions{
		Kerberos: &KerberosOptions{Keytab: kt, Principal: kdc.Principal("hive/localhost")},
		HadoopConf: map[string]string{
			"hadoop.proxyuser.gozie.users": "alice",
			"hadoop.proxyuser.gozie.hosts": "*",
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ms.Close() })
	cl := krbclient.NewWithPassword("gozie/localhost", kdc.Realm, "gozie-pw", k.Config(t), krbclient.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Destroy)
	return &metastoreEnv{ms: ms, gozie: cl}
}

func TestMetastoreNeedsKerberos(t *testing.T) {
	t.Parallel()
	if _, err := StartMetastore(context.Background(), MetastoreOptions{}); err == nil {
		t.Fatal("a metastore without a keytab started")
	}
}

// TestMetastoreRefusesPLAIN: a Kerberized metastore answers a SASL PLAIN
// start with BAD, and its connection serves no call.
func TestMetastoreRefusesPLAIN(t *testing.T) {
	t.Parallel()
	e := setupMetastore(t)
	c, err := net.Dial("tcp", e.ms.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if err := writeSASLMessage(c, saslStart, []byte("PLAIN")); err != nil {
		t.Fatal(err)
	}
	status, msg, err := readSASLMessage(bufio.NewReader(c))
	if err != nil {
		t.Fatal(err)
	}
	if status != saslBad || string(msg) != "Unsupported mechanism type PLAIN" {
		t.Errorf("PLAIN: status %d %q", status, msg)
	}
}

// TestMetastoreUnknownMethod: a Kerberos client's call of any method but
// get_delegation_token is answered with UNKNOWN_METHOD, and the
// connection goes on serving.
func TestMetastoreUnknownMethod(t *testing.T) {
	t.Parallel()
	e := setupMetastore(t)
	prot := dialMetastore(t, e)
	ctx := context.Background()
	call := func(name string) (thrift.TMessageType, thrift.TApplicationException) {
		t.Helper()
		must(t, prot.WriteMessageBegin(ctx, name, thrift.CALL, 7))
		must(t, prot.WriteStructBegin(ctx, name+"_args"))
		must(t, prot.WriteFieldBegin(ctx, "dbname", thrift.STRING, 1))
		must(t, prot.WriteString(ctx, "default"))
		must(t, prot.WriteFieldEnd(ctx))
		must(t, prot.WriteFieldStop(ctx))
		must(t, prot.WriteStructEnd(ctx))
		must(t, prot.WriteMessageEnd(ctx))
		must(t, prot.Flush(ctx))
		_, typ, seq, err := prot.ReadMessageBegin(ctx)
		must(t, err)
		if seq != 7 {
			t.Errorf("reply to sequence %d", seq)
		}
		x := thrift.NewTApplicationException(thrift.UNKNOWN_APPLICATION_EXCEPTION, "")
		must(t, x.Read(ctx, prot))
		must(t, prot.ReadMessageEnd(ctx))
		return typ, x
	}
	for _, name := range []string{"get_table", "get_databases"} {
		typ, x := call(name)
		if typ != thrift.EXCEPTION || x.TypeId() != thrift.UNKNOWN_METHOD || x.Error() != "Invalid method name: '"+name+"'" {
			t.Errorf("%s: type %d, exception %d %q", name, typ, x.TypeId(), x.Error())
		}
	}
}

// TestMetastoreTokenRules: a token goes to a caller for itself, or for a
// user the proxy-user rules let it act for; it is a HIVE_DELEGATION_TOKEN
// with no service, renewable by the renewer's short name.
func TestMetastoreTokenRules(t *testing.T) {
	t.Parallel()
	ms := &Metastore{opts: MetastoreOptions{Now: time.Now}, tokens: newTokenStore(time.Hour, time.Hour),
		proxyUsers: newTestProxyUsers()}
	ms.tokens.service = ""
	for _, tt := range []struct {
		caller, owner, refusal string
	}{
		{caller: "gozie/localhost@R", owner: "alice"},
		{caller: "mallory@R", owner: "mallory"},
		{caller: "gozie/localhost@R", owner: "mallory", refusal: "User: gozie/localhost@R is not allowed to impersonate mallory"},
		{caller: "mallory@R", owner: "alice", refusal: "User: mallory@R is not allowed to impersonate alice"},
	} {
		s, refusal := ms.getDelegationToken(tt.caller, tt.owner, "gozie", "127.0.0.1:5000")
		if refusal != tt.refusal {
			t.Errorf("%s for %s: refusal %q, want %q", tt.caller, tt.owner, refusal, tt.refusal)
		}
		if tt.refusal != "" {
			continue
		}
		tok, err := yarn.DecodeTokenURLString(s)
		if err != nil {
			t.Fatal(err)
		}
		if tok.Kind != TokenKind || tok.Service != "" {
			t.Errorf("token kind %q service %q", tok.Kind, tok.Service)
		}
		if !strings.HasPrefix(string(tok.Identifier), "\x00"+string(rune(len(tt.owner)))+tt.owner+"\x05gozie") {
			t.Errorf("identifier %q", tok.Identifier)
		}
	}
}

func newTestProxyUsers() *ugi.ProxyUsers {
	conf := map[string]string{"hadoop.proxyuser.gozie.users": "alice", "hadoop.proxyuser.gozie.hosts": "*"}
	return ugi.NewProxyUsers(conf, ugi.NewGroups(conf))
}

// dialMetastore opens a SASL GSSAPI connection as gozie and returns its
// Thrift protocol.
func dialMetastore(t *testing.T, e *metastoreEnv) thrift.TProtocol {
	t.Helper()
	c, err := net.Dial("tcp", e.ms.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(30 * time.Second))
	sc, err := hive2.SASLGSSAPI(c, e.gozie, e.ms.Principal())
	if err != nil {
		t.Fatal(err)
	}
	return thrift.NewTBinaryProtocolConf(thrift.NewTBufferedTransport(thrift.NewTSocketFromConnConf(sc, nil), 4096), nil)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
