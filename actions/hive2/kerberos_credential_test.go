package hive2_test

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/minihs2"
	"github.com/gozie/gozie/workflow"
)

// TestKerberosFromTheActionsCredential: Oozie's secure hive2 actions give
// their jdbc-url no principal= and name a hive2 <credential> (cred=) whose
// hive2.server.principal is HiveServer2's; gozie reaches the Kerberized
// server as its principal acting for the workflow's user, over both
// transports. Without the credential the same URL is refused, so the
// success is not a fallback.
func TestKerberosFromTheActionsCredential(t *testing.T) {
	t.Parallel()
	for _, transport := range []minihs2.Transport{minihs2.Binary, minihs2.HTTP} {
		t.Run(string(transport), func(t *testing.T) {
			t.Parallel()
			e, ex := kerberized(t, transport)
			url, _ := hive2.CutPrincipal(kerberosURL(e.hs2))
			cred := actions.Credential{Name: "hs2-creds", Type: hive2.CredentialType, Properties: conf.NewProperties(
				hive2.CredentialJDBCURL, url, hive2.CredentialPrincipal, "hive/_HOST@"+kdc.Realm)}

			bare := e.newRun("bare", body(url, query("SELECT 1")))
			if _, err := ex.Start(ctxT(t), bare); err == nil {
				t.Fatal("a jdbc-url without principal= and no credential opened a session on a Kerberized HiveServer2")
			}

			run := e.newRun("q", body(url, query("CREATE TABLE IF NOT EXISTS t (a INT)")))
			run.Credentials = []actions.Credential{cred}
			if _, err := ex.Start(ctxT(t), run); err != nil {
				t.Fatal(err)
			}
			if st := waitDone(t, ex, run); st.Outcome != workflow.OutcomeOK {
				t.Fatalf("run ended %+v", st)
			}
			stmts := e.hs2.Statements()
			if len(stmts) != 1 || stmts[0].User != "alice" {
				t.Errorf("statements %+v, want one run as alice", stmts)
			}
			if !strings.Contains(e.hs2.JDBCURL("default"), "principal=") {
				t.Fatal("the server is not Kerberized")
			}
		})
	}
}
