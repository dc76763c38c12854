package credentials_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/credentials"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/minihs2"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// startMetastore starts a KDC and a metastore whose proxy-user rules let
// gozie/localhost act for alice only, and logs gozie in.
func startMetastore(t *testing.T) (*minihs2.Metastore, *krbclient.Client) {
	t.Helper()
	k := kdc.Start(t)
	k.AddUser(t, "gozie/localhost", "gozie-pw")
	k.AddService(t, "hive/localhost")
	kt, err := keytab.Load(k.Keytab(t, "hive.keytab", "hive/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := minihs2.StartMetastore(context.Background(), minihs2.MetastoreOptions{Addr: "localhost:0",
		Kerberos: &minihs2.KerberosOptions{Keytab: kt, Principal: kdc.Principal("hive/localhost")},
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
	return ms, cl
}

// TestHCatToken: an hcat credential gets a metastore token owned by the
// job's user and renewable by gozie's login user, stored under Oozie's
// alias; _HOST in the principal is the URI's host; the metastore's
// refusal for a user gozie may not act for is an error naming it.
func TestHCatToken(t *testing.T) {
	t.Parallel()
	ms, gozie := startMetastore(t)
	p := &credentials.Provider{Kerberos: gozie}
	cred := actions.Credential{Name: "meta", Type: credentials.HCatType, Properties: conf.NewProperties(
		credentials.HCatMetastoreURI, ms.URI(),
		credentials.HCatMetastorePrincipal, "hive/_HOST@"+kdc.Realm,
	)}
	toks, err := p.Tokens(context.Background(), run(cred))
	if err != nil {
		t.Fatal(err)
	}
	if len(toks) != 1 {
		t.Fatalf("tokens %+v", toks)
	}
	tok := toks[0]
	if tok.Alias != credentials.HCatAlias || tok.Token.Kind != minihs2.TokenKind || tok.Token.Service != "" || len(tok.Token.Password) == 0 {
		t.Errorf("token %q kind %q service %q", tok.Alias, tok.Token.Kind, tok.Token.Service)
	}
	// identifier: version 0, owner, renewer (short names), real user
	if id := string(tok.Token.Identifier); !strings.HasPrefix(id, "\x00\x05alice\x05gozie\x1agozie/localhost@"+kdc.Realm) {
		t.Errorf("identifier %q", id)
	}
	r := run(cred)
	r.User = "mallory"
	if _, err := p.Tokens(context.Background(), r); err == nil || !strings.Contains(err.Error(), "not allowed to impersonate mallory") {
		t.Errorf("token for mallory: %v", err)
	}
}

// TestHCatFallsBackToHiveProperties: hive.metastore.uris and
// hive.metastore.kerberos.principal stand in for the hcat properties, and
// the URIs are tried in turn.
func TestHCatFallsBackToHiveProperties(t *testing.T) {
	t.Parallel()
	ms, gozie := startMetastore(t)
	p := &credentials.Provider{Kerberos: gozie}
	toks, err := p.Tokens(context.Background(), run(actions.Credential{Name: "meta", Type: credentials.HCatType, Properties: conf.NewProperties(
		"hive.metastore.uris", "thrift://127.0.0.1:1,"+ms.URI(),
		"hive.metastore.kerberos.principal", ms.Principal(),
	)}))
	if err != nil || len(toks) != 1 {
		t.Fatalf("tokens %+v: %v", toks, err)
	}
}

func TestHCatBadURI(t *testing.T) {
	t.Parallel()
	p := &credentials.Provider{Kerberos: &krbclient.Client{}}
	for _, uri := range []string{"http://h:9083", "thrift://h", " , "} {
		_, err := p.Tokens(context.Background(), run(actions.Credential{Name: "meta", Type: credentials.HCatType, Properties: conf.NewProperties(
			credentials.HCatMetastoreURI, uri, credentials.HCatMetastorePrincipal, "hive/_HOST@R")}))
		if code(err) != credentials.CodeUnavailable || !strings.Contains(err.Error(), credentials.HCatMetastoreURI) {
			t.Errorf("%q: %v", uri, err)
		}
	}
}
