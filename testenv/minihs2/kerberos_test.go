package minihs2

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/beltran/gohive/hiveserver"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// TestKerberosHTTPRefusesBasic: with KERBEROS authentication the HTTP
// transport answers 401 with a Negotiate challenge to a request without a
// SPNEGO token, whatever basic credentials it carries.
func TestKerberosHTTPRefusesBasic(t *testing.T) {
	t.Parallel()
	k := kdc.Start(t)
	k.AddService(t, "hive/localhost")
	kt, err := keytab.Load(k.Keytab(t, "hive.keytab", "hive/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(context.Background(), Options{FS: &hadoop.LocalFS{}, Transport: HTTP, Auth: AuthKerberos,
		Kerberos: &KerberosOptions{Keytab: kt, Principal: kdc.Principal("hive/localhost")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := httpPost(t, s, "alice", "pw")
	if rec.StatusCode != 401 || rec.Header.Get("WWW-Authenticate") != "Negotiate" {
		t.Errorf("basic authentication: %d %q, want 401 Negotiate", rec.StatusCode, rec.Header.Get("WWW-Authenticate"))
	}
}

func TestKerberosNeedsKeytab(t *testing.T) {
	t.Parallel()
	if _, err := Start(context.Background(), Options{FS: &hadoop.LocalFS{}, Auth: AuthKerberos}); err == nil {
		t.Fatal("KERBEROS without a keytab started")
	}
}

// TestTokenRules: only the renewer renews, only the owner or renewer
// cancels, renewal stops at the max date, a cancelled token is gone.
func TestTokenRules(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	ts := newTokenStore(3*time.Hour, time.Hour)
	tok := ts.issue("alice", "hive/localhost@R", "gozie/localhost@R", now)
	if err := ts.renew(tok, "alice@R", now); err == nil || !strings.Contains(err.Error(), "non-matching renewer hive") {
		t.Errorf("renewal by the owner: %v", err)
	}
	if err := ts.renew(tok, "hive/localhost@R", now.Add(30*time.Minute)); err != nil {
		t.Errorf("renewal by the renewer: %v", err)
	}
	if err := ts.renew(tok, "hive/localhost@R", now.Add(2*time.Hour)); err == nil {
		t.Error("renewed an expired token")
	}
	if err := ts.cancel(tok, "mallory@R"); err == nil {
		t.Error("mallory cancelled alice's token")
	}
	if err := ts.cancel(tok, "alice@R"); err != nil {
		t.Errorf("owner's cancel: %v", err)
	}
	if _, _, err := ts.lookup(tok); err == nil {
		t.Error("a cancelled token is still known")
	}
}

// TestTokensNeedKerberos: without Kerberos, GetDelegationToken is refused
// with Hive's message.
func TestTokensNeedKerberos(t *testing.T) {
	t.Parallel()
	s, err := Start(context.Background(), Options{FS: &hadoop.LocalFS{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v := &service{s: s}
	open, _ := v.OpenSession(context.WithValue(context.Background(), userKey, "alice"), &hiveserver.TOpenSessionReq{})
	resp, _ := v.GetDelegationToken(context.Background(), &hiveserver.TGetDelegationTokenReq{SessionHandle: open.SessionHandle, Owner: "alice", Renewer: "hive"})
	if resp.Status.StatusCode != hiveserver.TStatusCode_ERROR_STATUS || !strings.Contains(resp.Status.GetErrorMessage(), "kerberos authentication") {
		t.Errorf("GetDelegationToken without Kerberos: %+v", resp.Status)
	}
}

// httpPost sends an empty Thrift POST with basic authentication.
func httpPost(t *testing.T, s *Server, user, pw string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, "http://"+s.Addr()+"/"+DefaultHTTPPath, strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(user, pw)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}
