package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/testenv/kdc"
)

// authServer starts a real REST server with the authentication cfg and returns its URL.
func authServer(t *testing.T, cfg auth.Config) string {
	t.Helper()
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := server.New(server.Config{Registry: prometheus.NewRegistry(), Authenticator: a})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts.URL + server.ContextPath
}

// runAs runs the CLI as OS user joe with the environment vars and returns stdout, stderr
// and the exit code.
func runAs(vars map[string]string, args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	env := Env{
		Stdout: &out, Stderr: &errOut, HTTPClient: http.DefaultClient,
		Getenv: func(k string) string { return vars[k] },
		User:   func() (string, error) { return "joe", nil },
	}
	code := Run(context.Background(), args, env)
	return out.String(), errOut.String(), code
}

func TestAuthSimple(t *testing.T) {
	t.Parallel()
	url := authServer(t, auth.Config{DenyAnonymous: true,
		ProxyUsers: []auth.ProxyUser{{User: "joe", Hosts: []string{"127.0.0.1"}, Groups: []string{"*"}}}})
	noProxy := authServer(t, auth.Config{DenyAnonymous: true})
	vars := map[string]string{"OOZIE_URL": url}
	for _, c := range []struct {
		name    string
		vars    map[string]string
		args    []string
		code    int
		out     string
		errPart string
	}{
		{name: "default SIMPLE sends the OS user", vars: vars, args: []string{"admin", "-status"}, out: "System mode: NORMAL\n"},
		{name: "-auth simple", vars: vars, args: []string{"admin", "-status", "-auth", "simple"}, out: "System mode: NORMAL\n"},
		{name: "OOZIE_AUTH", vars: map[string]string{"OOZIE_URL": url, "OOZIE_AUTH": "SIMPLE"}, args: []string{"admin", "-version"},
			out: "Oozie server build version: "},
		{name: "-doas by a proxy user", vars: vars, args: []string{"admin", "-status", "-doas", "alice"}, out: "System mode: NORMAL\n"},
		{name: "-doas refused", vars: map[string]string{"OOZIE_URL": noProxy}, args: []string{"jobs", "-doas", "alice"}, code: 255,
			errPart: "Error: E1400 : User [joe] not defined as proxyuser, cannot act as user [alice] from host [127.0.0.1]"},
		{name: "BASIC", vars: vars, args: []string{"admin", "-status", "-auth", "BASIC"}, code: 255,
			errPart: "Error: -auth BASIC is not supported"},
		{name: "unknown", vars: map[string]string{"OOZIE_URL": url, "OOZIE_AUTH": "digest"}, args: []string{"admin", "-status"},
			code: 255, errPart: `invalid -auth "digest"`},
		{name: "KERBEROS against a simple server falls back to user.name",
			vars: map[string]string{"OOZIE_URL": url, "KRB5CCNAME": "/nonexistent", "GOZIE_AUTH_TOKEN_CACHE": "none"},
			args: []string{"admin", "-status", "-auth", "KERBEROS"}, out: "System mode: NORMAL\n"},
		// sla builds its own requests: they are authenticated too (the route is missing,
		// so the answer is 400 E0301 rather than 401).
		{name: "sla", vars: vars, args: []string{"sla", "-filter", "app_name=x"}, code: 255, errPart: "E0301"},
	} {
		out, errOut, code := runAs(c.vars, c.args...)
		if code != c.code || !strings.HasPrefix(out, c.out) || !strings.Contains(errOut, c.errPart) {
			t.Errorf("%s: gozie %s = exit %d\nstdout %q\nstderr %q", c.name, strings.Join(c.args, " "), code, out, errOut)
		}
	}
}

func TestAuthKerberos(t *testing.T) {
	t.Parallel()
	k := kdc.Start(t)
	k.AddUser(t, "joe", "joepw")
	k.AddService(t, "HTTP/localhost")
	url := authServer(t, auth.Config{Type: auth.TypeKerberos, KeytabFile: k.Keytab(t, "http.keytab", "HTTP/localhost"),
		Principal: "HTTP/localhost"})
	url = strings.Replace(url, "127.0.0.1", "localhost", 1)
	joeKeytab := k.Keytab(t, "joe.keytab", "joe")
	dir := t.TempDir()
	ccache := filepath.Join(dir, "krb5cc_joe")
	tokens := filepath.Join(dir, "tokens")

	base := map[string]string{"OOZIE_URL": url, "KRB5_CONFIG": k.Krb5Conf, "GOZIE_AUTH_TOKEN_CACHE": "none"}
	with := func(extra ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i]] = extra[i+1]
		}
		return m
	}

	// Without a ticket the 401 challenge cannot be answered.
	_, errOut, code := runAs(with("KRB5CCNAME", filepath.Join(dir, "missing")), "admin", "-status", "-auth", "KERBEROS")
	if code != 255 || !strings.Contains(errOut, "run kinit") {
		t.Errorf("no ticket: exit %d, stderr %q", code, errOut)
	}
	// SIMPLE is refused by a kerberized server.
	if _, errOut, code := runAs(base, "admin", "-status"); code != 255 || !strings.Contains(errOut, "E0500") {
		t.Errorf("SIMPLE against Kerberos: exit %d, stderr %q", code, errOut)
	}

	// With the ticket of kinit, the token cache is filled and then used alone.
	k.Kinit(t, kdc.Principal("joe"), joeKeytab, ccache)
	vars := with("KRB5CCNAME", "FILE:"+ccache, "GOZIE_AUTH_TOKEN_CACHE", tokens)
	if out, errOut, code := runAs(vars, "admin", "-status", "-auth", "KERBEROS"); code != 0 || out != "System mode: NORMAL\n" {
		t.Fatalf("with a ticket: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	data, err := os.ReadFile(tokens)
	if err != nil || !strings.Contains(string(data), "u=joe&p=joe@TEST.LOCAL&t=kerberos&") {
		t.Fatalf("token cache: %q, %v", data, err)
	}
	fi, err := os.Stat(tokens)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("token cache mode: %v, %v", fi.Mode().Perm(), err)
	}
	vars["KRB5CCNAME"] = filepath.Join(dir, "missing")
	vars["OOZIE_AUTH"] = "kerberos"
	if out, errOut, code := runAs(vars, "admin", "-status"); code != 0 || out != "System mode: NORMAL\n" {
		t.Errorf("with the cached token only: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}

	// A keytab named in the environment works without kinit.
	vars = with("GOZIE_CLIENT_KEYTAB", joeKeytab, "GOZIE_CLIENT_PRINCIPAL", "joe", "KRB5CCNAME", filepath.Join(dir, "missing"))
	if out, errOut, code := runAs(vars, "admin", "-status", "-auth", "KERBEROS"); code != 0 || out != "System mode: NORMAL\n" {
		t.Errorf("keytab login: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	if _, errOut, code := runAs(with("GOZIE_CLIENT_KEYTAB", joeKeytab), "admin", "-status", "-auth", "KERBEROS"); code != 255 ||
		!strings.Contains(errOut, "GOZIE_CLIENT_PRINCIPAL") {
		t.Errorf("keytab without principal: exit %d, stderr %q", code, errOut)
	}
}
