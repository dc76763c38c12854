package localcluster_test

import (
	"context"
	"testing"

	"github.com/gozie/gozie/conf"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/credentials"
	"github.com/gozie/gozie/hadoop/krblogin"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/localcluster"
)

// TestKerberizedClusterMetastore: a -kerberos cluster runs a Hive
// metastore that local-cluster.properties names (hcatMetastoreUri,
// hcatMetastorePrincipal), which gives gozie's principal an hcat token for
// the cluster's user, and which keeps its address across a restart.
func TestKerberizedClusterMetastore(t *testing.T) {
	t.Parallel()
	if err := kdc.Available(); err != nil {
		testreq.Missing(t, "krb5-kdc and krb5-admin-server", err.Error())
	}
	ctx := context.Background()
	dir := t.TempDir()
	opts := localcluster.Options{Dir: dir, Kerberos: true, KerberosUser: "alice"}
	c, err := localcluster.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	p := c.Properties()
	if p["hcatMetastoreUri"] == "" || p["hcatMetastorePrincipal"] == "" {
		t.Fatalf("local-cluster.properties names no metastore: %v", p)
	}
	krb, err := krblogin.Login(krblogin.Config{Principal: p["goziePrincipal"], Keytab: p["gozieKeytab"], Krb5Conf: p["krb5Config"]})
	if err != nil {
		t.Fatal(err)
	}
	defer krb.Destroy()
	prov := &credentials.Provider{Kerberos: krb}
	toks, err := prov.Tokens(ctx, &actions.Attempt{ActionID: "a", User: "alice", Credentials: []actions.Credential{{
		Name: "meta", Type: credentials.HCatType, Properties: conf.NewProperties(
			credentials.HCatMetastoreURI, p["hcatMetastoreUri"], credentials.HCatMetastorePrincipal, p["hcatMetastorePrincipal"])}}})
	if err != nil || len(toks) != 1 || toks[0].Alias != credentials.HCatAlias {
		t.Fatalf("hcat token for alice: %+v, %v", toks, err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := localcluster.Start(ctx, opts)
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	defer again.Close()
	if got := again.Properties()["hcatMetastoreUri"]; got != p["hcatMetastoreUri"] {
		t.Errorf("the metastore moved from %s to %s across a restart", p["hcatMetastoreUri"], got)
	}
}
