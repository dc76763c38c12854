package hadoop

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/minidfs"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// kerberosDFS starts a KDC and a Kerberos-only MiniDFS (nn/localhost) with
// the given hadoop.rpc.protection, on which gozie/localhost may act for
// bob, and returns the NameNode and gozie's logged-in client.
func kerberosDFS(t *testing.T, protection string) (*minidfs.MiniDFS, *krbclient.Client) {
	t.Helper()
	k := kdc.Start(t)
	k.AddService(t, "nn/localhost")
	k.AddService(t, "gozie/localhost")
	nnKT, err := keytab.Load(k.Keytab(t, "nn.keytab", "nn/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := minidfs.Start(context.Background(), minidfs.Options{
		Root: t.TempDir(), Superuser: "hdfs",
		Kerberos:      &ipc.KerberosOptions{Keytab: nnKT, Service: "nn", Host: "localhost"},
		NameNodeAddrs: []string{"localhost:0"},
		Conf: map[string]string{ipc.RPCProtectionKey: protection,
			"hadoop.proxyuser.gozie.users": "bob", "hadoop.proxyuser.gozie.hosts": "127.0.0.1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	if err := m.CreateHome("bob"); err != nil {
		t.Fatal(err)
	}
	kt, err := keytab.Load(k.Keytab(t, "gozie.keytab", "gozie/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	cl := krbclient.NewWithKeytab("gozie/localhost", kdc.Realm, kt, k.Config(t), krbclient.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Destroy)
	return m, cl
}

// TestResolverKerberos: with ResolverConfig.Kerberos, every NameNode call
// is SASL GSSAPI as the server's principal acting for the job's user, at
// each hadoop.rpc.protection (integrity and privacy wrap every packet,
// which colinmarc alone cannot); the NameNode makes bob the owner and
// refuses a user the principal may not act for.
func TestResolverKerberos(t *testing.T) {
	t.Parallel()
	for _, protection := range []string{"authentication", "integrity", "privacy"} {
		t.Run(protection, func(t *testing.T) {
			t.Parallel()
			m, cl := kerberosDFS(t, protection)
			r, err := NewResolver(ResolverConfig{DefaultFS: m.URI(), Kerberos: cl, RequireUser: true,
				Conf: map[string]string{ipc.RPCProtectionKey: protection, "dfs.namenode.kerberos.principal": "nn/_HOST@" + kdc.Realm}})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			bob := AsUser(ctxT(t), "bob")
			data := []byte(strings.Repeat("kerberos ", 5000))
			if err := r.WriteFile(bob, "/user/bob/out/part-0", data, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := r.ReadFile(bob, "/user/bob/out/part-0")
			if err != nil || string(got) != string(data) {
				t.Fatalf("ReadFile: %d bytes, %v", len(got), err)
			}
			fi, err := r.Stat(bob, "/user/bob/out/part-0")
			if err != nil || fi.Owner != "bob" {
				t.Errorf("Stat: %+v, %v; want owner bob", fi, err)
			}
			err = r.MkdirAll(AsUser(ctxT(t), "carol"), "/user/carol", 0o755)
			if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "User: gozie/localhost@"+kdc.Realm+" is not allowed to impersonate carol") {
				t.Errorf("acting for carol: %v, want the NameNode's AuthorizationException", err)
			}
		})
	}
}

// TestResolverKerberosNoCommonProtection: a client whose
// hadoop.rpc.protection the NameNode does not offer fails, naming it.
func TestResolverKerberosNoCommonProtection(t *testing.T) {
	t.Parallel()
	m, cl := kerberosDFS(t, "privacy")
	r, err := NewResolver(ResolverConfig{DefaultFS: m.URI(), Kerberos: cl,
		Conf: map[string]string{ipc.RPCProtectionKey: "authentication", "dfs.namenode.kerberos.principal": "nn/_HOST@" + kdc.Realm}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Stat(AsUser(ctxT(t), "bob"), "/user/bob")
	if err == nil || !strings.Contains(err.Error(), "hadoop.rpc.protection") {
		t.Errorf("Stat = %v, want a failure naming hadoop.rpc.protection", err)
	}
}
