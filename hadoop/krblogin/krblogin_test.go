package krblogin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/kdc"
)

func TestLoginReplacesHost(t *testing.T) {
	t.Parallel()
	k := kdc.Start(t)
	k.AddService(t, "gozie/gw1.example.com")
	kt := k.Keytab(t, "gozie.keytab", "gozie/gw1.example.com")
	cl, err := Login(Config{Principal: "gozie/_HOST@" + kdc.Realm, Keytab: kt, Krb5Conf: k.Krb5Conf, Hostname: "GW1.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Destroy()
	if got := cl.Credentials.UserName(); got != "gozie/gw1.example.com" {
		t.Errorf("logged in as %s, want gozie/gw1.example.com", got)
	}
}

// TestLoginErrors: each misconfiguration fails at start-up with an error
// naming it.
func TestLoginErrors(t *testing.T) {
	t.Parallel()
	k := kdc.Start(t)
	k.AddService(t, "gozie/localhost")
	kt := k.Keytab(t, "gozie.keytab", "gozie/localhost")
	deadKDC := filepath.Join(t.TempDir(), "krb5.conf")
	conf, err := os.ReadFile(k.Krb5Conf)
	if err != nil {
		t.Fatal(err)
	}
	// A port nothing listens on: the KDC is down.
	if err := os.WriteFile(deadKDC, []byte(strings.ReplaceAll(string(conf), k.Addr, "127.0.0.1:1")), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"missing keytab", Config{Principal: "gozie/localhost", Keytab: "/nonexistent.keytab", Krb5Conf: k.Krb5Conf}, "reading keytab /nonexistent.keytab"},
		{"principal not in keytab", Config{Principal: "oozie/localhost", Keytab: kt, Krb5Conf: k.Krb5Conf}, "holds no key of oozie/localhost@" + kdc.Realm},
		{"KDC down", Config{Principal: "gozie/localhost", Keytab: kt, Krb5Conf: deadKDC}, "kerberos login as gozie/localhost@" + kdc.Realm},
		{"no principal", Config{Keytab: kt}, "gozie.kerberos.principal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl, err := Login(tt.cfg)
			if err == nil {
				cl.Destroy()
				t.Fatal("Login succeeded")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Login: %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

// TestTicketKeptFresh: with short ticket lifetimes the client's TGT is
// replaced before it expires, by renewal while it is renewable and by a
// new login from the keytab when it is not, with no call from the test.
func TestTicketKeptFresh(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		renew time.Duration
	}{{"renewable", time.Minute}, {"not renewable", 0}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			k := kdc.Start(t)
			k.AddService(t, "gozie/localhost")
			k.SetLifetimes(t, "gozie/localhost", 6*time.Second, tt.renew)
			kt := k.Keytab(t, "gozie.keytab", "gozie/localhost")
			cl, err := Login(Config{Principal: "gozie/localhost", Keytab: kt, Krb5Conf: k.Krb5Conf})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Destroy()
			first, err := TGTExpiry(cl)
			if err != nil {
				t.Fatal(err)
			}
			testwait.Poll{Timeout: 60 * time.Second, Every: 100 * time.Millisecond}.WaitFor(t,
				fmt.Sprintf("the TGT expiring at %v to be renewed", first), func() bool {
					end, err := TGTExpiry(cl)
					if err != nil {
						t.Fatal(err)
					}
					return end.After(first)
				})
			if _, _, err := cl.GetServiceTicket("gozie/localhost"); err != nil {
				t.Errorf("service ticket after renewal: %v", err)
			}
		})
	}
}
