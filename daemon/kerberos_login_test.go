package daemon_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/testenv/kdc"
)

// TestKerberosLoginFailsStartup: on a cluster whose core-site.xml says
// hadoop.security.authentication=kerberos, a server whose keytab, principal
// or KDC is wrong does not start, and says which. (Not parallel: the
// krb5.conf is named by KRB5_CONFIG, as for the server process.)
func TestKerberosLoginFailsStartup(t *testing.T) {
	if err := kdc.Available(); err != nil {
		testreq.Missing(t, "krb5-kdc and krb5-admin-server", err.Error())
	}
	k := kdc.Start(t)
	k.AddService(t, "gozie/localhost")
	kt := k.Keytab(t, "gozie.keytab", "gozie/localhost")
	dir := t.TempDir()
	krb5, err := os.ReadFile(k.Krb5Conf)
	if err != nil {
		t.Fatal(err)
	}
	// A port nothing listens on: the KDC is down.
	deadKDC := filepath.Join(dir, "krb5-dead.conf")
	if err := os.WriteFile(deadKDC, []byte(strings.ReplaceAll(string(krb5), k.Addr, "127.0.0.1:1")), 0o600); err != nil {
		t.Fatal(err)
	}
	hadoopDir := filepath.Join(dir, "hadoop-conf")
	if err := os.Mkdir(hadoopDir, 0o755); err != nil {
		t.Fatal(err)
	}
	site, err := os.Create(filepath.Join(hadoopDir, "core-site.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := conf.WriteConfigurationXML(site, conf.PropertiesFromMap(map[string]string{"hadoop.security.authentication": "kerberos"})); err != nil {
		t.Fatal(err)
	}
	site.Close()
	principal := "gozie/localhost@" + kdc.Realm
	for _, tt := range []struct {
		name, krb5Conf, principal, keytab, want string
	}{
		{"no keytab set", k.Krb5Conf, principal, "", "gozie.kerberos.principal and gozie.kerberos.keytab are both required"},
		{"missing keytab", k.Krb5Conf, principal, filepath.Join(dir, "none.keytab"), "reading keytab " + filepath.Join(dir, "none.keytab") + " (gozie.kerberos.keytab)"},
		{"principal not in keytab", k.Krb5Conf, "oozie/localhost@" + kdc.Realm, kt, "holds no key of oozie/localhost@" + kdc.Realm},
		{"KDC down", deadKDC, principal, kt, "kerberos login as gozie/localhost@" + kdc.Realm},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("KRB5_CONFIG", tt.krb5Conf)
			data := t.TempDir()
			cfg, err := conf.Load(conf.Sources{ConfigDir: data, LookupEnv: func(string) (string, bool) { return "", false },
				Flags: map[string]string{"gozie.db.url": "sqlite:" + filepath.Join(data, "gozie.db"), "gozie.data.dir": data,
					"gozie.hadoop.conf.dir": hadoopDir, "gozie.kerberos.principal": tt.principal, "gozie.kerberos.keytab": tt.keytab}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = daemon.Open(context.Background(), daemon.Options{Config: cfg})
			if err == nil {
				t.Fatal("the server started")
			}
			if !strings.Contains(err.Error(), "hadoop.security.authentication=kerberos") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Open: %v\nwant it to name hadoop.security.authentication=kerberos and %q", err, tt.want)
			}
		})
	}
}
