package e2e

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/yarn"
)

// TestKerberizedMinicluster: `gozie minicluster -kerberos` on its own runs
// the realm in <data-dir>/kdc; local-cluster.properties names the
// principals, the user's keytab and the krb5.conf there; the user logs in
// from them and the ResourceManager's REST API serves them by SPNEGO while
// it answers a SIMPLE caller 401.
func TestKerberizedMinicluster(t *testing.T) {
	t.Parallel()
	if err := kdc.Available(); err != nil {
		testreq.Missing(t, "krb5-kdc and krb5-admin-server", err.Error())
	}
	dir := t.TempDir()
	start(t, "local cluster started", "minicluster", "-kerberos", "-data-dir", dir)
	c := readCluster(t, dir)
	for _, key := range []string{"goziePrincipal", "userPrincipal", "hive2ServerPrincipal", "nameNodePrincipal", "resourceManagerPrincipal"} {
		if !strings.HasSuffix(c[key], "@"+kdc.Realm) {
			t.Errorf("local-cluster.properties: %s = %q, want a principal of %s", key, c[key], kdc.Realm)
		}
	}
	for _, key := range []string{"krb5Config", "gozieKeytab", "userKeytab"} {
		if _, err := os.Stat(c[key]); err != nil || !strings.HasPrefix(c[key], filepath.Join(dir, "kdc")+string(filepath.Separator)) {
			t.Errorf("local-cluster.properties: %s = %q (%v), want a file in the data dir's kdc", key, c[key], err)
		}
	}
	k := &krbEnv{env: &env{dir: dir, cluster: c, user: currentUser(t)}}
	if _, err := k.yarnKerberos(t).Apps(t.Context(), yarn.AppsFilter{}); err != nil {
		t.Errorf("the RM refused the user's SPNEGO: %v", err)
	}
	simple, err := yarn.NewClient(yarn.Config{Addresses: []string{c["resourceManagerWebapp"]}, Auth: yarn.PseudoAuth{User: k.user}})
	if err != nil {
		t.Fatal(err)
	}
	var re *yarn.RemoteError
	if _, err := simple.Apps(t.Context(), yarn.AppsFilter{}); !errors.As(err, &re) || re.StatusCode != http.StatusUnauthorized {
		t.Errorf("the RM answered a SIMPLE caller with %v, want 401", err)
	}
}
