package kdc

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// SetLifetimes limits the tickets of principal name to life, renewable up
// to renew (0: not renewable), for tests of ticket expiry and renewal:
// the KDC issues the lesser of these and the realm's max_life (1h) and
// max_renewable_life (1d).
func (k *KDC) SetLifetimes(t testing.TB, name string, life, renew time.Duration) {
	t.Helper()
	if err := k.Lifetimes(name, life, renew); err != nil {
		t.Fatalf("%v", err)
	}
}

// Lifetimes is SetLifetimes returning its error.
func (k *KDC) Lifetimes(name string, life, renew time.Duration) error {
	return k.exec("kadmin.local", "-r", Realm, "-q", fmt.Sprintf(`modprinc -maxlife "%d seconds" -maxrenewlife "%d seconds" %s`,
		int(life.Seconds()), int(renew.Seconds()), name))
}

// Attach returns the KDC whose database Run keeps in dir, for
// administration (Lifetimes, AddPrincipal, ExportKeytab) whether or not it
// is running; Addr is unknown.
func Attach(dir string) (*KDC, error) {
	if _, err := os.Stat(filepath.Join(dir, "principal")); err != nil {
		return nil, fmt.Errorf("kdc: no database in %s: %w", dir, err)
	}
	k := &KDC{Dir: dir, Krb5Conf: filepath.Join(dir, "krb5.conf")}
	k.env = append(os.Environ(), "KRB5_KDC_PROFILE="+filepath.Join(dir, "kdc.conf"), "KRB5_CONFIG="+k.Krb5Conf)
	return k, nil
}
