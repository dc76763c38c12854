package daemon_test

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gozie/gozie/cli"
	"github.com/gozie/gozie/testenv/kdc"
)

// TestKerberizedServer runs a daemon configured for Kerberos with a proxy user, and drives
// it with the CLI as a kinit'ed user: the submission belongs to the authenticated user
// (or the doAs user), and the callback stays reachable without a ticket.
func TestKerberizedServer(t *testing.T) {
	k := kdc.Start(t)
	k.AddUser(t, "joe", "joepw")
	k.AddUser(t, "hue", "huepw")
	k.AddService(t, "HTTP/localhost")
	s := serve(t, map[string]string{
		"gozie.http.authentication.type":               "kerberos",
		"gozie.http.authentication.kerberos.keytab":    k.Keytab(t, "http.keytab", "HTTP/localhost"),
		"gozie.http.authentication.kerberos.principal": "HTTP/localhost@" + kdc.Realm,
		"gozie.http.proxyusers":                        "hue:hosts=127.0.0.1;groups=*",
		// The app is on the server's disk, which only an administrator opens.
		"gozie.filesystems.supported": "hdfs,file"})
	s.write(t, "wf/workflow.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="no-op"><start to="end"/><end name="end"/></workflow-app>`)
	app := filepath.Join(s.apps, "wf")
	dir := t.TempDir()
	ctx := context.Background()
	// SPNEGO names the service HTTP/localhost: the URL must say localhost.
	url := strings.Replace(s.base, "127.0.0.1", "localhost", 1)

	// The callback answers without a ticket (no such action here), the API does not.
	for path, wantAuth := range map[string]bool{"/callback?id=nope&status=SUCCEEDED": false, "/v2/admin/status": true} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.StatusCode == http.StatusUnauthorized; got != wantAuth {
			t.Errorf("GET %s without a ticket: %s, want authentication required = %v", path, resp.Status, wantAuth)
		}
	}

	gozie := func(principal string, args ...string) (string, string, int) {
		ccache := filepath.Join(dir, "krb5cc_"+principal)
		k.Kinit(t, kdc.Principal(principal), k.Keytab(t, principal+".keytab", principal), ccache)
		vars := map[string]string{"OOZIE_URL": url, "OOZIE_AUTH": "KERBEROS", "KRB5CCNAME": ccache,
			"KRB5_CONFIG": k.Krb5Conf, "GOZIE_AUTH_TOKEN_CACHE": filepath.Join(dir, "tokens-"+principal)}
		var out, errOut bytes.Buffer
		code := cli.Run(ctx, args, cli.Env{Stdout: &out, Stderr: &errOut, HTTPClient: http.DefaultClient,
			Getenv: func(k string) string { return vars[k] },
			// The OS user the CLI would put in user.name: the kerberized server ignores it.
			User: func() (string, error) { return "mallory", nil }})
		return out.String(), errOut.String(), code
	}
	jobID := regexp.MustCompile(`job: (\S+)`)
	ids := map[string]string{} // user → the id of the job submitted as them
	for _, c := range []struct {
		principal string
		args      []string
		wantUser  string
	}{
		{"joe", nil, "joe"},
		{"hue", []string{"-doas", "alice"}, "alice"},
	} {
		args := append([]string{"job", "-run", "-D", "oozie.wf.application.path=file://" + app, "-D", "user.name=zed"}, c.args...)
		out, errOut, code := gozie(c.principal, args...)
		m := jobID.FindStringSubmatch(out)
		if code != 0 || m == nil {
			t.Fatalf("%s: gozie job -run: exit %d\n%s%s", c.principal, code, out, errOut)
		}
		ids[c.wantUser] = m[1]
		info, errOut, code := gozie(c.principal, "job", "-info", m[1])
		if code != 0 || !regexp.MustCompile(`(?m)^User\s*:\s*`+c.wantUser+`$`).MatchString(info) {
			t.Errorf("%s: job -info: exit %d, want user %s\n%s%s", c.principal, code, c.wantUser, info, errOut)
		}
	}
	// joe is no proxy user.
	if _, errOut, code := gozie("joe", "jobs", "-doas", "alice"); code == 0 || !strings.Contains(errOut, "E1400") {
		t.Errorf("joe -doas alice: exit %d, stderr %q", code, errOut)
	}
	// Authorization follows the Kerberos identity: joe may not touch alice's job nor change
	// the system mode (the user.name the CLI also sends is ignored); hue acting for alice may.
	if _, errOut, code := gozie("joe", "job", "-kill", ids["alice"]); code == 0 || !strings.Contains(errOut, "E0508") {
		t.Errorf("joe kills alice's job: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := gozie("joe", "admin", "-systemmode", "SAFEMODE"); code == 0 || !strings.Contains(errOut, "E0503") {
		t.Errorf("joe changes the system mode: exit %d, stderr %q", code, errOut)
	}
	if out, errOut, code := gozie("hue", "job", "-kill", ids["alice"], "-doas", "alice"); code != 0 {
		t.Errorf("hue -doas alice kills alice's job: exit %d\n%s%s", code, out, errOut)
	}
}
