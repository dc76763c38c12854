package clustertools_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"

	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/krblogin"
	"github.com/gozie/gozie/testenv/clustertools"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/localcluster"
)

// TestBeelineAuthenticatesWithTheContainersHiveToken: in a container of a
// Kerberized cluster, with no Kerberos ticket, beeline with
// auth=delegationToken (in the URL, or -a delegationToken) authenticates
// to HiveServer2 with the HIVE_DELEGATION_TOKEN of the container's token
// file, and the statements run as the token's owner; without the token
// the driver falls back to SASL PLAIN, which the Kerberized HiveServer2
// refuses, as it refuses a principal= URL without a ticket.
func TestBeelineAuthenticatesWithTheContainersHiveToken(t *testing.T) {
	t.Parallel()
	if err := kdc.Available(); err != nil {
		t.Skipf("no MIT KDC: %v", err)
	}
	dir := t.TempDir()
	c, err := localcluster.Start(context.Background(), localcluster.Options{Dir: dir, ToolsBinary: binary,
		Kerberos: true, KerberosUser: testUser, Env: map[string]string{"PATH": os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	props := c.Properties()
	gozie, err := krblogin.Login(krblogin.Config{Principal: props["goziePrincipal"], Keytab: props["gozieKeytab"], Krb5Conf: props["krb5Config"]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(gozie.Destroy)
	kerberosURL := c.HS2.JDBCURL("")
	url, principal := hive2.CutPrincipal(kerberosURL)
	tok, err := hive2.FetchDelegationToken(ctxT(t), gozie, conf.NewProperties(hive2.CredentialJDBCURL, url, hive2.CredentialPrincipal, principal), testUser)
	if err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(t.TempDir(), "container_tokens")
	if err := hadoop.WriteTokenFile(tokenFile, &hadoop.Credentials{Tokens: map[string]hadoop.Token{tok.Service: tok}}, hadoop.TokenFormatWritable); err != nil {
		t.Fatal(err)
	}
	beeline := func(tokens string, args ...string) result {
		vars := map[string]string{"USER": testUser, "PATH": os.Getenv("PATH")}
		if tokens != "" {
			vars[hadoop.TokenFileEnv] = tokens
		}
		var stdout, stderr syncBuffer
		env := clustertools.Env{Stdout: &stdout, Stderr: &stderr, Dir: t.TempDir(),
			Getenv: func(k string) string { return vars[k] }, Environ: func() []string { return nil }}
		code := clustertools.Main(ctxT(t), append([]string{"beeline"}, args...), env)
		return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
	}

	for _, args := range [][]string{
		{"-u", hive2.DelegationTokenURL(kerberosURL), "-n", testUser, "-p", "DUMMY", "-e", "SHOW DATABASES"},
		{"-u", url, "-a", "delegationToken", "-e", "SHOW DATABASES"},
	} {
		if r := beeline(tokenFile, args...); r.code != 0 {
			t.Fatalf("beeline %q exited %d:\n%s", args, r.code, r.stderr)
		}
	}
	stmts := c.HS2.Statements()
	if len(stmts) != 2 {
		t.Fatalf("statements %+v, want 2", stmts)
	}
	for _, st := range stmts {
		if st.User != testUser {
			t.Errorf("%q ran as %q, want %s (the token's owner)", st.Text, st.User, testUser)
		}
	}

	for _, tt := range []struct {
		name string
		r    result
		want string
	}{
		{"no token file", beeline("", "-u", hive2.DelegationTokenURL(kerberosURL), "-e", "SHOW DATABASES"), "Unsupported mechanism type PLAIN"},
		{"principal= only", beeline(tokenFile, "-u", kerberosURL, "-e", "SHOW DATABASES"), "GSS initiate failed"},
	} {
		if tt.r.code == 0 || !strings.Contains(tt.r.stderr, "Could not open client transport") || !strings.Contains(tt.r.stderr, tt.want) {
			t.Errorf("%s: exit %d, want a refused connection (%s):\n%s", tt.name, tt.r.code, tt.want, tt.r.stderr)
		}
	}
	if n := len(c.HS2.Statements()); n != 2 {
		t.Errorf("%d statements after the refused connections, want 2", n)
	}
}
