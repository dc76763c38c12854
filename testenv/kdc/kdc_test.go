package kdc_test

import (
	"path/filepath"
	"strings"
	"testing"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/keytab"

	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/testenv/kdc"
)

func TestKDC(t *testing.T) {
	t.Parallel()
	k := kdc.Start(t)
	k.AddUser(t, "alice", "alicepw")
	k.AddService(t, "HTTP/localhost")
	svcPath := k.Keytab(t, "http.keytab", "HTTP/localhost")
	alicePath := k.Keytab(t, "alice.keytab", "alice")
	cfg := k.Config(t)

	// The password still works after alice's keys were exported.
	pw := krbclient.NewWithPassword("alice", kdc.Realm, "alicepw", cfg, krbclient.DisablePAFXFAST(true))
	if err := pw.Login(); err != nil {
		t.Fatalf("login with password: %v", err)
	}
	defer pw.Destroy()
	if _, _, err := pw.GetServiceTicket("HTTP/localhost"); err != nil {
		t.Fatalf("service ticket: %v", err)
	}

	// The user keytab logs in too, and the service keytab holds the service's key.
	kt, err := keytab.Load(alicePath)
	if err != nil {
		t.Fatal(err)
	}
	kc := krbclient.NewWithKeytab("alice", kdc.Realm, kt, cfg, krbclient.DisablePAFXFAST(true))
	if err := kc.Login(); err != nil {
		t.Fatalf("login with keytab: %v", err)
	}
	defer kc.Destroy()
	svc, err := keytab.Load(svcPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(svc.Entries) == 0 || strings.Join(svc.Entries[0].Principal.Components, "/") != "HTTP/localhost" {
		t.Fatalf("service keytab holds %v", svc.Entries)
	}

	// kinit fills a credential cache that gokrb5 reads.
	ccache := filepath.Join(t.TempDir(), "cc")
	k.Kinit(t, kdc.Principal("alice"), alicePath, ccache)
	cc, err := credentials.LoadCCache(ccache)
	if err != nil {
		t.Fatalf("reading the credential cache: %v", err)
	}
	if got := cc.DefaultPrincipal.PrincipalName.PrincipalNameString(); got != "alice" {
		t.Errorf("ccache principal = %q, want alice", got)
	}
}

func TestKeytabOfUnknownPrincipalFails(t *testing.T) {
	t.Parallel()
	k := kdc.Start(t)
	ft := &fatalRecorder{TB: t}
	func() {
		defer func() { recover() }()
		k.Keytab(ft, "x.keytab", "nobody")
	}()
	if !ft.failed {
		t.Error("exporting the keytab of an unknown principal did not fail")
	}
}

// fatalRecorder notes Fatalf instead of ending the test, so that a helper's failure can be
// checked.
type fatalRecorder struct {
	testing.TB
	failed bool
}

func (f *fatalRecorder) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}

func (f *fatalRecorder) Helper() {}

// TestRunKeepsItsDatabase: a KDC run again on the same directory and
// address keeps its principals, as the local cluster's KDC must across
// restarts.
func TestRunKeepsItsDatabase(t *testing.T) {
	t.Parallel()
	if err := kdc.Available(); err != nil {
		testreq.Missing(t, "krb5-kdc and krb5-admin-server", err.Error())
	}
	dir := t.TempDir()
	k, err := kdc.Run(kdc.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := k.AddPrincipal("svc/localhost", ""); err != nil {
		t.Fatal(err)
	}
	if err := k.AddPrincipal("svc/localhost", ""); err != nil {
		t.Errorf("adding an existing principal again: %v", err)
	}
	addr := k.Addr
	k.Close()
	again, err := kdc.Run(kdc.Options{Dir: dir, Addr: addr})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if _, err := again.ExportKeytab("svc.keytab", "svc/localhost"); err != nil {
		t.Errorf("the principal is gone after a restart: %v", err)
	}
}
