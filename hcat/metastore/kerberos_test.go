package metastore_test

import (
	"context"
	"slices"
	"testing"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hcat/metastore"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/minihs2"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// TestExistsOverKerberos: against a Kerberized metastore the client
// speaks SASL GSSAPI as gozie's principal to hive.metastore.kerberos.
// principal (_HOST resolved), and the metastore sees that principal; a
// client without Kerberos is refused by the handshake.
func TestExistsOverKerberos(t *testing.T) {
	t.Parallel()
	e := setup(t)
	k := kdc.Start(t)
	k.AddUser(t, "gozie/localhost", "gozie-pw")
	k.AddService(t, "hive/localhost")
	kt, err := keytab.Load(k.Keytab(t, "hive.keytab", "hive/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := minihs2.StartMetastore(context.Background(), minihs2.MetastoreOptions{Hive: e.hs2, Addr: "localhost:0",
		Kerberos: &minihs2.KerberosOptions{Keytab: kt, Principal: kdc.Principal("hive/localhost")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ms.Close() })
	login := krbclient.NewWithPassword("gozie/localhost", kdc.Realm, "gozie-pw", k.Config(t), krbclient.DisablePAFXFAST(true))
	if err := login.Login(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(login.Destroy)
	cl, err := metastore.New(metastore.Config{Kerberos: login, Principal: "hive/_HOST@" + kdc.Realm})
	if err != nil {
		t.Fatal(err)
	}
	e.exec(t, "ALTER TABLE invites ADD PARTITION (ds='2010-01-01', region='us')")
	d := metastore.NewDatasets(cl, 0, nil)
	uri := "hcat://" + ms.Addr() + "/default/invites/ds=2010-01-01;region=us"
	if ok, err := d.Exists(hadoop.AsUser(context.Background(), "alice"), uri); err != nil || !ok {
		t.Fatalf("Exists over Kerberos: %v, %v", ok, err)
	}
	if calls := ms.Calls(); !slices.Contains(calls, minihs2.MetastoreCall{Method: "get_partitions_by_filter", User: kdc.Principal("gozie/localhost")}) {
		t.Errorf("calls %v, want get_partitions_by_filter as gozie's principal", calls)
	}
	plain, err := metastore.New(metastore.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := metastore.NewDatasets(plain, 0, nil).Exists(hadoop.AsUser(context.Background(), "alice"), uri); err == nil {
		t.Error("a plain connection was served by a Kerberized metastore")
	}
	if _, err := metastore.New(metastore.Config{Kerberos: login}); err == nil {
		t.Error("a Kerberos client without the metastore's principal")
	}
}
